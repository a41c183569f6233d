import Foundation
import GstPipeParsing
import GstPipeWebRTC

/// `whip+http://HOST:PORT/PATH` and `whip+https://…`: published to another server's WHIP endpoint
/// (RFC 9725), such as MediaMTX, a broadcast service or a media gateway, with gstpipe as the client
/// (`WHIPPublisher`). Encoded as for `webrtc://` (VP8, or H.264 with `?codec=h264`); a bearer token
/// from `?token=` or `GSTPIPE_WHIP_TOKEN`, which is never shown. Other query options stay in the
/// endpoint's URL.
struct WHIPOutput: StreamOutput {
    static let scheme = OutputScheme(
        naming: .uri(["whip+http", "whip+https"]), help: "whip+http(s)://HOST:PORT/PATH (published to a WHIP server)",
        example: "whip+http://127.0.0.1:8889/live/whip", defaultPort: 443, needsPath: true,
        options: .checked(checkOptions))

    let address: StreamAddress
    let client: WHIPClient

    init(_ address: StreamAddress) throws(FileJob.Failure) {
        self.address = address
        client = try WHIPClient(uri: address.written, role: .whip)
    }

    /// VP8 unless the address asks for H.264, as for `webrtc://`.
    var codec: WebRTCCodec { address.option("codec").flatMap(WebRTCCodec.init(option:)) ?? .vp8 }

    var format: OutputFormat { .webrtc(codec: codec) }

    /// Its encoder follows the WHIP server's receiver (key frames as it asks): never shared.
    var sharesEncoder: Bool { false }

    /// sync: a file input is sent at its own pace. The publisher takes the frames from its input pad.
    var sinkChain: [ElementSpec] {
        [ElementSpec("fakesink", [("sync", .text("true")), ("async", .text("false"))])]
    }

    /// Said as the publisher starts (`start`).
    func startNote(_ settings: StreamSettings) -> String? { nil }

    var failureAdvice: String { "publishing over WHIP stopped: check the server, and run gstpipe again with -v" }

    /// Starts the publisher, which offers once the first frame is encoded: an address nothing
    /// answers at, or a token refused, fails the run then.
    func start(
        _ chain: FileJobElements.Output, settings: StreamSettings, note: @escaping @Sendable (String) -> Void
    ) async throws(FileJob.Failure) -> (any StreamServer)? {
        guard let sink = chain.sink else { return nil }
        return try WHIPPublisher(
            client: client, codec: codec, ice: settings.ice, sink: sink, connectionLimit: Self.connectionLimit(),
            note: note)
    }

    /// How long the run waits for the connection: `WHIPPublisher.connectionLimit`, or for the tests
    /// (which cannot wait 20 s for each case) the whole seconds in `GSTPIPE_TEST_WHIP_CONNECTION_LIMIT`.
    /// Not an option users are meant to need: a variable of the test harness, not a flag.
    static func connectionLimit(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Duration {
        guard let text = environment["GSTPIPE_TEST_WHIP_CONNECTION_LIMIT"], let seconds = Int(text), seconds > 0
        else { return WHIPPublisher.connectionLimit }
        return .seconds(seconds)
    }

    /// `codec` is checked as for `webrtc://`; `token` is the bearer token; anything else is the
    /// endpoint's own and goes to it.
    private static func checkOptions(_ options: [(name: String, value: String)], in token: String) throws(FileJob
        .Failure)
    {
        let codecs = WebRTCCodec.allCases.map(\.rawValue).joined(separator: " or ")
        for (name, value) in options where name == "codec" && WebRTCCodec(option: value) == nil {
            throw .usage("\(Secrets.redact(token)): codec=\(value) is not sent over WebRTC: write codec=\(codecs)")
        }
        if options.contains(where: { $0.name == "token" && $0.value.isEmpty }) {
            throw .usage("\(Secrets.redact(token)): token= is empty: give the bearer token, or leave the option out")
        }
    }
}
