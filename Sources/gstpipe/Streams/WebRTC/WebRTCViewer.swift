import Foundation
import GStreamer
import Synchronization

/// One viewer of a `webrtc://` output: a pipeline of its own, `appsrc ! payloader ! webrtcbin`, fed
/// the shared encoder's frames by `WebRTCViewers`. A pipeline apart, not a branch of the run's: an
/// error in one viewer's webrtcbin (DTLS refused, ICE failed) ends that viewer alone, and a viewer
/// comes and goes without a state change of the source's pipeline. Its appsrc never blocks and
/// drops its oldest frames when full, so a viewer that cannot keep up loses frames (and asks for a
/// key frame to recover) without holding back the encoder or the others.
final class WebRTCViewer: Sendable {
    /// The session's id, the last part of its WHEP resource's URL.
    let id: String
    /// Counted from 1 in the order viewers came, for notes.
    let number: Int
    private let pipeline: Pipeline
    private let feed: AppSrc
    private let webrtcbin: Element
    private let state = Mutex(State())

    private struct State {
        /// Frames go in only after the answer is made (before, webrtcbin has nowhere to send them),
        /// and from a key frame on: what comes before one cannot be decoded.
        var negotiated = false
        var waitingForKey = true
        var caps: Caps?
        var closed = false
    }

    /// When the viewer last sent RTCP (its receiver reports), or when it came; apart from `state`,
    /// for rtpbin's handler to hold without holding the viewer (whose pipeline holds the handler).
    private final class Liveness: Sendable {
        private let last = Mutex((heard: false, at: ContinuousClock.now))

        func heard() { last.withLock { $0 = (true, .now) } }

        func silence(at now: ContinuousClock.Instant) -> (duration: Duration, heard: Bool) {
            last.withLock { (now - $0.at, $0.heard) }
        }
    }

    private let liveness = Liveness()

    /// Builds the viewer's pipeline for `offer` and starts it (nothing flows until it is negotiated).
    init(id: String, number: Int, codec: WebRTCCodec, offer: ViewerOffer) throws(GStreamerError) {
        self.id = id
        self.number = number
        let rtpCaps = "application/x-rtp,media=video,clock-rate=90000,encoding-name=\(codec.encodingName),"
            + "payload=\(offer.payloadType)"
        // is-live with do-timestamp: each frame is stamped with this pipeline's running time as it
        // leaves the appsrc, so a viewer's stream starts at its own zero. A second of frames at most.
        pipeline = try Pipeline(
            launch: "appsrc name=feed is-live=true format=time do-timestamp=true block=false leaky-type=downstream "
                + "max-buffers=30 ! \(codec.payloader(payloadType: offer.payloadType)) ! \(rtpCaps) ! "
                + "webrtcbin name=peer bundle-policy=max-bundle")
        guard let feed = try? pipeline.appSrc(named: "feed"), let webrtcbin = pipeline.element(named: "peer") else {
            throw GStreamerError(kind: .core, message: "the viewer's pipeline has no appsrc or webrtcbin")
        }
        self.feed = feed
        self.webrtcbin = webrtcbin
        listenForReports()
        try pipeline.play()
    }

    /// Answers the viewer's offer: webrtcbin takes it, answers, and gathers its candidates (through
    /// `ice`'s STUN and TURN servers, and on each of its local addresses too, which libnice would leave
    /// out if they are loopback), then the answer with every candidate (and each host candidate again
    /// at `ice`'s public address) is returned for the viewer. Frames flow from here on.
    func answer(_ offer: ViewerOffer, ice: ICESettings) async throws(WebRTCNegotiation.Failure) -> String {
        try await WebRTCNegotiation(webrtcbin: webrtcbin).answer(offer.sdp, ice: ice) {
            state.withLock { $0.negotiated = true }
        }
    }

    /// Calls `handler` once, on a GStreamer thread, when the viewer is gone for good: its connection
    /// failed or was closed, or its pipeline failed. `reason` says which.
    func onEnd(_ handler: @escaping @Sendable (_ reason: String) -> Void) {
        WebRTCNegotiation(webrtcbin: webrtcbin).onEnd(of: pipeline, handler)
    }

    /// How long the viewer has been silent: no RTCP from it since its last report, or since it came
    /// when none has come yet (`heard` false). A browser sends
    /// receiver reports about every second while it watches, and nothing once its tab is closed: a
    /// closed peer connection sends no RTCP BYE, its DTLS goodbye does not change webrtcbin's state,
    /// and libnice (without consent freshness in GStreamer 1.22) keeps the ICE pair up, so silence is
    /// the one sign that it has gone.
    func silence(at now: ContinuousClock.Instant) -> (duration: Duration, heard: Bool) {
        liveness.silence(at: now)
    }

    /// Notes each RTCP packet from the viewer: rtpbin's "on-ssrc-active", for the receiver-report
    /// source its browser sends from.
    private func listenForReports() {
        guard let rtpbin = (webrtcbin as? Bin)?.allElements.first(where: { $0.factoryName == "rtpbin" }) else { return }
        _ = try? rtpbin.connect("on-ssrc-active") { [liveness] _ in liveness.heard() }
    }

    /// Calls `handler` when the connection to the viewer is up (ICE and DTLS): the moment a key frame
    /// can reach it.
    func onConnected(_ handler: @escaping @Sendable () -> Void) {
        _ = try? webrtcbin.onNotify("connection-state") { value in
            if value.stringValue == "connected" { handler() }
        }
    }

    /// Calls `handler` when the viewer asks for a key frame (its browser lost packets and sent a PLI
    /// or FIR, which webrtcbin sends upstream as a force-key-unit event, to this pipeline's appsrc).
    func onKeyFrameRequest(_ handler: @escaping @Sendable () -> Void) {
        _ = feed.pad(named: "src")?.addProbe(.eventUpstream) { info in
            if info.event?.name == "GstForceKeyUnit" { handler() }
            return .ok
        }
    }

    /// Takes one encoded frame from the shared encoder: passed on when the viewer is negotiated and
    /// has had a key frame. Returns true when the viewer is waiting for a key frame.
    func take(_ buffer: Buffer, caps: Caps?) -> Bool {
        let (push, newCaps) = state.withLock { state -> (Bool, Caps?) in
            guard state.negotiated, !state.closed else { return (false, nil) }
            if state.waitingForKey && buffer.isDeltaUnit { return (false, nil) }
            state.waitingForKey = false
            guard let caps, state.caps.map({ $0 != caps }) ?? true else { return (true, nil) }
            state.caps = caps
            return (true, caps)
        }
        guard push else { return state.withLock { $0.negotiated && $0.waitingForKey } }
        if let newCaps { feed.caps = newCaps }
        // A buffer of its own over the same memory, its time left to the appsrc (do-timestamp): the
        // run's times (DTS too) are those of another pipeline, ahead of this one's, and a sink here
        // would hold each frame until this pipeline's clock reached them.
        let own = buffer.withTimestamps(pts: nil, duration: buffer.duration)
        own.dts = nil
        feed.push(own)
        return false
    }

    /// Sends end of stream to the viewer (webrtcbin says goodbye with RTCP BYE).
    func endOfStream() {
        feed.endOfStream()
    }

    /// Stops the viewer's pipeline, closing its connection. Blocks while webrtcbin shuts down:
    /// call it off Swift's cooperative pool (`WebRTCViewers` has a queue for it).
    func close() {
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        pipeline.setSyncHandler(nil)
        pipeline.stop()
    }
}
