import GstPipeMetrics
import GstPipeParsing

/// `rtsp://HOST:PORT/PATH`: served by gstpipe itself (`RTSPServer`) to any number of viewers, who
/// come and go without touching the pipeline; with a password, over TLS (`rtsps://`) or to a number
/// of viewers at most, as `RTSPAccess` reads them. The chain ends in an appsink the server takes H.264
/// access units from; with a file input's audio, H.264 and AAC in MPEG-TS, one RTP stream.
struct RTSPOutput: StreamOutput {
    static let scheme = OutputScheme(
        naming: .uri(["rtsp", "rtsps"]), help: "rtsp://HOST:PORT/PATH (served to any number of viewers)",
        example: "rtsp://0.0.0.0:8554/live", isServer: true, defaultPort: 8554, needsPath: true,
        options: .checked(RTSPAccess.checkOptions), takesCredentials: true)

    let address: StreamAddress
    /// The server sends MPEG-TS (video and a file's audio), not H.264 alone.
    private var carriesTransportStream = false

    init(_ address: StreamAddress) {
        self.address = address
    }

    /// Served over TLS: `rtsps://`.
    var isTLS: Bool { address.uri.lowercased().hasPrefix("rtsps:") }

    /// The server payloads it (rtph264pay, or rtpmp2tpay) in its own media pipeline. Without a file
    /// input H.264 goes alone, with a frame less of latency (no demuxer waiting for the next frame).
    var format: OutputFormat {
        carriesTransportStream ? Self.withAudio : Self.videoOnly
    }

    private static let videoOnly = OutputFormat.streamingVideo("H.264 over RTSP")
    private static let withAudio = OutputFormat.transportStream(over: "RTSP")

    mutating func carryInputAudio() {
        carriesTransportStream = true
    }

    /// sync: a file input is sent at its own pace, not as fast as it decodes.
    var sinkChain: [ElementSpec] {
        [ElementSpec("appsink", [("sync", .text("true")), ("async", .text("false")), ("max-buffers", .text("60"))])]
    }

    func startNote(_ settings: StreamSettings) -> String? { nil }

    var failureAdvice: String { "the RTSP server stopped: run gstpipe again, with -v for GStreamer's details" }

    /// Listens, and says where: the server may have chosen the port, and a viewer cannot open 0.0.0.0.
    func start(
        _ chain: FileJobElements.Output, settings: StreamSettings, note: @escaping @Sendable (String) -> Void
    ) async throws(FileJob.Failure) -> (any StreamServer)? {
        guard let appsink = chain.sink else { return nil }
        let access = try RTSPAccess(address, settings: settings)
        if let warning = access.warning { note(warning) }
        let name = RunMetrics.name(of: chain.file)
        let server = try RTSPServer(
            address: address, appsink: appsink, mpegTS: carriesTransportStream, access: access,
            viewers: { joined in
                if joined { Metrics.shared.viewerJoined(output: name) } else { Metrics.shared.viewerLeft(output: name) }
            })
        let who = access.users.isEmpty ? "any number of viewers" : "viewers with a password"
        note("serving \(server.url) (open it with ffplay, VLC or gst-play-1.0; \(who))")
        return server
    }
}
