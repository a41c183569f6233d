import Foundation
import GStreamer
import Hummingbird
import Logging
import Synchronization

/// What serves a `webrtc://HOST:PORT/PATH` output: an HTTP server (Hummingbird) on HOST:PORT with
/// the viewer page and the WHEP endpoint (`WHEPEndpoints`), and the viewers fed from the output's
/// appsinks (`WebRTCViewers`). It runs beside the pipeline, on Swift tasks, until `close()`.
final class WebRTCServer: StreamServer {
    let address: StreamAddress
    let viewers: WebRTCViewers
    private let server: Task<Void, Never>

    /// Starts listening; returns once the server accepts connections, or throws saying why it cannot.
    init(
        address: StreamAddress, codec: WebRTCCodec, sources: WebRTCViewers.Sources,
        note: @escaping @Sendable (String) -> Void
    ) async throws(FileJob.Failure) {
        self.address = address
        do {
            viewers = try WebRTCViewers(
                sources: sources, codec: codec, addresses: Self.iceAddresses(for: address.host), note: note)
        } catch {
            throw .runtime("cannot serve \(address.uri): \(error.message)")
        }
        let endpoints = WHEPEndpoints(path: address.path, viewers: viewers)
        let started = OneShot()
        let failure = Mutex<String?>(nil)
        // Hummingbird's log goes nowhere: gstpipe says what matters in its own notes, and standard
        // output may carry data.
        let logger = Logger(label: "gstpipe.webrtc") { _ in SwiftLogNoOpLogHandler() }
        let bind = BindAddress.hostname(Self.bindHost(address.host), port: address.port)
        let application = Application(
            router: endpoints.router(), configuration: ApplicationConfiguration(address: bind),
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
            viewers.close()
            let cause = reason.contains("in use") ? "port \(address.port) is in use" : reason
            throw .runtime(
                "cannot serve \(address.uri): \(cause) (choose another port, or an address of this machine, "
                    + "such as 0.0.0.0 for all of them)")
        }
    }

    /// The address to bind: all of this machine's for `webrtc://:PORT/PATH`.
    private static func bindHost(_ host: String) -> String {
        host.isEmpty ? "0.0.0.0" : host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    }

    /// The addresses each viewer's ICE agent offers besides those libnice finds itself, which leave
    /// loopback out: the address listened on, and loopback when listening on every address, so that
    /// a browser on this machine connects without a network.
    static func iceAddresses(for host: String) -> [String] {
        switch host.lowercased() {
        case "", "0.0.0.0", "localhost": return ["127.0.0.1"]
        case "::", "[::]": return ["::1", "127.0.0.1"]
        default: return [host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))]
        }
    }

    /// The page's URL: this machine's name in place of an address that listens everywhere.
    var pageURL: String {
        let host = address.host
        let shown = ["", "0.0.0.0", "::", "[::]"].contains(host) ? ProcessInfo.processInfo.hostName : host
        return "http://\(shown):\(address.port)\(address.path)"
    }

    /// The note said as the output starts.
    var startNote: String {
        "serving \(address.uri): watch at \(pageURL) (a browser on any origin; WHEP endpoint \(pageURL)/whep, "
            + "\(viewers.media.name), up to \(WebRTCViewers.limit) viewers)"
    }

    /// Nothing to wait for at end of stream: each viewer's appsrc is ended as the appsink ends.
    func finish() {}

    /// Closes every viewer's connection and stops listening.
    func close() {
        viewers.close()
        server.cancel()
    }
}
