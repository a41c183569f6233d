import Foundation

/// Offers as Chromium writes them (shortened), for the tests that answer a browser without one:
/// GstPipeWebRTCTests' viewers in process, and gstpipeTests' WHEP requests by curl and offer checks.
public enum BrowserOffers {
    /// A browser's offer to receive video, as Chromium writes it (shortened): VP8, VP9, and H.264 in
    /// baseline (42001f) and constrained baseline (42e01f), each in packetization modes 0 and 1.
    public static func video(direction: String = "recvonly", credentials: Bool = true) -> String {
        [
            "v=0", "o=- 4611731400430051336 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
            "m=video 9 UDP/TLS/RTP/SAVPF 96 97 102 103 104 105 98", "c=IN IP4 0.0.0.0",
            credentials ? "a=ice-ufrag:Yq3v" : "", credentials ? "a=ice-pwd:2c1r8m1Ly3p0bG0Y2wJ2n8Xb" : "",
            "a=fingerprint:sha-256 9B:2A:55:07:61:3A:0E:D7:5B:64:7F:1F:12:25:6E:7F:E6:0A:7C:3E:61:1D:C5:6D",
            "a=setup:actpass", "a=mid:0", "a=\(direction)", "a=rtcp-mux",
            "a=rtpmap:96 VP8/90000", "a=rtcp-fb:96 nack pli", "a=rtpmap:97 rtx/90000", "a=fmtp:97 apt=96",
            "a=rtpmap:102 H264/90000",
            "a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f",
            "a=rtpmap:103 H264/90000",
            "a=fmtp:103 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f",
            "a=rtpmap:104 H264/90000",
            "a=fmtp:104 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f",
            "a=rtpmap:105 H264/90000",
            "a=fmtp:105 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=640032",
            "a=rtpmap:98 VP9/90000", ""
        ].joined(separator: "\r\n")
    }

    /// A browser's offer to receive audio, as Chromium writes it (shortened): Opus first, then G.722,
    /// PCMU, telephone events; the section's ICE credentials and fingerprint as the video's.
    public static let audioSection = [
        "m=audio 9 UDP/TLS/RTP/SAVPF 111 9 0 126", "c=IN IP4 0.0.0.0", "a=ice-ufrag:Yq3v",
        "a=ice-pwd:2c1r8m1Ly3p0bG0Y2wJ2n8Xb",
        "a=fingerprint:sha-256 9B:2A:55:07:61:3A:0E:D7:5B:64:7F:1F:12:25:6E:7F:E6:0A:7C:3E:61:1D:C5:6D",
        "a=setup:actpass", "a=mid:1", "a=recvonly", "a=rtcp-mux", "a=rtpmap:111 opus/48000/2",
        "a=rtcp-fb:111 transport-cc", "a=fmtp:111 minptime=10;useinbandfec=1", "a=rtpmap:9 G722/8000",
        "a=rtpmap:0 PCMU/8000", "a=rtpmap:126 telephone-event/8000", ""
    ].joined(separator: "\r\n")

    /// The video offer with the audio section after it, bundled.
    public static func videoWithAudio(_ audio: String = audioSection) -> String {
        video().replacingOccurrences(of: "a=group:BUNDLE 0", with: "a=group:BUNDLE 0 1") + audio
    }

    /// A browser's offer to receive sound alone: the audio section alone.
    public static let audioOnly =
        ["v=0", "o=- 1 1 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 1", ""].joined(separator: "\r\n")
        + audioSection
}
