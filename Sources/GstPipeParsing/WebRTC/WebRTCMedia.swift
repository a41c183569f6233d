/// What a `webrtc://` output sends its viewers: video in one of its codecs, the one each viewer's
/// offer prefers (none for a description of sound alone, `audiotestsrc ! webrtc://…`), and Opus beside
/// it when the description has sound (a file input's audio track) or is sound. The sound is encoded
/// once, as the video is, into an appsink of its own (`WebRTCViewers`), and each viewer payloads it
/// for its webrtcbin (`WebRTCViewer`).
package struct WebRTCMedia: Sendable, Equatable {
    /// The video codecs a viewer can get, in the server's order (which decides between codecs an offer
    /// gives no order to); empty when the description is sound alone.
    package var video: [WebRTCCodec]
    /// True when Opus goes beside (or instead of) the video.
    package var audio: Bool

    /// What is sent: video in one of `video`'s codecs (none when empty), Opus when `audio`.
    package init(video: [WebRTCCodec], audio: Bool) {
        (self.video, self.audio) = (video, audio)
    }

    /// What is sent: video in `video` alone (nil: none), Opus when `audio`.
    package init(video: WebRTCCodec?, audio: Bool) {
        self.init(video: video.map { [$0] } ?? [], audio: audio)
    }

    /// Opus's name in SDP (`a=rtpmap:111 opus/48000/2`) and in RTP caps.
    package static let opusEncodingName = "OPUS"

    /// What is sent: "VP8", "VP8 and Opus", "VP8 or H264" (each viewer gets one), "Opus".
    package var name: String {
        [videoName, audio ? "Opus" : nil].compactMap { $0 }.joined(separator: " and ")
    }

    /// "VP8", "VP8 or H264", nil for none.
    private var videoName: String? {
        switch video.count {
        case 0: nil
        case 1: video[0].encodingName
        default: video.map(\.encodingName).joined(separator: " or ")
        }
    }

    /// What the start-up note says is sent. Sound beside video comes from the input's audio track,
    /// which is known only once the input is read (after the note): "VP8 (and Opus if the input has
    /// sound)", not a promise of Opus for a file without sound.
    package var announced: String {
        guard let videoName, audio else { return name }
        return "\(videoName) (and Opus if the input has sound)"
    }
}
