import Foundation
import GstPipeSupport
import Hummingbird
import Logging
import Synchronization

/// The HTTP server both sides of `webrtc://HOST:PORT/PATH` run (Hummingbird): the output's viewer
/// page and WHEP endpoint, the input's publisher page and WHIP endpoint. It listens on HOST:PORT
/// beside the pipeline, on Swift tasks, until `close()`; starting it returns once it accepts
/// connections, or throws saying why it cannot.
package final class SignallingServer: Sendable {
    /// Where a signalling server listens, and how messages name it.
    package struct Address: Sendable {
        /// The address to bind; empty for all of this machine's.
        package var host: String
        package var port: Int
        /// The page's path (`/live`); the endpoint is below it.
        package var path: String
        /// The address as messages show it, with no secret (`webrtc://127.0.0.1:8890/live?token=***`).
        package var shown: String

        /// The address from its parts.
        package init(host: String, port: Int, path: String, shown: String) {
            (self.host, self.port, self.path, self.shown) = (host, port, path, shown)
        }
    }

    /// Why the server cannot listen, said as a message that names what to do.
    package struct Refused: Error, Sendable {
        package let message: String
    }

    package let address: Address
    private let server: Task<Void, Never>

    /// Starts listening on `address` with `router`.
    package init(address: Address, router: Router<BasicRequestContext>) async throws(Refused) {
        self.address = address
        let started = OneShot()
        let failure = Locked<String?>(nil)
        // Hummingbird's log goes nowhere: gstpipe says what matters in its own notes, and standard
        // output may carry data.
        let logger = Logger(label: "gstpipe.webrtc") { _ in SwiftLogNoOpLogHandler() }
        let bind = BindAddress.hostname(Self.bindHost(address.host), port: address.port)
        let limits = ServerLimits.current
        let counts = ConnectionCounts(limit: limits.connectionsPerAddress)
        let application = Application(
            // HTTP/1.1 with limits on what one request may hold, beyond which swift-nio's decoder refuses
            // it and closes the connection: a request line or header field of 8 KiB (a browser's are
            // well under 1), 32 KiB of headers in all, 100 fields. The body is bounded where it is read
            // (an offer's 413). A request's whole time and the connections per address are limited too
            // (`RequestLimits`): the idle timeout alone lets a body sent a byte at a time last forever.
            router: router,
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [RequestLimits(counts: counts, requestTime: limits.requestTime)],
                    idleTimeout: .seconds(Self.idleSeconds),
                    httpDecoderConfiguration: .init(
                        maxHeaderFieldSize: 8 * 1024, maxHeaderListSize: 32 * 1024, maxHeaderFieldCount: 100))),
            configuration: ApplicationConfiguration(address: bind),
            onServerRunning: { _ in started.fire() }, logger: logger)
        server = Task {
            do {
                try await application.run()
            } catch {
                failure.withLock { $0 = "\(error)" }
                started.fire()
            }
        }
        await started.wait(timeout: .seconds(30))
        if let reason = failure.withLock({ $0 }) {
            let cause = reason.contains("in use") ? "port \(address.port) is in use" : reason
            throw Refused(
                message: "cannot serve \(address.shown): \(cause) (choose another port, or an address of "
                    + "this machine, such as 0.0.0.0 for all of them)")
        }
    }

    /// Seconds a connection may be idle (no request, or a request that never ends: slowloris) before
    /// it is closed: a browser's page makes its requests at once, and an idle connection holds a file
    /// descriptor.
    package static let idleSeconds: Int64 = 30

    /// The address to bind: all of this machine's for `webrtc://:PORT/PATH`.
    private static func bindHost(_ host: String) -> String {
        host.isEmpty ? "0.0.0.0" : host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    }

    /// The addresses each peer's ICE agent offers: the address listened on; when listening on every
    /// address, each of this machine's interfaces' (`getifaddrs`), loopback last, so that a browser on
    /// another machine reaches one and a browser on this machine connects without a network. Given
    /// any address, libnice offers those alone (it looks for the machine's own only when given none,
    /// and then leaves loopback out): given loopback alone, a server on 0.0.0.0 offered 127.0.0.1
    /// alone, which no other machine reaches.
    package static func iceAddresses(for host: String) -> [String] {
        switch host.lowercased() {
        case "localhost": return ["127.0.0.1"]
        case "", "0.0.0.0": return everyAddress(InterfaceAddresses.all(ipv6: false), loopback: ["127.0.0.1"])
        case "::", "[::]":
            return everyAddress(
                InterfaceAddresses.all(ipv6: true) + InterfaceAddresses.all(ipv6: false), loopback: ["::1", "127.0.0.1"]
            )
        default: return [host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))]
        }
    }

    /// `addresses`, those of `loopback` last: there even when the interfaces could not be read.
    private static func everyAddress(_ addresses: [String], loopback: [String]) -> [String] {
        addresses.filter { !loopback.contains($0) } + loopback
    }

    /// The page's URL: this machine's name in place of an address that listens everywhere.
    package var pageURL: String { Self.pageURL(of: address) }

    /// The page's URL for `address`: this machine's name in place of an address that listens everywhere.
    package static func pageURL(of address: Address) -> String {
        let host = address.host
        let shown = ["", "0.0.0.0", "::", "[::]"].contains(host) ? ProcessInfo.processInfo.hostName : host
        return "http://\(shown):\(address.port)\(address.path)"
    }

    /// Stops listening.
    package func close() {
        server.cancel()
    }
}
