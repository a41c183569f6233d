import CGStreamer
import Foundation
import GStreamer
import GStreamerWebRTC
import GstPipeParsing
import GstPipeSupport
import Synchronization

/// One viewer of a `webrtc://` output: a pipeline of its own, `appsrc ! payloader ! webrtcbin`, fed
/// the shared encoder's frames by `WebRTCViewers`, and a second `appsrc ! rtpopuspay` into the same
/// webrtcbin for the shared Opus when there is sound and the viewer's offer takes it. A pipeline
/// apart, not a branch of the run's: an error in one viewer's webrtcbin (DTLS refused, ICE failed)
/// ends that viewer alone, and a viewer comes and goes without a state change of the source's
/// pipeline. Its appsrcs never block and drop their oldest buffers when full, so a viewer that
/// cannot keep up loses frames (and asks for a key frame to recover) without holding back the
/// encoder or the others.
package final class WebRTCViewer: Sendable {
    /// The session's id, the last part of its WHEP resource's URL.
    package let id: String
    /// Counted from 1 in the order viewers came, for notes.
    package let number: Int
    /// The video codec it gets (its offer's choice), nil for sound alone.
    package let codec: WebRTCCodec?
    /// The ladder rungs of its codec (`WebRTCViewers.Sources.rungs`): it starts on the first (the top)
    /// and moves among them.
    package let rungRange: Range<Int>
    private let pipeline: Pipeline
    /// The video's appsrc, nil when the description is sound alone.
    private let feed: AppSrc?
    /// The sound's appsrc, nil when there is none or the viewer's offer takes none.
    private let sound: AppSrc?
    /// The viewer's webrtcbin, for its data channel (`BrowserChannels`).
    package let webrtcbin: Element
    private let state: Locked<State>

    private struct State {
        /// Frames go in only after the answer is made (before, webrtcbin has nowhere to send them),
        /// and from a key frame on: what comes before one cannot be decoded.
        var negotiated = false
        var waitingForKey = true
        var caps: Caps?
        var soundCaps: Caps?
        var closed = false
        /// The ladder rung whose frames the viewer gets (`rungRange`'s first is its codec's top), and the
        /// one it moves to at that rung's next key frame.
        var rung = 0
        var nextRung: Int?
        /// What chooses its rung, from its receiver reports (`ViewerBandwidth`); nil for one encode.
        var bandwidth: ViewerBandwidth?
        /// The last receiver report read from webrtcbin's statistics: one not changed since is no new one.
        var lastReport: [Double]?
        /// Its loss, from the reports' running totals.
        var loss = LossBetweenReports()
    }

    /// When the viewer last sent RTCP (its receiver reports), or when it came; apart from `state`,
    /// for rtpbin's handler to hold without holding the viewer (whose pipeline holds the handler).
    private final class Liveness: Sendable {
        private let last = Locked((heard: false, at: ContinuousClock.now))

        func heard() { last.withLock { $0 = (true, .now) } }

        func silence(at now: ContinuousClock.Instant) -> (duration: Duration, heard: Bool) {
            last.withLock { (now - $0.at, $0.heard) }
        }
    }

    private let liveness = Liveness()
    /// The SSRC the video is sent from: its receiver reports are about it.
    private let videoSSRC: UInt32

    /// Builds the viewer's pipeline for `offer` and starts it (nothing flows until it is negotiated):
    /// a branch for the video in the codec the offer chose, and one for the sound when `media` has
    /// sound and the offer takes it (without, the viewer gets the video alone). The viewer watches
    /// the ladder rungs `rungs` (its codec's), starting on the first.
    package init(
        id: String, number: Int, media: WebRTCMedia, offer: ViewerOffer, rungs: Range<Int> = 0..<1
    ) throws(GStreamerError) {
        self.id = id
        self.number = number
        codec = offer.videoCodec
        rungRange = rungs
        state = Locked(State(rung: rungs.lowerBound))
        // Live appsrcs, stamped here (`stamp`); about a second of frames, or of 20 ms Opus packets,
        // the oldest dropped beyond that.
        let appsrc = "is-live=true format=time block=false leaky-type=downstream"
        // Each stream's SSRC chosen here and put in the caps webrtcbin answers from, so that the
        // answer names it (a=ssrc, with a=msid: one stream id for both, which a browser plays in
        // sync). Without, a browser routes packets by payload type alone, and Chromium dropped
        // every Opus packet when the offer's audio section came before an unanswered video one.
        let (videoSSRC, audioSSRC) = Self.ssrcs()
        self.videoSSRC = videoSSRC
        var branches: [String] = []
        if let codec = offer.videoCodec, let payloadType = offer.videoPayloadType {
            let rtpCaps =
                "application/x-rtp,media=video,clock-rate=90000,encoding-name=\(codec.encodingName),"
                + "payload=\(payloadType),ssrc=(uint)\(videoSSRC)"
            branches.append(
                "appsrc name=feed \(appsrc) max-buffers=30 ! \(codec.payloader(payloadType: payloadType)) "
                    + "ssrc=\(videoSSRC) ! \(rtpCaps) ! peer.")
        }
        if media.audio, let payloadType = offer.audioPayloadType {
            let payloader = WebRTCMedia.opusPayloader(payloadType: payloadType, ssrc: audioSSRC)
            branches.append("appsrc name=sound \(appsrc) max-buffers=50 ! \(payloader) ! peer.")
        }
        pipeline = try Pipeline(
            launch: (["webrtcbin name=peer bundle-policy=max-bundle"] + branches).joined(separator: " "))
        feed = try? pipeline.appSrc(named: "feed")
        sound = try? pipeline.appSrc(named: "sound")
        guard feed != nil || sound != nil, let webrtcbin = pipeline.element(named: "peer") else {
            throw GStreamerError(kind: .core, message: "the viewer's pipeline has no appsrc or webrtcbin")
        }
        self.webrtcbin = webrtcbin
        Self.repairLosses(webrtcbin, offer: offer.sdp, video: feed == nil ? nil : "sink_0")
        listenForReports()
        countEnds(streams: [feed, sound].compactMap { $0 }.count)
        try pipeline.play()
    }

    /// How many of the viewer's streams have brought end of stream to webrtcbin, and of how many;
    /// apart from `state`, for the probes to hold without holding the viewer.
    private final class Ends: Sendable {
        let count = Locked((ended: 0, streams: 0))
        /// Fired with the last end (or as the viewer closes): what `waitUntilEnded` awaits.
        let all = OneShot()
    }

    private let ends = Ends()

    /// True once every stream of the viewer has brought end of stream to webrtcbin: its RTCP thread
    /// then says BYE at once (RTP's rule for a session of fewer than 50), which is how the viewer
    /// learns that the stream ended rather than stalled.
    package var hasEnded: Bool { ends.count.withLock { $0.ended >= $0.streams } }

    /// Returns once every stream of the viewer has brought end of stream to webrtcbin (`hasEnded`),
    /// or the viewer has closed, or after `timeout`. Suspends, without holding a thread: the probe
    /// that counts the last end resumes it. Any number of tasks may wait; once one wait has timed
    /// out, the end counts as come (`OneShot`), and later waits return at once.
    package func waitUntilEnded(timeout: Duration) async {
        await ends.all.wait(timeout: timeout)
    }

    /// Counts the end of stream of each of webrtcbin's `streams` sink pads (`sink_0`, `sink_1`); with
    /// the last, sends it to each of webrtcbin's rtpsessions too, which say BYE on it. In webrtcbin
    /// (1.22) it stops on the way, at the retransmission element before the session, so the session
    /// never saw it, and a WHEP client learnt of the end only from the silence that followed.
    private func countEnds(streams: Int) {
        let ends = ends
        ends.count.withLock { $0.streams = streams }
        let webrtcbin = webrtcbin
        for number in 0..<streams {
            // Weak: webrtcbin holds its pads' probes, and the viewer holds this wrapper.
            _ = webrtcbin.pad(named: "sink_\(number)")?.addProbe(.eventDownstream) { [weak webrtcbin] info in
                guard info.event?.typeName == "eos" else { return .ok }
                let last = ends.count.withLock { count in
                    count.ended += 1
                    return count.ended == count.streams
                }
                if last { ends.all.fire() }
                // The sessions exist once negotiated: looked for now.
                guard last, let webrtcbin = webrtcbin as? Bin else { return .ok }
                for session in webrtcbin.allElements where session.factoryName == "rtpsession" {
                    _ = session.pad(named: "send_rtp_sink")?.sendEndOfStream()
                }
                return .ok
            }
        }
    }

    /// Losses repaired where the viewer's offer allows: each stream's transceiver retransmits what a
    /// NACK asks for (RTX, RFC 4588: webrtcbin answers the offer's `rtx` payload types and keeps the
    /// packets sent), and the video adds forward error correction (ULPFEC inside RED, RFC 5109 and
    /// 2198) when the offer has both `red` and `ulpfec`, which repairs a lost packet without the round
    /// trip a NACK takes. Set before the offer is taken: webrtcbin reads them as it answers.
    /// `video` is the video's sink pad: the first linked, as its branch comes first in the launch.
    private static func repairLosses(_ webrtcbin: Element, offer: String, video: String?) {
        let offered = Set(
            offer.split(whereSeparator: \.isNewline).compactMap { line -> String? in
                guard line.hasPrefix("a=rtpmap:") else { return nil }
                return line.split(separator: " ").dropFirst().first?.split(separator: "/").first?.lowercased()
            })
        for pad in webrtcbin.pads where pad.direction == .sink {
            guard let transceiver = try? Value(pad).object?.value(ofProperty: "transceiver").object else { continue }
            if offered.contains("rtx") { try? transceiver.setValue(Value(true), ofProperty: "do-nack") }
            let isVideo = pad.name == video
            if isVideo && offered.contains("red") && offered.contains("ulpfec"),
                let fec = try? Value(parsing: "ulp-red", as: "GstWebRTCFECType")
            {
                try? transceiver.setValue(fec, ofProperty: "fec-type")
                if let percentage = try? Value(parsing: String(Self.fecPercentage), as: "guint") {
                    try? transceiver.setValue(percentage, ofProperty: "fec-percentage")
                }
            }
        }
    }

    /// The share of the video's packets that FEC protects, in percent. webrtcbin's default is 100: a
    /// FEC packet for each packet sent, which doubled what a rung sends (a 400 kbit/s rung went out at
    /// about 1.3 Mbit/s with retransmissions, through a 600 kbit/s link that then lost a packet in
    /// three), so a viewer moved down for its link still overflowed it. Losses beyond what this repairs
    /// are for RTX, and a link that loses many for a lower rung.
    static let fecPercentage = 10

    /// Two SSRCs for a viewer's video and sound: random (RFC 3550), not zero, not the same.
    private static func ssrcs() -> (video: UInt32, audio: UInt32) {
        let video = UInt32.random(in: 1...UInt32.max)
        var audio = UInt32.random(in: 1...UInt32.max)
        while audio == video { audio = UInt32.random(in: 1...UInt32.max) }
        return (video, audio)
    }

    /// Answers the viewer's offer: webrtcbin takes it, answers, and gathers its candidates (through
    /// `ice`'s STUN and TURN servers, and on each of its local addresses too, which libnice would leave
    /// out if they are loopback), then the answer with every candidate (and each host candidate again
    /// at `ice`'s public address) is returned for the viewer. Frames flow from here on.
    package func answer(_ offer: ViewerOffer, ice: ICESettings) async throws(WebRTCNegotiation.Failure) -> String {
        try await WebRTCNegotiation(webrtcbin: webrtcbin).answer(offer.sdp, ice: ice) { [webrtcbin] in
            Self.boundRetransmissions(in: webrtcbin)
            state.withLock { $0.negotiated = true }
        }
    }

    /// How old a packet may be and still be sent again on a NACK, in milliseconds.
    static let retransmissionHistory = 300

    /// Keeps the packets for retransmission (RTX) `retransmissionHistory` long rather than the last 100
    /// (webrtcbin's `rtprtxsend`, made as the answer is set): on a congested link a browser asks again
    /// and again for packets that were lost, and their copies are lost too; with a 250 kbit/s rung's
    /// 100 packets (3 s) the retransmissions doubled what went out.
    private static func boundRetransmissions(in webrtcbin: Element) {
        for rtx in (webrtcbin as? Bin)?.allElements ?? [] where rtx.factoryName == "rtprtxsend" {
            try? rtx.set("max-size-packets", fromString: "0")
            try? rtx.set("max-size-time", fromString: String(retransmissionHistory))
        }
    }

    /// Calls `handler` once, on a GStreamer thread, when the viewer is gone for good: its connection
    /// failed or was closed, or its pipeline failed. `reason` says which.
    package func onEnd(_ handler: @escaping @Sendable (_ reason: String) -> Void) {
        WebRTCNegotiation(webrtcbin: webrtcbin).onEnd(of: pipeline, handler)
    }

    /// How long the viewer has been silent: no RTCP from it since its last report, or since it came
    /// when none has come yet (`heard` false). A browser sends
    /// receiver reports about every second while it watches, and nothing once its tab is closed: a
    /// closed peer connection sends no RTCP BYE, its DTLS goodbye does not change webrtcbin's state,
    /// and libnice (without consent freshness in GStreamer 1.22) keeps the ICE pair up, so silence is
    /// the one sign that it has gone.
    package func silence(at now: ContinuousClock.Instant) -> (duration: Duration, heard: Bool) {
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
    package func onConnected(_ handler: @escaping @Sendable () -> Void) {
        _ = try? webrtcbin.onNotify("connection-state") { value in
            if value.stringValue == "connected" { handler() }
        }
    }

    /// Calls `handler` when the viewer asks for a key frame (its browser lost packets and sent a PLI
    /// or FIR, which webrtcbin sends upstream as a force-key-unit event, to this pipeline's appsrc).
    package func onKeyFrameRequest(_ handler: @escaping @Sendable () -> Void) {
        _ = feed?.pad(named: "src")?.addProbe(.eventUpstream) { info in
            if info.event?.name == "GstForceKeyUnit" { handler() }
            return .ok
        }
    }

    /// What became of a frame offered to a viewer (`take`).
    package enum Taken: Sendable {
        /// Sent, or not for this viewer (another rung's, or before it is negotiated).
        case done
        /// Not sent: the viewer waits for a key frame of the frame's rung (its first, or the next rung's).
        case waitingForKey
        /// Sent, and the viewer moved to the frame's rung with it (its key frame).
        case moved
    }

    /// Takes one encoded frame of ladder rung `rung` (0 the top, the one encode without a ladder), meant
    /// for the clock time `time` in the run: passed on when the viewer is negotiated, watches that rung
    /// and has had a key frame of it. A viewer moving to another rung (`move`) keeps the frames of its
    /// rung until a key frame of the next comes, which it switches at: its picture never breaks.
    @discardableResult
    package func take(_ buffer: Buffer, caps: Caps?, time: ClockTime?, rung: Int = 0) -> Taken {
        guard let feed else { return .done }
        enum Outcome { case skip, wait, push(Caps?, moved: Bool) }
        let outcome = state.withLock { state -> Outcome in
            guard state.negotiated, !state.closed else { return .skip }
            var moved = false
            if rung == state.nextRung {
                if buffer.isDeltaUnit { return .wait }
                (state.rung, state.nextRung, state.waitingForKey, moved) = (rung, nil, false, true)
            } else if rung == state.rung {
                if state.waitingForKey && buffer.isDeltaUnit { return .wait }
                state.waitingForKey = false
            } else {
                return .skip
            }
            guard let caps, state.caps.map({ $0 != caps }) ?? true else { return .push(nil, moved: moved) }
            state.caps = caps
            return .push(caps, moved: moved)
        }
        switch outcome {
        case .skip: return .done
        case .wait: return .waitingForKey
        case .push(let newCaps, let moved):
            if let newCaps { feed.caps = newCaps }
            if let own = stamp(buffer, time: time) { feed.push(own) }
            return moved ? .moved : .done
        }
    }

    /// The rung the viewer watches, and the one it moves to at that rung's next key frame, if any.
    package var rungs: (watched: Int, next: Int?) { state.withLock { ($0.rung, $0.nextRung) } }

    /// Moves the viewer to ladder rung `rung` at its next key frame (at once back, when it is the rung
    /// it watches). Returns false when it is on its way there or there already. A move its estimate
    /// did not choose (`byEstimate` false) starts the estimate again from that rung.
    @discardableResult
    package func move(to rung: Int, byEstimate: Bool = true) -> Bool {
        state.withLock { state in
            if !byEstimate { state.bandwidth = nil }
            if rung == state.rung {
                defer { state.nextRung = nil }
                return state.nextRung != nil
            }
            defer { state.nextRung = rung }
            return state.nextRung != rung
        }
    }

    /// Reads the viewer's newest receiver report about its video from webrtcbin's statistics (the
    /// remote-inbound-rtp of its SSRC: fraction lost, jitter, round trip) and gives it to its estimate
    /// (`ViewerBandwidth`, made for `bitrates`, its codec's rungs, the first time): returns the rung of
    /// its codec the estimate chooses (0 the top), nil when no new report came since the last call (a
    /// browser sends about one a second).
    package func adapt(bitrates: [Int], at time: Duration) async -> Int? {
        guard bitrates.count > 1, let statistics = try? await WebRTCBin(webrtcbin).statistics() else { return nil }
        func video(_ type: String) -> Structure? {
            statistics.lazy.compactMap { field -> Structure? in
                guard case .structure(let stream) = field.value, stream.value("type")?.enumNick == type,
                    stream.uint("ssrc") == UInt(self.videoSSRC)
                else { return nil }
                return stream
            }.first
        }
        guard let report = video("remote-inbound-rtp"), let fraction = report.double("fraction-lost") else {
            return nil
        }
        let jitter = report.double("jitter") ?? 0
        let roundTrip = report.double("round-trip-time").flatMap { $0 > 0 ? $0 : nil }
        let packetsLost = report.int("packets-lost") ?? 0
        let packetsSent = video("outbound-rtp")?.int("packets-sent")
        return state.withLock { state -> Int? in
            let seen = [fraction, jitter, roundTrip ?? 0, Double(packetsLost)]
            guard seen != state.lastReport else { return nil }
            state.lastReport = seen
            let lost = max(fraction, packetsSent.flatMap { state.loss.fraction(lost: packetsLost, sent: $0) } ?? 0)
            if state.bandwidth == nil {
                state.bandwidth = ViewerBandwidth(bitrates: bitrates, startingOn: state.rung - rungRange.lowerBound)
            }
            return state.bandwidth?.take(
                ViewerBandwidth.Report(time: time, fractionLost: lost, jitter: jitter, roundTrip: roundTrip))
        }
    }

    /// Takes one Opus packet from the shared audio encoder, meant for the clock time `time` in the run:
    /// passed on once the viewer is negotiated, when it gets sound.
    package func takeSound(_ buffer: Buffer, caps: Caps?, time: ClockTime?) {
        guard let sound else { return }
        let (push, newCaps) = state.withLock { state -> (Bool, Caps?) in
            guard state.negotiated, !state.closed else { return (false, nil) }
            guard let caps, state.soundCaps.map({ $0 != caps }) ?? true else { return (true, nil) }
            state.soundCaps = caps
            return (true, caps)
        }
        guard push else { return }
        if let newCaps { sound.caps = newCaps }
        if let own = stamp(buffer, time: time) { sound.push(own) }
    }

    /// A buffer of its own over the same memory, stamped, when the viewer gets video and sound, in
    /// this pipeline's running time for the clock time `time` (when the run meant it to be played:
    /// its base time plus the buffer's running time there). Both pipelines run on the system clock,
    /// so video and sound keep in this pipeline the distance they had in the run (the browser plays
    /// them in sync by their RTP timestamps and RTCP sender reports, and both streams are named in
    /// one media stream of the answer), and a buffer the run sent late goes out with its own time,
    /// not a later one. The run's running times themselves are those of another
    /// pipeline, ahead of this one's, and a sink here would hold each buffer until this pipeline's
    /// clock reached them. Nil before this pipeline has a clock (nothing can be sent then).
    private func stamp(_ buffer: Buffer, time: ClockTime?) -> Buffer? {
        let (running, base) = pipeline.withUnsafePointer {
            (gst_element_get_current_running_time($0), gst_element_get_base_time($0))
        }
        guard running != GstClockTime.max else { return nil }
        // One stream alone (video, or sound) has nothing to keep in step with: it goes out stamped
        // as it comes, as before there was sound. So does a buffer without a time.
        guard feed != nil && sound != nil, let time else {
            let own = buffer.withTimestamps(pts: ClockTime(running), duration: buffer.duration)
            own.dts = ClockTime(running)
            return own
        }
        let pts = ClockTime(max(0, Int64(bitPattern: time) - Int64(bitPattern: UInt64(base))))
        let own = buffer.withTimestamps(pts: pts, duration: buffer.duration)
        own.dts = pts
        return own
    }

    /// Sends end of stream to the viewer, for the video (`sound` false) or the sound: webrtcbin says
    /// goodbye with RTCP BYE.
    package func endOfStream(sound isSound: Bool) {
        _ = isSound ? sound?.endOfStream() : feed?.endOfStream()
    }

    /// Stops the viewer's pipeline, closing its connection. Blocks while webrtcbin shuts down:
    /// call it off Swift's cooperative pool (`WebRTCViewers` has a queue for it).
    package func close() {
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        pipeline.setSyncHandler(nil)
        pipeline.stop()
        // Nothing more will end: a wait for it need not run to its bound.
        ends.all.fire()
    }
}
