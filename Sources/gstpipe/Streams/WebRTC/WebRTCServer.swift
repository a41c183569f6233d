import Foundation
import GStreamer
import GstPipeParsing
import GstPipeSupport
import GstPipeWebRTC

/// What serves a `webrtc://HOST:PORT/PATH` output: an HTTP server (`SignallingServer`) on HOST:PORT with
/// the viewer page and the WHEP endpoint (`WHEPEndpoints`), and the viewers fed from the output's
/// appsinks (`WebRTCViewers`). It runs beside the pipeline, on Swift tasks, until `close()`.
final class WebRTCServer: StreamServer {
    let address: StreamAddress
    let viewers: WebRTCViewers
    private let http: SignallingServer
    private let misfit: Misfit

    /// Why the run cannot encode the ladder asked for, once its source's size showed it (a rung larger
    /// than the source): the run's error is then the user's to fix, a usage error.
    final class Misfit: Sendable {
        private let message = Locked<String?>(nil)

        func set(_ text: String) { message.withLock { $0 = text } }

        var text: String? { message.withLock { $0 } }
    }

    var usageFailure: String? { misfit.text }

    /// Starts listening; returns once the server accepts connections, or throws saying why it cannot.
    init(
        address: StreamAddress, codec: WebRTCCodec, ice: ICESettings, sources: WebRTCViewers.Sources, limit: Int,
        misfit: Misfit = Misfit(), note: @escaping @Sendable (String) -> Void
    ) async throws(FileJob.Failure) {
        self.address = address
        self.misfit = misfit
        do {
            viewers = try WebRTCViewers(
                sources: sources, codec: codec, ice: ice, limit: limit, note: note)
        } catch {
            throw .runtime("cannot serve \(Secrets.redact(address.uri)): \(error.message)")
        }
        let endpoints = WHEPEndpoints(path: address.path, viewers: viewers, token: BearerToken(address: address))
        do {
            http = try await SignallingServer.start(address: address, router: endpoints.router())
        } catch {
            viewers.close()
            throw error
        }
    }

    /// The addresses each viewer's ICE agent offers besides those libnice finds (`SignallingServer`).
    static func iceAddresses(for host: String) -> [String] { SignallingServer.iceAddresses(for: host) }

    /// The page's URL: this machine's name in place of an address that listens everywhere.
    var pageURL: String { http.pageURL }

    /// The note said as the output starts, the token hidden; with a token, the page's address says
    /// where it goes (`#token=`).
    var startNote: String {
        let page = BearerToken(address: address) == nil ? pageURL : pageURL + "#token=***"
        return "serving \(Secrets.redact(address.uri)): watch at \(page) (a browser on any origin; WHEP endpoint "
            + "\(pageURL)/whep, \(viewers.media.announced), up to \(viewers.limit) viewer\(viewers.limit == 1 ? "" : "s")"
            + (viewers.ice.shown.map { "; ICE: \($0)" } ?? "") + ")"
    }

    /// Each viewer's appsrc is ended as the appsink ends: waits (bounded) until webrtcbin has said BYE
    /// to each, before the run stops their pipelines.
    func finish() async {
        await viewers.waitForGoodbyes()
    }

    /// Closes every viewer's connection and stops listening.
    func close() {
        viewers.close()
        http.close()
    }
}
