import Foundation
import GstPipeParsing
import HTTPTypes
import Hummingbird

/// The HTTP side of a `webrtc://HOST:PORT/PATH` input, after WHIP (RFC 9725):
///
/// - `GET PATH`: the publisher page (`PublisherPage`);
/// - `POST PATH/whip` with an `application/sdp` offer: `201 Created`, the session's URL in
///   `Location`, and the SDP answer with every ICE candidate (the server does not trickle its own);
///   `409 Conflict` while another publisher is live, `503` once the stream has ended;
/// - `PATCH PATH/whip/ID` with an `application/trickle-ice-sdpfrag` (RFC 9725 section 4.3): the peer's
///   candidates after its offer (`204`); new credentials, an ICE restart, are `501` (`SessionCreated`);
/// - `DELETE PATH/whip/ID`: the publisher leaves, which ends the stream (`404` for a session that
///   is not, or no longer, there).
///
/// Unknown paths, other methods, CORS and OPTIONS are answered as for WHEP (`SignallingGatekeeper`).
package struct WHIPEndpoints: SignallingRoutes {
    package let path: String
    package let input: any PublisherSessions
    package let token: BearerToken?

    /// The endpoints at `path` for `input`, each request bearing `token` when there is one.
    package init(path: String, input: any PublisherSessions, token: BearerToken?) {
        (self.path, self.input, self.token) = (path, input, token)
    }

    /// The publishers' STUN and TURN servers.
    package var ice: ICESettings { input.ice }

    /// The WHIP endpoint's path.
    package var endpoint: String { path + "/whip" }

    /// Where a request for a path this server does not have is sent.
    package var elsewhere: String { "the publisher page is \(path), the WHIP endpoint \(endpoint)" }

    /// The router for the page and the endpoint.
    package func router() -> Router<BasicRequestContext> {
        let configuration = ice.pageConfiguration(withTURN: token == nil)
        let router = makeRouter(page: PublisherPage.html(configuration: configuration), at: path)
        router.post(RouterPath(endpoint)) { request, _ in await publish(request) }
        router.delete(RouterPath(endpoint + "/:session")) { _, context in
            guard input.leave(context.parameters.get("session") ?? "") else {
                return Self.text(.notFound, "no such session (it has ended)")
            }
            return Response(status: .ok)
        }
        router.patch(RouterPath(endpoint + "/:session")) { request, context in
            let negotiation = input.negotiation(of: context.parameters.get("session") ?? "")
            return await Self.patch(request) { WebRTCNegotiation.trickle($0, to: negotiation) }
        }
        return router
    }

    /// The methods `requestPath` takes (OPTIONS aside), nil for a path this server does not have.
    package func methods(for requestPath: String) -> [HTTPRequest.Method]? {
        switch requestPath {
        case path: return [.get]
        case endpoint: return [.post]
        case _ where requestPath.hasPrefix(endpoint + "/"):
            let session = requestPath.dropFirst(endpoint.count + 1)
            return session.isEmpty || session.contains("/") ? nil : [.delete, .patch]
        default: return nil
        }
    }

    /// A publisher's offer: checked, then answered by the input if no other publisher is live.
    private func publish(_ request: Request) async -> Response {
        let offer: PublisherOffer
        switch await Self.sdpBody(of: request, maximumLength: PublisherOffer.maximumLength) {
        case .failure(let refused): return refused.response
        case .success(let text):
            do {
                offer = try PublisherOffer(text)
            } catch {
                return Self.text(.badRequest, error.reason)
            }
        }
        switch await input.publish(offer) {
        case .success(let (session, answer)):
            return Self.created(at: "\(endpoint)/\(session)", answer: answer, ice: input.ice)
        case .failure(.busy):
            return Self.text(.conflict, "another publisher is live here: one at a time")
        case .failure(.ended):
            return Self.text(.serviceUnavailable, "the stream has ended: run gstpipe again to record another")
        case .failure(.failed(let reason)):
            return Self.text(.internalServerError, reason)
        }
    }
}
