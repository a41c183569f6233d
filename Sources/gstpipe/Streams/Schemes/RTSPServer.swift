import CGStreamer
import CGStreamerRTSPShim
import Foundation
import GstPipeParsing
import GstPipeSupport
import MediaIO

/// gst-rtsp-server serving what an `rtsp://HOST:PORT/PATH` output's appsink receives: one shared
/// media pipeline (`appsrc ! rtph264pay`) for every client, fed from the appsink, so clients come and
/// go without touching the producer or each other. A client that starts playing asks the encoder for
/// a key frame. The server runs on a GLib main loop thread of its own until `close()`.
final class RTSPServer: StreamServer, @unchecked Sendable {
    // The C server is thread-safe (a mutex inside guards what the streaming thread and the server's
    // thread share). The pointer is locked: `finish()` reads it on a thread of its own, and the run's
    // close() then clears it on another, ordered only by a continuation that ThreadSanitizer cannot see.
    private let server: Locked<OpaquePointer?>
    let address: StreamAddress
    /// The port it listens on.
    let port: Int
    /// Who it lets in.
    let access: RTSPAccess

    /// Starts serving what reaches `appsink`: H.264 access units, or MPEG-TS when `mpegTS` (a file
    /// input's video and audio together), to the clients `access` lets in, telling `viewers` as each
    /// client starts playing (true) and as one that played goes (false). Throws a message saying why
    /// the server cannot listen, or what is wrong with its users, certificate or key.
    init(
        address: StreamAddress, appsink: Element, mpegTS: Bool = false, access: RTSPAccess = RTSPAccess(),
        viewers: (@Sendable (_ joined: Bool) -> Void)? = nil
    ) throws(FileJob.Failure) {
        self.address = address
        let made = appsink.withUnsafePointer { sink in
            CGStreamerRTSPShim_server_new(sink, address.host, String(address.port), address.path, mpegTS ? 1 : 0)
        }
        guard let made else { throw .runtime("cannot serve \(address.uri): gst-rtsp-server made no server") }
        do {
            try access.apply(to: made)
        } catch {
            CGStreamerRTSPShim_server_free(made)
            throw error
        }
        if let viewers { Self.watchViewers(of: made, with: viewers) }
        var error: UnsafeMutablePointer<CChar>?
        guard CGStreamerRTSPShim_server_listen(made, &error) != 0 else {
            let reason = RTSPAccess.take(error)
            CGStreamerRTSPShim_server_free(made)
            throw .runtime(
                "cannot serve \(address.uri): \(reason) (choose another port, or an address of this machine, "
                    + "such as 0.0.0.0 for all of them)")
        }
        port = Int(CGStreamerRTSPShim_server_port(made))
        self.access = access
        server = Locked(made)
    }

    /// Hands the C server `handler`, kept until the server is freed (its GDestroyNotify releases it).
    private static func watchViewers(of server: OpaquePointer, with handler: @escaping @Sendable (Bool) -> Void) {
        final class Box: Sendable {
            let handler: @Sendable (Bool) -> Void
            init(_ handler: @escaping @Sendable (Bool) -> Void) { self.handler = handler }
        }
        CGStreamerRTSPShim_server_watch_viewers(
            server,
            { context, joined, _ in
                guard let context else { return }
                Unmanaged<Box>.fromOpaque(context).takeUnretainedValue().handler(joined != 0)
            }, Unmanaged.passRetained(Box(handler)).toOpaque(),
            { context in
                guard let context else { return }
                Unmanaged<Box>.fromOpaque(context).release()
            })
    }

    /// The URL to open: the one given (its password masked), with the port the server got, and this
    /// machine's name in place of 0.0.0.0 (which a viewer cannot open).
    var url: String {
        let host = ["0.0.0.0", "::", "[::]"].contains(address.host) ? ProcessInfo.processInfo.hostName : address.host
        let scheme = access.tls == nil ? "rtsp" : "rtsps"
        let user = address.credentials.map { "\($0.user):***@" } ?? ""
        return "\(scheme)://\(user)\(host):\(port)\(address.path)"
    }

    /// After end of stream reached the appsink: waits (up to `timeout`) until each media pipeline has
    /// sent it on to its clients.
    func waitUntilFinished(timeout: Duration) -> Bool {
        guard let server = server.withLock({ $0 }) else { return true }
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        return CGStreamerRTSPShim_server_wait_finished(server, guint(milliseconds)) != 0
    }

    /// After end of stream: each client is sent it, for up to two seconds. The C server's wait blocks,
    /// so it runs on a thread of its own and the caller suspends: two seconds on Swift's cooperative
    /// pool are half of it on a 2-core machine.
    func finish() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread { [self] in
                _ = waitUntilFinished(timeout: .seconds(2))
                continuation.resume()
            }.start()
        }
    }

    /// Disconnects every client and stops listening.
    func close() {
        guard let server = server.withLock({ server in server.take() }) else { return }
        CGStreamerRTSPShim_server_free(server)
    }

    deinit { close() }
}
