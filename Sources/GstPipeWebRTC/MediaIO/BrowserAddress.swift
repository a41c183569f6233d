import Foundation

/// A `webrtc://HOST:PORT/PATH` address given to `BrowserViewers` or `BrowserPublisher`, read as the
/// CLI reads its own: the host to listen on (empty: all of this machine's), the port, the page's path,
/// and the query's `token` (and `codec` for viewers). The token is hidden in every message.
struct BrowserAddress: Sendable {
    let server: SignallingServer.Address
    let options: [String: String]

    /// Reads `text`; `defaultPort` when it names none.
    init(_ text: String, defaultPort: Int) throws(BrowserWebRTCError) {
        let example = "webrtc://127.0.0.1:\(defaultPort)/live"
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "webrtc" else {
            throw BrowserWebRTCError("cannot read \(Self.masked(text)) as a webrtc:// address: write it as \(example)")
        }
        let port = components.port ?? defaultPort
        guard 1...65535 ~= port else {
            throw BrowserWebRTCError("\(Self.masked(text)): the port must be between 1 and 65535")
        }
        let path = components.path
        guard path.count > 1 else {
            throw BrowserWebRTCError("\(Self.masked(text)) has no path: name the stream, such as \(example)")
        }
        var options: [String: String] = [:]
        for item in components.queryItems ?? [] { options[item.name] = item.value ?? "" }
        if let empty = BearerToken.emptiness(options["token"]) {
            throw BrowserWebRTCError("\(Self.masked(text)): \(empty)")
        }
        self.options = options
        server = SignallingServer.Address(
            host: components.host ?? "", port: port, path: path, shown: Self.masked(text))
    }

    /// The bearer token the address asks of WHEP or WHIP requests, if any (else `GSTPIPE_WEBRTC_TOKEN`).
    var token: BearerToken? { BearerToken(options["token"]) }

    /// `text` with the value of its `token` option replaced by `***`.
    static func masked(_ text: String) -> String {
        text.replacing(#/([?&]token=)[^&]*/#) { "\($0.output.1)***" }
    }
}

/// Why a `BrowserViewers` or `BrowserPublisher` could not start, in words that say what to do.
public struct BrowserWebRTCError: Error, Sendable, CustomStringConvertible {
    /// What went wrong and what to do about it.
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
