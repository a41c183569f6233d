import Foundation
import GStreamer

/// How gstpipe's WebRTC peers reach browsers beyond one network (`--stun`, `--turn`, `--public-ip`),
/// and the addresses libnice must be told of on loopback.
///
/// - A STUN server lets each side learn its address as seen from outside its NAT (server-reflexive
///   candidates); a TURN server relays the media when no direct path exists (relay candidates), the
///   last resort behind strict NATs and firewalls. Both go to webrtcbin's own `stun-server` and
///   `turn-server` properties, and to the served pages' `RTCPeerConnection`, so that the browser
///   gathers the same kinds of candidates.
/// - `--public-ip` is for a server behind a NAT that forwards its ports (a cloud machine with a
///   floating address, a home router's port forward): each of the answer's host candidates is also
///   offered at that address, same port, as MediaMTX's `webrtcAdditionalHosts` does. The browser's
///   checks reach the server through the forward, and libnice answers the unexpected source as a
///   peer-reflexive candidate.
package struct ICESettings: Sendable, Equatable {
    /// A TURN server with its long-term credentials (RFC 8489), from `turn://USER:PASS@HOST:PORT`.
    package struct TURNServer: Sendable, Equatable {
        package var user: String
        package var password: String
        package var host: String
        package var port: Int
        /// `turns://`: TURN over TLS.
        package var secure: Bool

        /// As webrtcbin's `turn-server` takes it: user and password percent-encoded in the URI.
        package var gstreamerURI: String {
            let allowed = CharacterSet.urlUserAllowed.subtracting(CharacterSet(charactersIn: ":@/"))
            let user = self.user.addingPercentEncoding(withAllowedCharacters: allowed) ?? self.user
            let password = self.password.addingPercentEncoding(withAllowedCharacters: allowed) ?? self.password
            return "\(secure ? "turns" : "turn")://\(user):\(password)@\(ICESettings.uriHost(host)):\(port)"
        }

        /// As a browser's `RTCIceServer.urls` takes it (`turn:HOST:PORT`); the credentials go apart.
        package var browserURL: String { "\(secure ? "turns" : "turn"):\(ICESettings.uriHost(host)):\(port)" }

        /// For notes: the password never printed (`turn://alice:***@host:3478`).
        package var shown: String {
            "\(secure ? "turns" : "turn")://\(user):***@\(ICESettings.uriHost(host)):\(port)"
        }
    }

    /// `stun://HOST:PORT`, as webrtcbin's `stun-server` takes it.
    package var stun: String?
    package var turn: TURNServer?
    /// The address a NAT in front of this machine forwards to it (`--public-ip`).
    package var publicAddress: String?
    /// Addresses each ICE agent offers besides those libnice finds itself (which leave loopback out).
    package var localAddresses: [String] = []

    /// The settings from their parts; none given: no STUN, no TURN, no public address.
    package init(
        stun: String? = nil, turn: TURNServer? = nil, publicAddress: String? = nil, localAddresses: [String] = []
    ) {
        (self.stun, self.turn, self.publicAddress, self.localAddresses) = (stun, turn, publicAddress, localAddresses)
    }

    /// True when none of the options was given.
    package var isEmpty: Bool { stun == nil && turn == nil && publicAddress == nil }

    /// A usage error in one of the options, said as the command line's own.
    package struct Invalid: Error, Sendable {
        package let message: String
    }

    /// Reads `--stun`: `stun://HOST:PORT` or `stun:HOST:PORT` (the browser's form); the port defaults
    /// to 3478, STUN's own.
    package static func stunServer(_ text: String) throws(Invalid) -> String {
        guard let (host, port) = hostAndPort(text, schemes: ["stun://", "stun:"]) else {
            throw Invalid(message: "--stun takes stun://HOST:PORT, such as stun://stun.example.net:3478, not \(text)")
        }
        return "stun://\(uriHost(host)):\(port)"
    }

    /// Reads `--turn`: `turn://USER:PASS@HOST:PORT` (or `turns://`); a user and a password are needed,
    /// since TURN servers relay for their users alone.
    package static func turnServer(_ text: String) throws(Invalid) -> TURNServer {
        let lowered = text.lowercased()
        let secure = lowered.hasPrefix("turns://")
        guard secure || lowered.hasPrefix("turn://"), let at = text.lastIndex(of: "@") else {
            throw Invalid(
                message: "--turn takes turn://USER:PASS@HOST:PORT (or turns:// for TLS), such as "
                    + "turn://alice:secret@turn.example.net:3478")
        }
        let credentials = text[text.index(text.startIndex, offsetBy: secure ? 8 : 7)..<at]
        guard let colon = credentials.firstIndex(of: ":"), colon != credentials.startIndex,
            credentials.index(after: colon) != credentials.endIndex
        else {
            throw Invalid(message: "--turn needs a user and a password: turn://USER:PASS@HOST:PORT")
        }
        let decode = { (part: Substring) in String(part).removingPercentEncoding ?? String(part) }
        guard let (host, port) = hostAndPort(String(text[text.index(after: at)...]), schemes: []) else {
            throw Invalid(
                message: "--turn: cannot read the server's address after @: write HOST:PORT, such as "
                    + "turn.example.net:3478")
        }
        return TURNServer(
            user: decode(credentials[..<colon]), password: decode(credentials[credentials.index(after: colon)...]),
            host: host, port: port, secure: secure)
    }

    /// Reads `--public-ip`: an IPv4 or IPv6 address (a name would need resolving on every answer).
    package static func publicAddress(_ text: String) throws(Invalid) -> String {
        let bare = text.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var v4 = in_addr()
        var v6 = in6_addr()
        guard inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1 else {
            throw Invalid(
                message: "--public-ip takes the address (IPv4 or IPv6) a NAT forwards to this machine, such as "
                    + "203.0.113.7, not \(text)")
        }
        return bare
    }

    /// Gives webrtcbin the STUN and TURN servers: before its gathering starts.
    package func configure(_ webrtcbin: Element) throws(GStreamerError) {
        if let stun { try webrtcbin.set("stun-server", stun) }
        if let turn { try webrtcbin.set("turn-server", turn.gstreamerURI) }
    }

    /// `sdp` with each host candidate offered a second time at the public address, same port, at a
    /// lower priority; `sdp` itself without `--public-ip`.
    package func advertised(_ sdp: String) -> String {
        guard let publicAddress else { return sdp }
        var lines: [String] = []
        for line in sdp.components(separatedBy: "\r\n") {
            lines.append(line)
            guard line.hasPrefix("a=candidate:") else { continue }
            // a=candidate:FOUNDATION COMPONENT TRANSPORT PRIORITY ADDRESS PORT typ TYPE ...
            var fields = line.dropFirst("a=candidate:".count).split(separator: " ").map(String.init)
            guard fields.count >= 8, fields[6] == "typ", fields[7] == "host", fields[4] != publicAddress,
                let priority = Int(fields[3])
            else { continue }
            fields[0] += "9"
            // Lower than the host candidate's, never below 1 (`priority - 1` of Int.min would trap).
            fields[3] = String(priority > 1 ? priority - 1 : 1)
            fields[4] = publicAddress
            lines.append("a=candidate:" + fields.joined(separator: " "))
        }
        return lines.joined(separator: "\r\n")
    }

    /// The `RTCConfiguration` the served pages give their `RTCPeerConnection`, as JSON: the same STUN
    /// and TURN servers (the TURN credentials with them, which a browser needs to relay: anyone who
    /// can load the page can use the TURN server, as with any WebRTC page that relays).
    package var pageConfiguration: String { pageConfiguration(withTURN: true) }

    /// `pageConfiguration`, leaving the TURN server out unless `withTURN`: a page anyone may load when
    /// the server has a token holds no TURN password, and asks for it with the token (`ICEServerScript`).
    package func pageConfiguration(withTURN: Bool) -> String {
        var servers: [[String: String]] = []
        if let stun { servers.append(["urls": "stun:" + stun.dropFirst("stun://".count)]) }
        if let turn, withTURN {
            servers.append(["urls": turn.browserURL, "username": turn.user, "credential": turn.password])
        }
        let data = try? JSONSerialization.data(withJSONObject: ["iceServers": servers], options: [.sortedKeys])
        let json = data.flatMap { String(data: $0, encoding: .utf8) } ?? #"{"iceServers":[]}"#
        // Inside a <script>: a "</" in a password must not end it.
        return json.replacingOccurrences(of: "</", with: #"<\/"#)
    }

    /// What the note says of them, with no password.
    package var shown: String? {
        let parts = [stun, turn?.shown, publicAddress.map { "public address \($0)" }].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// Host and port of `text` after one of `schemes` (none: `text` is HOST:PORT); the port defaults
    /// to 3478. Nil when it cannot be read.
    private static func hostAndPort(_ text: String, schemes: [String]) -> (String, Int)? {
        var rest = Substring(text)
        if !schemes.isEmpty {
            guard let scheme = schemes.first(where: { text.lowercased().hasPrefix($0) }) else { return nil }
            rest = rest.dropFirst(scheme.count)
        }
        rest = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? rest
        var host = rest
        var port = 3478
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { return nil }
                port = number
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard let number = Int(rest[rest.index(after: colon)...]) else { return nil }
            port = number
        }
        guard !host.isEmpty, !host.contains("/"), !host.contains("@"), 1...65535 ~= port else { return nil }
        return (String(host), port)
    }

    /// A host as a URI writes it: an IPv6 address in brackets.
    fileprivate static func uriHost(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }
}
