import GstPipeParsing

/// The codec's elements: what encodes it once for all viewers, and what payloads it for each.
extension WebRTCCodec {
    /// The encoder and its settings, as launch tokens, from raw video up to the appsink the viewers
    /// are fed from. Real time first: a frame leaves the encoder as it comes in (vp8enc's realtime
    /// deadline and no lag; x264's zerolatency), at a bit rate a loopback or a LAN carries easily,
    /// with a key frame at least every two seconds at 30 frames a second so that a viewer who lost
    /// packets recovers without asking. A viewer who joins asks for a key frame of its own
    /// (`WebRTCViewers`).
    ///
    /// vp8enc runs on one thread: libvpx's threads wait for each other by spinning, which on a busy
    /// machine costs many times the encode itself. Measured with gst-launch-1.0 on this 2-core machine
    /// at load average 23, 90 frames at 1280x720: 0.75 s of CPU with one thread and 12.6 s with two
    /// (moving color bars), 3.2 s against 15.7 s (noise); in gstpipe a frame then waited seconds to
    /// be encoded (Benchmarks/webrtc-latency.py).
    package var encoderChain: [String] {
        switch self {
        case .vp8:
            [
                "vp8enc", "deadline=1", "cpu-used=8", "lag-in-frames=0", "end-usage=cbr",
                "target-bitrate=2000000", "keyframe-max-dist=60", "error-resilient=default", "threads=1",
            ]
        case .h264:
            // Constrained baseline (no B-frames, no CABAC) in 4:2:0: what WebRTC's H.264 profile
            // asks for, and what the browsers offer first.
            [
                "x264enc", "tune=zerolatency", "speed-preset=veryfast", "key-int-max=60", "bitrate=2048",
                "!", "video/x-h264,profile=constrained-baseline,stream-format=byte-stream,alignment=au",
            ]
        }
    }

    /// The payloader of one viewer's pipeline, as launch text, sending with the payload type its
    /// browser chose for the codec.
    package func payloader(payloadType: Int) -> String {
        switch self {
        case .vp8:
            "rtpvp8pay pt=\(payloadType) picture-id-mode=15-bit mtu=1200"
        case .h264:
            // SPS and PPS before every key frame: a viewer that starts late needs nothing from SDP.
            "rtph264pay pt=\(payloadType) config-interval=-1 aggregate-mode=zero-latency mtu=1200"
        }
    }
}
