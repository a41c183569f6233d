import Foundation
import GstPipeMetrics
import GstPipeWebRTC
import Hummingbird

/// `--metrics HOST:PORT`: an HTTP server (Hummingbird, the same server as `webrtc://`'s signalling)
/// answering `GET /metrics` with `Metrics.shared` in Prometheus' text format and `GET /healthz` with the
/// input's health (200 or 503, a short JSON body), beside the pipeline until `close()`.
final class MetricsServer: Sendable {
    private let http: SignallingServer

    /// Starts listening; throws a usage error saying why it cannot (the port is in use, the address
    /// is not this machine's).
    init(address: MetricsAddress, metrics: Metrics = .shared) async throws(FileJob.Failure) {
        let router = Router(context: BasicRequestContext.self)
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: Metrics.contentType, .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
        router.get("/healthz") { _, _ in
            let health = metrics.health
            return Response(
                status: health.isHealthy ? .ok : .serviceUnavailable,
                headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: health.json + "\n")))
        }
        let shown = "--metrics \(address.authority)"
        do throws(SignallingServer.Refused) {
            http = try await SignallingServer(
                address: .init(host: address.host, port: address.port, path: "/metrics", shown: shown), router: router)
        } catch {
            throw .usage(error.message)
        }
    }

    /// Stops listening.
    func close() { http.close() }
}
