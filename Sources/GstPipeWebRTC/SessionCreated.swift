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
            let quoted = { (text: String) in text.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "\"", with: "\\\"") }
            links.append(
                "<\(turn.browserURL)>; rel=\"ice-server\"; username=\"\(quoted(turn.user))\"; "
                    + "credential=\"\(quoted(turn.password))\"; credential-type=\"password\"")
        }
        return links
    }

    /// `Link` (RFC 8288), which HTTPTypes does not name.
    static var linkHeader: HTTPField.Name { HTTPField.Name("Link")! }
}
