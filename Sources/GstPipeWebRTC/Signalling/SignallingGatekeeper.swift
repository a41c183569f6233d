import HTTPTypes
import Hummingbird

/// The paths of a WebRTC signalling server (WHEP's for an output, WHIP's for an input) and the
/// methods each takes, for `SignallingGatekeeper` to answer what no route should see.
package protocol SignallingRoutes: Sendable {
    /// The methods `requestPath` takes (OPTIONS aside), nil for a path this server does not have.
    func methods(for requestPath: String) -> [HTTPRequest.Method]?
    /// What a 404 says is here instead: "the viewer page is /live, the WHEP endpoint /live/whep".
    var elsewhere: String { get }
    /// The secret WHEP's or WHIP's requests must bear, nil when anyone may send them.
    var token: BearerToken? { get }
    /// The STUN and TURN servers the pages and the peers use.
    var ice: ICESettings { get }
}

/// Before any route: unknown paths (404), methods a path does not take (405, with `Allow`), and the
/// CORS preflight (`OPTIONS`); after it, the CORS headers on every response. Hummingbird's own
/// CORSMiddleware exposes headers in the preflight only, and a page must read `Location` from the
/// POST's own response.
package struct SignallingGatekeeper<Routes: SignallingRoutes>: RouterMiddleware {
    package typealias Context = BasicRequestContext
    package let routes: Routes

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        if let methods = routes.methods(for: request.uri.path) {
            let allow = (methods + [.options]).map(\.rawValue).joined(separator: ", ")
            if request.method == .options {
                response = Response(status: .noContent, headers: [.allow: allow])
                response.headers[.accessControlAllowMethods] = allow
                response.headers[.accessControlAllowHeaders] = "content-type, authorization"
                response.headers[.accessControlMaxAge] = "86400"
                if methods.contains(.post) { response.headers[Routes.acceptPost] = "application/sdp" }
                // The ICE servers, TURN credentials and all, to a request that may have them: the pages
                // ask this way when there is a token (`ICEServerScript`).
                if methods.contains(.post), routes.token?.admits(request.headers[.authorization]) ?? true {
                    for link in Routes.iceServerLinks(routes.ice) {
                        response.headers.append(HTTPField(name: Routes.linkHeader, value: link))
                    }
                }
            } else if let token = routes.token, request.method != .get && request.method != .head,
                !token.admits(request.headers[.authorization])
            {
                let given = request.headers[.authorization]
                response = Routes.text(
                    .unauthorized,
                    "this stream needs its token: send Authorization: Bearer TOKEN "
                        + "(the page sends it when opened with #token=TOKEN at the end of its URL)",
                    headers: BearerToken.challenge(given: given))
            } else if methods.contains(request.method) {
                response = try await next(request, context)
            } else {
                response = Routes.text(
                    .methodNotAllowed, "\(request.uri.path) takes \(allow)", headers: [.allow: allow])
            }
        } else {
            response = Routes.text(.notFound, "nothing here: \(routes.elsewhere)")
        }
        response.headers[.accessControlAllowOrigin] = "*"
        response.headers[.accessControlExposeHeaders] = "Location, Link, WWW-Authenticate"
        return response
    }
}

extension SignallingRoutes {
    /// `Accept-Post`, which says what a POST takes (RFC 5023; WHEP and WHIP answer it to OPTIONS).
    package static var acceptPost: HTTPField.Name { HTTPField.Name("Accept-Post")! }

    /// A response whose body is `message` as plain text: what a developer reads in the browser's
    /// network panel.
    package static func text(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "text/plain; charset=utf-8"
        let body = ResponseBody(byteBuffer: ByteBuffer(string: message + "\n"))
        return Response(status: status, headers: headers, body: body)
    }
}

extension SignallingRoutes {
    /// A router that answers through the gatekeeper first, with `html` served at `path`: the page a
    /// browser opens (the viewer's, the publisher's).
    package func makeRouter(page html: String, at path: String) -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: SignallingGatekeeper(routes: self))
        router.get(RouterPath(path)) { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
        }
        return router
    }

    /// The SDP body of an offer's POST, or the response refusing it: `415` (with `Accept-Post`) for
    /// another content type, `413` for a body longer than `maximumLength` bytes.
    package static func sdpBody(of request: Request, maximumLength: Int) async -> Result<String, RefusedRequest> {
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
        guard type?.lowercased() == "application/sdp" else {
            return .failure(
                RefusedRequest(
                    response: text(
                        .unsupportedMediaType, "an offer is sent as Content-Type: application/sdp",
                        headers: [acceptPost: "application/sdp"])))
        }
        do {
            return .success(String(buffer: try await request.body.collect(upTo: maximumLength)))
        } catch {
            return .failure(
                RefusedRequest(response: text(.contentTooLarge, "the offer is larger than \(maximumLength) bytes")))
        }
    }
}

/// A request answered with an error before it reached what it asked for.
package struct RefusedRequest: Error {
    package let response: Response
}
