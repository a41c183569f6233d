/// `rtsp://HOST:PORT/PATH`: served by gstpipe itself (`RTSPServer`) to any number of viewers, who
/// come and go without touching the pipeline. The chain ends in an appsink the server takes H.264
/// access units from; with a file input's audio, H.264 and AAC in MPEG-TS, one RTP stream.
struct RTSPOutput: StreamOutput {
    static let scheme = OutputScheme(
        naming: .uri(["rtsp"]), help: "rtsp://HOST:PORT/PATH (served to any number of viewers)",
        example: "rtsp://0.0.0.0:8554/live", isServer: true, defaultPort: 8554, needsPath: true,
        options: .refused("rtsp:// outputs take no options (the server serves every client the same stream)"))

    let address: StreamAddress
    /// The server sends MPEG-TS (video and a file's audio), not H.264 alone.
    private var carriesTransportStream = false

    init(_ address: StreamAddress) {
        self.address = address
    }

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
        let server = try RTSPServer(address: address, appsink: appsink, mpegTS: carriesTransportStream)
        note("serving \(server.url) (open it with ffplay, VLC or gst-play-1.0; any number of viewers)")
        return server
    }
}
