extension OutputFormat {
    /// How a stream destination is written: H.264 for streaming (`streamingH264`) in MPEG-TS for SRT
    /// and UDP (with AAC audio from a file input), in RTP for RTSP and `rtp://` (video only), and in
    /// HLS segments (MPEG-TS, AAC) for a `.m3u8` playlist.
    static func streaming(_ kind: StreamDestination.Kind) -> OutputFormat {
        switch kind {
        case .rtsp:
            // The RTSP server payloads it (rtph264pay) in its own media pipeline.
            return OutputFormat(
                extensions: [], name: "H.264 over RTSP", videoChain: streamingH264, muxer: nil, audioEncoders: nil,
                isImage: false, encoderInput: h264Input)
        case .srt, .udp:
            return OutputFormat(
                extensions: [], name: "H.264 in MPEG-TS", videoChain: streamingH264, muxer: "mpegtsmux",
                audioEncoders: aac, audioName: "AAC in MPEG-TS", isImage: false, encoderInput: h264Input)
        case .rtp:
            // SPS and PPS before every key frame: a receiver that starts late needs no SDP parameters.
            return OutputFormat(
                extensions: [], name: "RTP H.264",
                videoChain: streamingH264 + ["!", "rtph264pay", "config-interval=-1", "pt=96"], muxer: nil,
                audioEncoders: nil, isImage: false, encoderInput: h264Input)
        case .webrtc:
            // VP8 unless the URI asks for H.264: `webrtc(codec:)`.
            return webrtc(codec: .vp8)
        case .hls:
            return OutputFormat(
                extensions: ["m3u8"], name: "HLS (H.264 in MPEG-TS segments)", videoChain: streamingH264 + ["!", "h264parse"],
                muxer: "hlssink2", audioEncoders: aac, audioName: "HLS (AAC in MPEG-TS segments)",
                isImage: false, encoderInput: h264Input)
        }
    }

    /// A `webrtc://` output: encoded once for every viewer, packetized per viewer (`WebRTCViewer`).
    static func webrtc(codec: WebRTCCodec) -> OutputFormat {
        OutputFormat(
            extensions: [], name: "\(codec.encodingName) over WebRTC", videoChain: codec.encoderChain, muxer: nil,
            audioEncoders: nil, isImage: false, encoderInput: "video/x-raw,format=I420")
    }

    /// RTSP from a file input, whose audio goes with the video: H.264 and AAC in MPEG-TS, which the
    /// RTSP server sends as one RTP stream (rtpmp2tpay). Without a file input RTSP sends H.264 alone,
    /// with a frame less of latency (no demuxer waiting for the next frame).
    static let rtspWithAudio = transportStream(over: "RTSP")

    /// `rtp://` from a file input, whose audio goes with the video: H.264 and AAC in MPEG-TS, sent as
    /// one RTP stream (rtpmp2tpay, payload type 33), which the session description says.
    static let rtpWithAudio = transportStream(over: "RTP")

    /// H.264 and AAC in MPEG-TS, carried `over` RTP one way or another.
    private static func transportStream(over carrier: String) -> OutputFormat {
        OutputFormat(
            extensions: [], name: "H.264 and AAC in MPEG-TS over \(carrier)", videoChain: streamingH264,
            muxer: "mpegtsmux", audioEncoders: aac, audioName: "AAC in MPEG-TS over \(carrier)", isImage: false,
            encoderInput: h264Input)
    }

    /// H.264 for a network: x264 with no lookahead and no B-frames (tune=zerolatency: a frame
    /// leaves the encoder as it comes in), the veryfast preset (a live source must be encoded in real
    /// time on modest machines), and a key frame every 30 frames at most; `StreamRun` also asks for
    /// one every two seconds of stream time, whatever the frame rate (x264enc takes `key-int-max` only
    /// before it starts, when the frame rate is not known yet), so a viewer who joins late starts
    /// soon. An RTSP viewer also gets one as it starts. 4:2:0, which every decoder takes (gray's 4:0:0
    /// is for files).
    static let streamingH264 = [
        "x264enc", "tune=zerolatency", "speed-preset=veryfast", "key-int-max=30", "bitrate=2048",
    ]
}
