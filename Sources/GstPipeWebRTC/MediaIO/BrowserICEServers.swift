import Foundation

/// How `BrowserViewers` and `BrowserPublisher` reach browsers beyond one network: the library's form of
/// the command line's `--stun`, `--turn` and `--public-ip`. Each viewer's (or publisher's) webrtcbin
/// gathers candidates through the STUN and TURN servers, and the served page gives its
/// `RTCPeerConnection` the same servers, so that a browser behind a NAT that lets no direct path
/// through still watches (or publishes), relayed by the TURN server.
///
/// ```swift
/// let ice = BrowserICEServers(turn: "turn://alice:secret@turn.example.net:3478")
/// let viewers = try await BrowserViewers.serve(video: capturer, at: "webrtc://0.0.0.0:8890/live", ice: ice)
/// ```
///
/// The TURN password is never printed; the viewer page carries it, as any WebRTC page that relays
/// must (with a token in the address, the page asks for it with the token).
public struct BrowserICEServers: Sendable, Equatable {
    /// A STUN server, `stun://HOST:PORT` (or `stun:HOST:PORT`; the port defaults to 3478).
    public var stun: String?
    /// A TURN server with its long-term credentials, `turn://USER:PASS@HOST:PORT` (`turns://` for TLS).
    public var turn: String?
    /// The address (IPv4 or IPv6) a NAT forwards to this machine: each host candidate is offered
    /// again at it.
    public var publicAddress: String?

    /// STUN, TURN and the public address, each optional; none at all serves the local network alone.
    ///
    /// - Parameters:
    ///   - stun: A STUN server, `stun://HOST:PORT`; nil for none.
    ///   - turn: A TURN server, `turn://USER:PASS@HOST:PORT` (or `turns://`); nil for none.
    ///   - publicAddress: The address a NAT forwards to this machine; nil for none.
    public init(stun: String? = nil, turn: String? = nil, publicAddress: String? = nil) {
        (self.stun, self.turn, self.publicAddress) = (stun, turn, publicAddress)
    }

    /// The settings each viewer's webrtcbin and the page take, beside `localAddresses` (those libnice
    /// leaves out: loopback). Throws, saying what to write, when one of the three cannot be read.
    func settings(localAddresses: [String]) throws(BrowserWebRTCError) -> ICESettings {
        var settings = ICESettings(localAddresses: localAddresses)
        do {
            settings.stun = try stun.map { text throws(ICESettings.Invalid) in try ICESettings.stunServer(text) }
            settings.turn = try turn.map { text throws(ICESettings.Invalid) in try ICESettings.turnServer(text) }
            settings.publicAddress = try publicAddress.map { text throws(ICESettings.Invalid) in
                try ICESettings.publicAddress(text)
            }
        } catch {
            // The parsers speak of the command line's options; the library's are this type's properties.
            let message = error.message.replacing("--public-ip", with: "publicAddress")
                .replacing("--stun", with: "stun").replacing("--turn", with: "turn")
            throw BrowserWebRTCError("BrowserICEServers: \(message)")
        }
        return settings
    }
}
