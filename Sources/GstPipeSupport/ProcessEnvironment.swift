// `ProcessEnvironment`: the few variables start-up reads, read where the C library keeps them. Foundation's
// `ProcessInfo.processInfo.environment` copies every variable into a new dictionary at each call (each
// name and value decoded and hashed); a plain run read it three times before its pipeline was made.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

package enum ProcessEnvironment {
    /// The value of the variable `name`, nil when it is not set.
    package static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The variables whose names start with `prefix`, by name (a name's bytes compared, not its
    /// characters: `GSTPIPE_` is ASCII).
    package static func variables(prefixed prefix: String) -> [String: String] {
        var found: [String: String] = [:]
        let prefixLength = prefix.utf8.count
        guard var entry = environmentEntries() else { return found }
        while let pair = entry.pointee {
            defer { entry += 1 }
            guard strncmp(pair, prefix, prefixLength) == 0, let equals = strchr(pair, 0x3D) else { continue }
            let nameLength = equals - pair
            let name = pair.withMemoryRebound(to: UInt8.self, capacity: nameLength) {
                String(decoding: UnsafeBufferPointer(start: $0, count: nameLength), as: UTF8.self)
            }
            found[name] = String(cString: equals + 1)
        }
        return found
    }

    private static func environmentEntries() -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Darwin)
        return _NSGetEnviron()?.pointee
        #else
        return environ
        #endif
    }
}
