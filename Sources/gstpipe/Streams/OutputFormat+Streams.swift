/// What the stream outputs send, each scheme choosing its own (`StreamOutput.format`): H.264 for
/// streaming (`streamingH264`), alone or with AAC audio in MPEG-TS.
extension OutputFormat {
    /// H.264 and AAC in MPEG-TS, as SRT and UDP send it.
    static let streamingTransportStream = OutputFormat(
        extensions: [], name: "H.264 in MPEG-TS", videoChain: streamingH264, muxer: "mpegtsmux", audioEncoders: aac,
        audioName: "AAC in MPEG-TS", isImage: false, encoderInput: h264Input)

    /// H.264 alone, `then` the elements that follow the encoder (a payloader), for a scheme whose
    /// receivers take video only.
    static func streamingVideo(_ name: String, then elements: [String] = []) -> OutputFormat {
        OutputFormat(
            extensions: [], name: name, videoChain: streamingH264 + elements, muxer: nil, audioEncoders: nil,
            isImage: false, encoderInput: h264Input)
    }

    /// H.264 and AAC in MPEG-TS, carried `over` RTP one way or another (RTSP, `rtp://`): a file
    /// input's audio with its video, in one RTP stream (rtpmp2tpay).
    static func transportStream(over carrier: String) -> OutputFormat {
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
        "x264enc", "tune=zerolatency", "speed-preset=veryfast", "key-int-max=30", "bitrate=2048"
    ]
}
