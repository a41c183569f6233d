#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// This machine's addresses, as its network interfaces have them (`getifaddrs`): what a server that
/// listens on every address offers its peers' ICE agents.
enum InterfaceAddresses {
    /// The addresses of the interfaces that are up, IPv4 (`ipv6` false) or IPv6, as text: those of
    /// other interfaces first, in the system's order, then loopback's. IPv6 link-local addresses
    /// (fe80::/10) are left out: they need an interface's scope, which a candidate cannot carry.
    static func all(ipv6: Bool) -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        var loopback: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, flags & Int32(IFF_UP) != 0,
                let text = text(of: address, ipv6: ipv6)
            else { continue }
            if flags & Int32(IFF_LOOPBACK) != 0 {
                loopback.append(text)
            } else if !(ipv6 && text.lowercased().hasPrefix("fe80:")) {
                addresses.append(text)
            }
        }
        // One entry per address: an interface with several names (aliases) lists it again.
        var seen = Set<String>()
        return (addresses + loopback).filter { seen.insert($0).inserted }
    }

    /// `address` as text when it is of the family asked for (`AF_INET6` when `ipv6`, else `AF_INET`).
    private static func text(of address: UnsafeMutablePointer<sockaddr>, ipv6: Bool) -> String? {
        let family = Int32(address.pointee.sa_family)
        guard family == (ipv6 ? AF_INET6 : AF_INET) else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written =
            ipv6
            ? address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet6 in
                var raw = inet6.pointee.sin6_addr
                return inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count)) != nil
            }
            : address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                var raw = inet.pointee.sin_addr
                return inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count)) != nil
            }
        guard written else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
