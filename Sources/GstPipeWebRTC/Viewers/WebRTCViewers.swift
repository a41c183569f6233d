import CGStreamer
import Foundation
import GStreamer
import GstPipeParsing
import GstPipeSupport
import Synchronization

/// The viewers of one `webrtc://` output and the encoded frames they share: the run's pipeline
/// encodes once into an appsink (the video's, and the sound's when there is sound: `Sources`), and
/// each frame or Opus packet that reaches one goes to every viewer's own pipeline (`WebRTCViewer`)
/// on that appsink's streaming thread, with its running time in the run, by which each viewer
/// stamps sound and video alike. A viewer joins by its WHEP offer (`join`) and
/// leaves by DELETE (`leave`), by its connection failing or closing, or when the run ends.
///
/// A viewer that joins needs a key frame: the encoder is asked for one (an upstream force-key-unit
/// event into the appsink) when the viewer's answer is made and again when its connection is up,
/// and a viewer's own requests (a browser's PLI or FIR, which webrtcbin turns into the same event)
/// reach the encoder too, at most one every half second, since every viewer gets the larger frame.
///
/// With a ladder (`WebRTCLadderEncode`), each rung's appsink feeds the viewers that watch that rung.
/// A second codec's ladder beside it (`Sources.alternatives`) feeds the viewers whose offer prefers
/// that codec (`ViewerOffer.videoCodec`); a viewer stays in its codec. Every viewer starts on its codec's
/// top rung; once a second its receiver reports, read from its webrtcbin's
/// statistics, go to its estimate (`ViewerBandwidth`), and when that chooses another rung the viewer
/// moves there at that rung's next key frame (asked of its encoder at once). A lower rung's valve is
/// open while a viewer watches it or is on its way there, and a key-frame request (a joining viewer's,
/// a browser's PLI, a move) goes to the rung it is for, at most one every half second for each rung.
package final class WebRTCViewers: Sendable {
    /// Why a viewer could not join (HTTP 503 or 500, with the reason).
    package enum JoinFailure: Error, Sendable {
        case full(Int)
        case ended
        case failed(String)
    }

    /// The most viewers served at once unless the address says (`?max-clients=N`); one more is told
    /// to come back later.
    package static let defaultLimit = 64

    /// The most viewers served at once.
    package let limit: Int

    /// The run's appsinks the viewers are fed from.
    package struct Sources: Sendable {
        /// Encoded video, nil for a description of sound alone.
        package let video: Element?
        /// Opus, nil without sound. A file input without sound takes its audio branch out of the run
        /// as it starts (`FileJobRun`): the viewers that join after get the video alone.
        package let audio: Element?
        /// The ladder's encodes, whose top rung's appsink is `video`; nil for one encode.
        package let ladder: WebRTCLadderEncode?
        /// The ladders of the other codecs a viewer may prefer (`WebRTCLadderEncode(codec:beside:tee:)`),
        /// each encoding only while a viewer watches it; none without `ladder`.
        package let alternatives: [WebRTCLadderEncode]

        /// The appsinks of encoded video and of Opus; nil for a kind the stream does not have. With
        /// `ladder`, `video` is its top rung's appsink, and `alternatives` are other codecs' ladders.
        package init(
            video: Element?, audio: Element?, ladder: WebRTCLadderEncode? = nil,
            alternatives: [WebRTCLadderEncode] = []
        ) {
            (self.video, self.audio, self.ladder) = (video, audio, ladder)
            self.alternatives = ladder == nil ? [] : alternatives
        }

        /// The ladders, the first codec's first; empty for one encode without a ladder.
        var encodes: [WebRTCLadderEncode] { ladder.map { [$0] + alternatives } ?? [] }

        /// The appsink of each rung of every codec, each codec's top first, the first codec's first:
        /// `video` alone without a ladder. A viewer's rung is an index in it.
        var rungs: [Element] {
            if ladder != nil { return encodes.flatMap { $0.rungs.map(\.appsink) } }
            return video.map { [$0] } ?? []
        }

        /// The indices in `rungs` of `codec`'s rungs; the one encode's without a ladder.
        func rungs(of codec: WebRTCCodec) -> Range<Int> {
            var start = 0
            for encode in encodes {
                if encode.codec == codec { return start..<start + encode.rungs.count }
                start += encode.rungs.count
            }
            return 0..<1
        }

        /// The ladder whose rungs `rung` (an index in `rungs`) is among, and the rung's index in it.
        func encode(of rung: Int) -> (encode: WebRTCLadderEncode, index: Int)? {
            var start = 0
            for encode in encodes {
                if rung < start + encode.rungs.count { return rung >= start ? (encode, rung - start) : nil }
                start += encode.rungs.count
            }
            return nil
        }
    }

    /// The first codec: the one the viewers get whose offer gives no order to the codecs sent.
    package let codec: WebRTCCodec
    /// Every codec a viewer may get, `codec` first.
    package var codecs: [WebRTCCodec] { [codec] + sources.alternatives.map(\.codec) }
    private let sources: Sources
    /// STUN, TURN, the public address, and the addresses each viewer's ICE agent offers beside what
    /// libnice finds (loopback, which it leaves out).
    package let ice: ICESettings
    private let note: @Sendable (String) -> Void
    /// The viewers' data channels, when the library's user reads and sends messages (`BrowserViewers`).
    private let channels: BrowserChannels?
    private let shared = Shared()
    private let connections = Locked<[SignalConnection]>([])
    /// Where viewers' pipelines are stopped: stopping waits for webrtcbin to shut down, which must
    /// block neither a streaming thread nor Swift's cooperative pool.
    private let teardown = DispatchQueue(label: "gstpipe.webrtc.teardown")

    private struct State {
        var viewers: [String: WebRTCViewer] = [:]
        var joined = 0
        /// Viewers admitted whose pipeline is still being made: counted against the limit with
        /// `viewers`, so that offers arriving together cannot all pass the check before any is kept.
        var reserved = 0
        var ended = false
        /// When each rung's encoder was last asked for a key frame.
        var lastForwardedRequest: [Int: ContinuousClock.Instant] = [:]
    }

    /// The state, in a box the appsink's handlers can hold.
    private final class Shared: Sendable {
        let state = Locked(State())
    }

    /// Starts taking what reaches the appsinks of `sources` (encoded `codec` frames, its alternatives'
    /// in theirs, Opus) for the viewers to come. With a ladder, each viewer is moved between its rungs
    /// by its estimate unless `adaptive` is false (then only `move` moves one).
    package init(
        sources: Sources, codec: WebRTCCodec, ice: ICESettings, limit: Int = defaultLimit,
        channels: BrowserChannels? = nil, adaptive: Bool = true, note: @escaping @Sendable (String) -> Void
    ) throws(GStreamerError) {
        self.sources = sources
        self.channels = channels
        self.limit = limit
        self.codec = codec
        self.ice = ice
        self.note = note
        let shared = shared
        var connections: [SignalConnection] = []
        for (rung, appsink) in sources.rungs.enumerated() {
            // Each rung's end reaches the viewers on it; the top rung's ends the stream.
            connections += try Self.take(from: appsink, isSound: false, ends: rung == 0, shared: shared) {
                viewers, buffer, caps, time in
                let taken = viewers.map { $0.take(buffer, caps: caps, time: time, rung: rung) }
                // A viewer still waiting for a key frame of this rung when a delta frame came: ask again
                // (the first request may have gone before the encoder started, or its valve opened).
                if taken.contains(.waitingForKey) && buffer.isDeltaUnit {
                    Self.requestKeyFrame(of: rung, from: sources, shared: shared, limited: true)
                }
                // A viewer moved here: the rung it left may have no one left.
                if taken.contains(.moved) { Self.updateValves(of: sources, shared: shared) }
            }
        }
        if let audio = sources.audio {
            // The sound ends the stream when it is all there is; beside video, the video's end does
            // (a file's audio ends with it, and an audio branch taken out never ends).
            connections += try Self.take(from: audio, isSound: true, ends: sources.video == nil, shared: shared) {
                viewers, buffer, caps, time in
                viewers.forEach { $0.takeSound(buffer, caps: caps, time: time) }
            }
        }
        self.connections.withLock { $0 = connections }
        watchdog.withLock { $0 = Task { [weak self] in await self?.dropSilentViewers() } }
        if adaptive, let ladder = sources.ladder, ladder.rungs.count > 1 {
            adapting.withLock { $0 = Task { [weak self] in await self?.adaptRungs() } }
        }
    }

    /// Hands each sample reaching `appsink` to `deliver`, with the viewers of the moment, the caps and
    /// the clock time the run meant the buffer for; at its end of stream, ends that kind (`isSound`) for
    /// every viewer, and the stream when it `ends` it (no viewer joins after). The handlers hold the
    /// appsink (to pull from it) and the state, not `self`; `close()` disconnects them.
    private static func take(
        from appsink: Element, isSound: Bool, ends: Bool, shared: Shared,
        deliver: @escaping @Sendable ([WebRTCViewer], Buffer, Caps?, ClockTime?) -> Void
    ) throws(GStreamerError) -> [SignalConnection] {
        try appsink.set("emit-signals", true)
        let first = Locked(true)
        let newSample = try appsink.connectReturning("new-sample") { [appsink] _ in
            guard let sample = try? appsink.emit("pull-sample").sample, let buffer = sample.buffer else {
                return .enumeration(-3, nick: "eos")
            }
            let isFirst = first.withLock { isFirst in
                defer { isFirst = false }
                return isFirst
            }
            if isFirst { adaptToLiveInput(appsink, isSound: isSound) }
            let viewers = shared.state.withLock { Array($0.viewers.values) }
            // The clock time the run meant it for: its base time plus the buffer's running time.
            let base = ClockTime(appsink.withUnsafePointer { gst_element_get_base_time($0) })
            deliver(viewers, buffer, sample.caps, runningTime(of: buffer, in: sample.segment).map { $0 + base })
            return .enumeration(0, nick: "ok")
        }
        let endOfStream = try appsink.connect("eos") { _ in
            // A lower rung of the ladder ends with the top one (they share the tee): the top's end does.
            guard ends || isSound else { return }
            let viewers = shared.state.withLock { state in
                if ends { state.ended = true }
                return Array(state.viewers.values)
            }
            viewers.forEach { $0.endOfStream(sound: isSound) }
        }
        return [newSample, endOfStream]
    }

    /// The running time of `buffer` in the run (its segment's base, plus its time into the segment
    /// at the segment's rate), which the video's and the sound's appsinks share; nil without a time.
    package static func runningTime(of buffer: Buffer, in segment: Segment?) -> ClockTime? {
        guard let pts = buffer.pts else { return nil }
        guard let segment, segment.rate != 0 else { return pts }
        guard pts > segment.start else { return segment.base }
        return segment.base + ClockTime(Double(pts - segment.start) / abs(segment.rate))
    }

    /// A viewer silent this long (no RTCP: its tab was closed, its machine gone) is dropped. Twice
    /// GStreamer's regular RTCP interval (5 s, RFC 3550's minimum) and a margin: a viewer built
    /// on GStreamer (gstpipe's own whep+ input) reports that seldom, a browser every second or so.
    package static let silenceLimit: Duration = .seconds(12)
    /// A viewer that never sent anything (its connection never came up) is dropped after this.
    package static let connectionLimit: Duration = .seconds(20)

    private let watchdog = Locked<Task<Void, Never>?>(nil)
    private let adapting = Locked<Task<Void, Never>?>(nil)

    /// Once a second until `close()`: each viewer's newest receiver report to its estimate, and the
    /// viewer moved to the rung it chooses among those the source gives in its codec.
    private func adaptRungs() async {
        let start = ContinuousClock.now
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            let viewers = shared.state.withLock { Array($0.viewers.values) }
            for viewer in viewers {
                guard let (ladder, _) = sources.encode(of: viewer.rungRange.lowerBound) else { continue }
                let bitrates = ladder.usableBitrates
                guard bitrates.count > 1,
                    let rung = await viewer.adapt(bitrates: bitrates, at: ContinuousClock.now - start),
                    move(viewer, to: viewer.rungRange.lowerBound + rung)
                else { continue }
                note("viewer \(viewer.number) moves to \(Self.shown(ladder.rungs[rung].rung)) (its link's estimate)")
            }
        }
    }

    /// Moves the viewer with session `id` to rung `rung` (0 the top) of its codec's ladder at that
    /// rung's next key frame; false when there is no such viewer or rung. The estimate does this by
    /// itself; this is for a user's choice and for tests, and the estimate starts again from the rung chosen.
    @discardableResult
    package func move(_ id: String, to rung: Int) -> Bool {
        guard let viewer = shared.state.withLock({ $0.viewers[id] }) else { return false }
        let usable = sources.encode(of: viewer.rungRange.lowerBound)?.encode.usable ?? 1
        guard rung >= 0, rung < max(1, usable) else { return false }
        move(viewer, to: viewer.rungRange.lowerBound + rung, byEstimate: false)
        return true
    }

    @discardableResult
    private func move(_ viewer: WebRTCViewer, to rung: Int, byEstimate: Bool = true) -> Bool {
        guard viewer.move(to: rung, byEstimate: byEstimate) else { return false }
        updateValves()
        Self.requestKeyFrame(of: rung, from: sources, shared: shared, limited: false)
        return true
    }

    /// A rung as a note says it: `320x180 at 250 kbit/s`, `the source's size at 2500 kbit/s`.
    private static func shown(_ rung: WebRTCLadder.Rung) -> String {
        let size = rung.width.flatMap { width in rung.height.map { "\(width)x\($0)" } } ?? "the source's size"
        return "\(size) at \(rung.bitrate / 1000) kbit/s"
    }

    /// The rung of its codec's ladder the viewer with session `id` watches (0 the top), and the one it
    /// moves to next; nil for no viewer.
    package func rungs(of id: String) -> (watched: Int, next: Int?)? {
        guard let viewer = shared.state.withLock({ $0.viewers[id] }) else { return nil }
        let (watched, next) = viewer.rungs
        let first = viewer.rungRange.lowerBound
        return (watched - first, next.map { $0 - first })
    }

    /// The codec the viewer with session `id` gets; nil for no viewer.
    package func codec(of id: String) -> WebRTCCodec? {
        shared.state.withLock { $0.viewers[id] }?.codec
    }

    /// Opens the valve of each rung (of every codec) a viewer watches or moves to, and closes the others.
    private func updateValves() {
        Self.updateValves(of: sources, shared: shared)
    }

    private static func updateValves(of sources: Sources, shared: Shared) {
        shared.state.withLock { state in
            var watched = Set<Int>()
            for viewer in state.viewers.values {
                let (rung, next) = viewer.rungs
                watched.insert(rung)
                if let next { watched.insert(next) }
            }
            for rung in sources.rungs.indices {
                guard let (encode, index) = sources.encode(of: rung) else { continue }
                encode.setWatched(index, watched.contains(rung))
            }
        }
    }

    /// Once a second until `close()`: drops the viewers that have gone silent (`WebRTCViewer.silence`).
    private func dropSilentViewers() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            let now = ContinuousClock.now
            let viewers = shared.state.withLock { Array($0.viewers.values) }
            for viewer in viewers {
                let (silence, heard) = viewer.silence(at: now)
                if heard && silence > Self.silenceLimit {
                    let seconds = silence.components.seconds
                    remove(viewer.id, because: "it sent nothing for \(seconds) s (its page was closed?)")
                } else if !heard && silence > Self.connectionLimit {
                    remove(viewer.id, because: "its connection never came up")
                }
            }
        }
    }

    /// What the viewers get: the video's codecs, and Opus while the run has sound (a file's audio
    /// branch still in the run: one the input could not feed has been taken out).
    package var media: WebRTCMedia {
        WebRTCMedia(video: sources.video == nil ? [] : codecs, audio: sources.audio?.parent != nil)
    }

    /// How many are watching now.
    package var count: Int { shared.state.withLock { $0.viewers.count } }

    /// Told as a viewer joins (true) and leaves (false), after the note that says so: the run's metrics
    /// and events.
    private let changes = Locked<(@Sendable (_ joined: Bool) -> Void)?>(nil)

    /// Calls `handler` as each viewer joins (true) and leaves (false), on the thread that saw it.
    package func onChange(_ handler: @escaping @Sendable (_ joined: Bool) -> Void) {
        changes.withLock { $0 = handler }
    }

    /// Takes a viewer's offer: builds its pipeline, answers, and keeps it until it leaves. Returns the
    /// session's id (for its resource's URL) and the answer with every candidate.
    package func join(_ offer: ViewerOffer) async throws(JoinFailure) -> (id: String, answer: String) {
        let limit = limit
        let admitted = shared.state.withLock { state -> Result<Int, JoinFailure> in
            if state.ended { return .failure(.ended) }
            if state.viewers.count + state.reserved >= limit { return .failure(.full(limit)) }
            state.reserved += 1
            state.joined += 1
            return .success(state.joined)
        }
        let number = try admitted.get()
        let id = UUID().uuidString.lowercased()
        let viewer: WebRTCViewer
        do {
            let rungs = sources.rungs(of: offer.videoCodec ?? codec)
            viewer = try WebRTCViewer(id: id, number: number, media: media, offer: offer, rungs: rungs)
        } catch {
            shared.state.withLock { $0.reserved -= 1 }
            throw .failed("cannot start a viewer's pipeline: \(error.message)")
        }
        // The run may have ended meanwhile (`close()`): then the viewer goes at once.
        let kept = shared.state.withLock { state -> Bool in
            state.reserved -= 1
            if state.ended { return false }
            state.viewers[id] = viewer
            return true
        }
        guard kept else {
            teardown.async { viewer.close() }
            throw .ended
        }
        // Its codec's top rung starts encoding, if no one watched it.
        updateValves()
        viewer.onEnd { [weak self] reason in self?.remove(id, because: reason) }
        channels?.attach(to: viewer.webrtcbin, peer: id)
        let (sources, shared) = (sources, shared)
        viewer.onConnected { [weak viewer] in
            guard let rungs = viewer?.rungs else { return }
            Self.requestKeyFrame(of: rungs.watched, from: sources, shared: shared, limited: false)
        }
        // A browser's PLI or FIR is served by the rung it watches (and the one it moves to, if any).
        viewer.onKeyFrameRequest { [weak viewer] in
            guard let rungs = viewer?.rungs else { return }
            for rung in [rungs.watched] + (rungs.next.map { [$0] } ?? []) {
                Self.requestKeyFrame(of: rung, from: sources, shared: shared, limited: true)
            }
        }
        let answer: String
        do {
            answer = try await viewer.answer(offer, ice: ice)
        } catch {
            remove(id, because: "its offer was refused: \(error.reason)", quietly: true)
            throw .failed("webrtcbin refused the offer: \(error.reason)")
        }
        Self.requestKeyFrame(of: viewer.rungs.watched, from: sources, shared: shared, limited: false)
        let codecs = codecs
        let shownCodec = codecs.count > 1 ? " in \(viewer.codec?.encodingName ?? codec.encodingName)" : ""
        note("viewer \(number) joined (\(count) watching)\(shownCodec)")
        changes.withLock { $0 }?(true)
        return (id, answer)
    }

    /// The negotiation of the viewer with session `id`, nil when there is none: what its PATCH (trickle
    /// ICE, an ICE restart) works on.
    package func negotiation(of id: String) -> WebRTCNegotiation? {
        shared.state.withLock { $0.viewers[id] }.map { WebRTCNegotiation(webrtcbin: $0.webrtcbin) }
    }

    /// Ends the session `id` (its WHEP DELETE); false when there is none.
    package func leave(_ id: String) -> Bool {
        remove(id, because: "it left")
    }

    /// After the run's end of stream: waits, at most `limit`, until it has reached every viewer's
    /// webrtcbin, then a moment for webrtcbin's RTCP thread to send the BYE, so that a viewer (a WHEP
    /// client) ends at once rather than after its silence timeout. The end waits behind the frames a
    /// viewer's appsrc holds (up to a second of them, sent at their pace, and slower on a loaded
    /// machine): the bound leaves room for that. Suspends rather than sleeping: on two cores Swift's
    /// cooperative pool has two threads, and a thread held here for seconds was half of it.
    package func waitForGoodbyes(limit: Duration = .seconds(5)) async {
        let viewers = shared.state.withLock { Array($0.viewers.values) }
        guard !viewers.isEmpty else { return }
        await withTaskGroup(of: Void.self) { group in
            for viewer in viewers { group.addTask { await viewer.waitUntilEnded(timeout: limit) } }
        }
        // The BYE goes out on the RTCP thread right after end of stream reached rtpsession, encrypted
        // and sent by libnice: a fraction of this.
        try? await Task.sleep(for: .milliseconds(300))
    }

    /// Stops every viewer and stops taking frames: after the run's pipeline has stopped.
    package func close() {
        watchdog.withLock { $0?.cancel() }
        adapting.withLock { $0?.cancel() }
        connections.withLock { connections in
            connections.forEach { $0.disconnect() }
            connections.removeAll()
        }
        let viewers = shared.state.withLock { state in
            state.ended = true
            defer { state.viewers.removeAll() }
            return Array(state.viewers.values)
        }
        viewers.forEach { $0.close() }
        channels?.finish()
    }

    @discardableResult
    private func remove(_ id: String, because reason: String, quietly: Bool = false) -> Bool {
        guard let viewer = shared.state.withLock({ $0.viewers.removeValue(forKey: id) }) else { return false }
        channels?.detach(id)
        updateValves()
        if !quietly {
            note("viewer \(viewer.number) left: \(reason) (\(count) watching)")
            changes.withLock { $0 }?(false)
        }
        teardown.async { viewer.close() }
        return true
    }

    /// Asks the encoder of ladder rung `rung` (0 the top, the one encode without a ladder) for a key
    /// frame; `limited` requests (a viewer's own, or a repeat) at most once every half second a rung.
    private static func requestKeyFrame(of rung: Int, from sources: Sources, shared: Shared, limited: Bool) {
        let rungs = sources.rungs
        guard rungs.indices.contains(rung) else { return }
        let now = ContinuousClock.now
        let due = shared.state.withLock { state -> Bool in
            if limited, let last = state.lastForwardedRequest[rung], now - last < .milliseconds(500) { return false }
            state.lastForwardedRequest[rung] = now
            return true
        }
        if due { rungs[rung].send(.forceKeyUnitUpstream()) }
    }
}
