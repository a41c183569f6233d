import GstPipeParsing
import HTTPTypes
import Hummingbird

extension SignallingRoutes {
    /// WHEP's and WHIP's answer to an accepted offer: `201 Created`, the session's URL in `Location`,
    /// the SDP `answer` as the body, and the server's STUN and TURN servers as `Link` headers
    /// (`rel="ice-server"`, RFC 9725 section 4.6) for a client that configures its own peer connection.
    package static func created(at location: String, answer: String, ice: ICESettings) -> Response {
        var headers: HTTPFields = [.contentType: "application/sdp", .location: location]
        for link in iceServerLinks(ice) { headers.append(HTTPField(name: linkHeader, value: link)) }
        return Response(status: .created, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: answer)))
    }

    /// `ice`'s STUN and TURN servers as `Link` header values.
    package static func iceServerLinks(_ ice: ICESettings) -> [String] {
        var links: [String] = []
        if let stun = ice.stun { links.append("<stun:\(stun.dropFirst("stun://".count))>; rel=\"ice-server\"") }
        if let turn = ice.turn {
            let quoted = { (text: String) in
                text.replacingOccurrences(of: "\\", with: "\\\\")
                    .replacingOccurrences(of: "\"", with: "\\\"")
            }
            links.append(
                "<\(turn.browserURL)>; rel=\"ice-server\"; username=\"\(quoted(turn.user))\"; "
                    + "credential=\"\(quoted(turn.password))\"; credential-type=\"password\"")
        }
        return links
    }

    /// A session's PATCH (RFC 9725 section 4.3): the body read as an `application/trickle-ice-sdpfrag`
    /// (`415` for another type, `413` beyond its length, `400` with the reason for one that is not),
    /// then given to `apply`: `204` for candidates taken, `501` for an ICE restart (which webrtcbin 1.22
    /// cannot make as the answering side: the session goes on as it was), `404` for a session that is
    /// not (or no longer) there, `422` when webrtcbin refused a candidate.
    package static func patch(_ request: Request, apply: (TrickleFragment) -> TrickleOutcome) async -> Response {
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
        guard type?.lowercased() == trickleType else {
            return text(.unsupportedMediaType, "a PATCH is sent as Content-Type: \(trickleType)")
        }
        let fragment: TrickleFragment
        do {
            let body = try await request.body.collect(upTo: TrickleFragment.maximumLength)
            fragment = try TrickleFragment(String(buffer: body))
        } catch let refusal as TrickleFragment.Refusal {
            return text(.badRequest, refusal.reason)
        } catch {
            return text(.contentTooLarge, "the fragment is larger than \(TrickleFragment.maximumLength) bytes")
        }
        switch apply(fragment) {
        case .trickled: return Response(status: .noContent)
        case .restartRefused:
            return text(
                .notImplemented,
                "an ICE restart (new ice-ufrag and ice-pwd) is not supported here: the session "
                    + "goes on with its credentials; POST a new offer for a new session")
        case .noSession: return text(.notFound, "no such session (it has ended)")
        case .failed(let reason): return text(.unprocessableContent, "webrtcbin refused the fragment: \(reason)")
        }
    }

    /// The media type of a PATCH's body (RFC 8840).
    package static var trickleType: String { "application/trickle-ice-sdpfrag" }

    /// `Link` (RFC 8288), which HTTPTypes does not name.
    static var linkHeader: HTTPField.Name { HTTPField.Name("Link")! }
}
