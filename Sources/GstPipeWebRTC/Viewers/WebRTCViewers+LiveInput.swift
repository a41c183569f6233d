import GStreamer

/// What changes when the frames the viewers share come from a live input (a camera, a network stream,
/// `shmsrc`, a live test source) rather than a file or a source pulled as fast as it is read.
///
/// Measured with Benchmarks/webrtc-latency.py at 1280x720 (GST_DEBUG=basesink:5 on the output's
/// appsink, GST_TRACERS=latency(flags=element)), load average 16: every frame reached the appsink late
/// (its clock wait returned at once, 14 to 677 ms behind), so its `sync=true` held nothing back; what held
/// frames back was that the source's one streaming thread ran the whole chain (gray 7 ms, conversions
/// 7 ms each, vp8enc 25 ms a frame), more than the 33 ms between frames, and a live input that cannot
/// wait (shmsrc) piled frames up before gstpipe, for seconds. So the encoder runs on a thread of its own
/// behind a one-frame queue (`encoderQueue`), and for a live input that queue keeps the newest frame
/// alone, so that an encoder short of CPU drops frames rather than falling behind the source.
extension WebRTCViewers {
    /// The queue before the encoder, as launch tokens: one frame, so that the source's thread and the
    /// encoder's run at once on two cores, and a frame waits for at most one encode.
    package static let encoderQueue = [
        "queue", "max-size-buffers=1", "max-size-bytes=0", "max-size-time=0", "!"
    ]

    /// Once the first sample reaches `appsink`: when what feeds it is live, the appsink stops syncing on
    /// the clock (a live input keeps its own pace; the sync held each frame for GStreamer's 20 ms
    /// processing deadline), and for video (`isSound` false) the queue before the encoder
    /// (`encoderQueue`) leaks its oldest frame when a new one comes while the encoder is busy.
    static func adaptToLiveInput(_ appsink: Element, isSound: Bool) {
        guard let input = appsink.pad(named: "sink"), input.peerLatency?.live == true else { return }
        try? appsink.set("sync", false)
        guard !isSound else { return }
        // Upstream through the encoder (and the caps after x264enc), and a ladder rung's scaler and its
        // caps, to the queue.
        var pad: Pad? = input
        for _ in 0..<6 {
            guard let element = pad?.peer?.parentElement else { return }
            if element.factoryName == "queue" {
                try? element.set("leaky", fromString: "downstream")
                return
            }
            pad = element.pad(named: "sink")
        }
    }
}
