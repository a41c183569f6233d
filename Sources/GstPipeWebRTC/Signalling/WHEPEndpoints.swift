import Foundation
import GstPipeParsing
import HTTPTypes
import Hummingbird

/// The HTTP side of a `webrtc://HOST:PORT/PATH` output, after WHEP (the IETF WISH draft):
///
/// - `GET PATH`: the viewer page (`ViewerPage`);
/// - `POST PATH/whep` with an `application/sdp` offer: `201 Created`, the session's URL in
///   `Location`, and the SDP answer with every ICE candidate (the server does not trickle its own);
/// - `PATCH PATH/whep/ID` with an `application/trickle-ice-sdpfrag` (RFC 9725 section 4.3): the peer's
///   candidates after its offer (`204`); new credentials, an ICE restart, are `501` (`SessionCreated`);
/// - `DELETE PATH/whep/ID`: ends that session alone (`404` for one that is not, or no longer, there).
///
/// Any other method on these paths is `405` with `Allow`, any other path `404`, a body that is not
/// SDP `415`, an offer that cannot work `400` with the reason as plain text (`406` when it takes none of
/// the codecs sent: no VP8 nor H.264 in constrained baseline, no Opus for sound alone). Every answer carries
/// CORS headers, and `OPTIONS` answers a browser's preflight, so that a page from another origin
/// can watch (WHEP players are usually served from elsewhere).
package struct WHEPEndpoints: SignallingRoutes {
    package let path: String
    package let viewers: WebRTCViewers
    package let token: BearerToken?

    /// The endpoints at `path` for `viewers`, each request bearing `token` when there is one.
    package init(path: String, viewers: WebRTCViewers, token: BearerToken?) {
        (self.path, self.viewers, self.token) = (path, viewers, token)
    }

    /// The viewers' STUN and TURN servers.
    package var ice: ICESettings { viewers.ice }

    /// The WHEP endpoint's path.
    package var endpoint: String { path + "/whep" }

    /// The router for the page and the endpoint.
    package func router() -> Router<BasicRequestContext> {
        let configuration = ice.pageConfiguration(withTURN: token == nil)
        let router = makeRouter(page: ViewerPage.html(configuration: configuration), at: path)
        router.post(RouterPath(endpoint)) { request, _ in try await offer(request) }
        router.delete(RouterPath(endpoint + "/:session")) { _, context in
            let session = context.parameters.get("session") ?? ""
            guard viewers.leave(session) else { return Self.text(.notFound, "no such session (it has ended)") }
            return Response(status: .ok)
        }
        router.patch(RouterPath(endpoint + "/:session")) { request, context in
            let negotiation = viewers.negotiation(of: context.parameters.get("session") ?? "")
            return await Self.patch(request) { WebRTCNegotiation.trickle($0, to: negotiation) }
        }
        return router
    }

    /// Where a request for a path this server does not have is sent.
    package var elsewhere: String { "the viewer page is \(path), the WHEP endpoint \(endpoint)" }

    /// The methods `path` takes (OPTIONS aside), nil for a path this server does not have.
    package func methods(for requestPath: String) -> [HTTPRequest.Method]? {
        if requestPath == path { return [.get] }
        if requestPath == endpoint { return [.post] }
        let prefix = endpoint + "/"
        if requestPath.hasPrefix(prefix), requestPath.count > prefix.count,
            !requestPath.dropFirst(prefix.count).contains("/")
        {
            return [.delete, .patch]
        }
        return nil
    }

    /// A viewer's offer: checked, then answered by a new viewer of the shared stream.
    private func offer(_ request: Request) async throws -> Response {
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
        guard type?.lowercased() == "application/sdp" else {
            return Self.text(
                .unsupportedMediaType, "a WHEP offer is sent as Content-Type: application/sdp",
                headers: [Self.acceptPost: "application/sdp"])
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: ViewerOffer.maximumLength)
        } catch {
            return Self.text(.contentTooLarge, "the offer is larger than \(ViewerOffer.maximumLength) bytes")
        }
        let offer: ViewerOffer
        do {
            offer = try ViewerOffer(String(buffer: body), sending: viewers.media)
        } catch {
            return Self.text(error.isUnacceptable ? .notAcceptable : .badRequest, error.reason)
        }
        do {
            let (session, answer) = try await viewers.join(offer)
            return Self.created(at: "\(endpoint)/\(session)", answer: answer, ice: viewers.ice)
        } catch {
            switch error {
            case .full(let limit):
                // Retry-After: a viewer's page that is closed leaves at once (DELETE), a vanished one
                // within WebRTCViewers.silenceLimit.
                return Self.text(
                    .serviceUnavailable, "\(limit) viewers are watching, the most served at once: try again later",
                    headers: [.retryAfter: "15"])
            case .ended:
                return Self.text(.serviceUnavailable, "the stream has ended")
            case .failed(let reason):
                return Self.text(.internalServerError, reason)
            }
        }
    }
}
