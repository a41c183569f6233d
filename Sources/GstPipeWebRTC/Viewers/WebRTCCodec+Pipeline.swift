import GStreamer
import GstPipeParsing

/// The codec's elements: what encodes it once for all viewers, and what payloads it for each.
extension WebRTCCodec {
    /// The element that encodes it: libvpx's `vp8enc` (gst-plugins-good), `x264enc` (gst-plugins-ugly).
    package var encoderFactory: String {
        switch self {
        case .vp8: "vp8enc"
        case .h264: "x264enc"
        }
    }

    /// The codecs this machine's GStreamer can encode, VP8 first: what a `webrtc://` output without
    /// `?codec=` offers its viewers, each getting the one its offer prefers.
    package static var encodable: [WebRTCCodec] { allCases.filter { ElementFactory.exists($0.encoderFactory) } }

    /// The bit rate an encode aims at unless told: what a loopback or a LAN carries easily.
    package static let defaultBitrate = 2_000_000

    /// The encoder and its settings, as launch tokens, from raw video up to the appsink the viewers
    /// are fed from, aiming at `bitrate` bits a second. Real time first: a frame leaves the encoder as
    /// it comes in (vp8enc's realtime deadline and no lag; x264's zerolatency), with a key frame at
    /// least every two seconds at 30 frames a second so that a viewer who lost packets recovers
    /// without asking (`keyFrameDistance` frames; a ladder's rungs are asked for theirs together, every
    /// two seconds, and give a longer distance here as a net). A viewer who joins asks for a key frame of
    /// its own (`WebRTCViewers`).
    ///
    /// The rate holds whatever the picture: a viewer's link carries a bit rate, not a quality. libvpx
    /// in CBR with its default one-second-and-more buffers sent 1280x720 noise (`videotestsrc
    /// pattern=snow`) at 24.8 Mbit/s for a 2 Mbit/s target: at its worst quantizer a noise frame is
    /// 100 kB, a key frame 300 kB. So vp8enc has libwebrtc's rate control: a one-second buffer
    /// (0.5 s initial, 0.6 s optimal), 15 % overshoot at most, frames dropped when the buffer falls
    /// below 30 %, and a key frame at most three average frames (`max-intra-bitrate`), which on noise
    /// cut key frames from 300 to 100 kB and let 14 frames through in 5 s instead of 11. Measured
    /// with 150 frames at 30 frames a second (the test `WebRTCRateTests` holds them): 720p noise
    /// 2.2 Mbit/s (at a few frames a second: noise cannot be sent at 30 at that rate), SMPTE bars
    /// 1.96 Mbit/s at 30. x264 holds its rate by itself (2.1 Mbit/s on noise at 30 frames a second:
    /// it skips what it cannot afford); its scene-cut detection is off, since it made a key frame
    /// every six frames of SMPTE bars (whose corner is noise) and so the rungs of a ladder would not
    /// share their key frames.
    ///
    /// vp8enc runs on one thread: libvpx's threads wait for each other by spinning, which on a busy
    /// machine costs many times the encode itself. Measured with gst-launch-1.0 on this 2-core machine
    /// at load average 23, 90 frames at 1280x720: 0.75 s of CPU with one thread and 12.6 s with two
    /// (moving color bars), 3.2 s against 15.7 s (noise); in gstpipe a frame then waited seconds to
    /// be encoded (Benchmarks/webrtc-latency.py).
    package func encoderChain(bitrate: Int = defaultBitrate, keyFrameDistance: Int = 60) -> [String] {
        switch self {
        case .vp8:
            [
                "vp8enc", "deadline=1", "cpu-used=8", "lag-in-frames=0", "end-usage=cbr",
                "target-bitrate=\(bitrate)", "min-quantizer=2", "max-quantizer=63", "buffer-size=1000",
                "buffer-initial-size=500", "buffer-optimal-size=600", "undershoot=100", "overshoot=15",
                "dropframe-threshold=30", "max-intra-bitrate=300", "keyframe-max-dist=\(keyFrameDistance)",
                "error-resilient=default",
                "threads=1"
            ]
        case .h264:
            // Constrained baseline (no B-frames, no CABAC) in 4:2:0: what WebRTC's H.264 profile
            // asks for, and what the browsers offer first.
            [
                "x264enc", "tune=zerolatency", "speed-preset=veryfast", "key-int-max=\(keyFrameDistance)",
                "bitrate=\(max(1, bitrate / 1000))", "option-string=scenecut=0", "!",
                "video/x-h264,profile=constrained-baseline,stream-format=byte-stream,alignment=au"
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
