/// The video codec a `webrtc://` output encodes once for all its viewers: VP8, which every browser
/// decodes (the default), or constrained-baseline H.264 in 4:2:0 (`?codec=h264`), which every
/// browser that decodes H.264 at all takes, and which some hardware decodes.
package enum WebRTCCodec: String, Sendable, CaseIterable {
    case vp8, h264

    /// The codec `webrtc://…?codec=NAME` asks for (any case), nil for a name gstpipe does not send.
    package init?(option: String) { self.init(rawValue: option.lowercased()) }

    /// Its name in SDP (`a=rtpmap:96 VP8/90000`).
    package var encodingName: String {
        switch self {
        case .vp8: "VP8"
        case .h264: "H264"
        }
    }
}
