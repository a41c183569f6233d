import CGStreamer
import Foundation
import GstPipeParsing
import MediaIO
import Synchronization

/// A network input read with `--reconnect`: lost (an error, end of stream, or nothing for
/// `--timeout`), it is opened again after 1, 2, 4 ... 30 s (`ReconnectSchedule`) while the outputs
/// go on as if nothing happened.
///
/// The input is read by a pipeline of its own, one per connection (`InputAttempt`); in the run's
/// pipeline it is a bin (`element`, where uridecodebin would stand) holding a live appsrc behind a
/// `video/x-raw` pad, which the file job links as it links uridecodebin's video. The frames of a
/// connection are pushed into the appsrc as they are decoded, their timestamps moved into the run's
/// running time: the first frame of a connection is stamped `timingSlack` after the moment it came,
/// and the frames after it keep their spacing from it (the network's jitter stays out of the
/// timestamps). When none comes for a few frames' time, a thread of its own (`fill`) pushes frames
/// in their place on the same beat: the last frame for `lastFrameHold`, then the slate
/// (`Slate`). So the outputs, and any Swift element in the description, see one stream of the same
/// caps at the same rate with no jump in its timestamps, whatever the input does.
///
/// The first frame fixes the caps (format, size, rate); each later connection converts to them
/// (`InputAttempt`), so a camera back at another size or rate changes nothing downstream. When the
/// picture switches (to the slate, or back to the input) the outputs' encoders are asked for a key
/// frame, so that viewers see the new picture at once.
///
/// This design was chosen over a switch (input-selector) inside the run's pipeline: a source and its
/// decoders taken out of a playing pipeline and put back again need their states, segments and
/// latency brought back in step with the rest, while a pipeline of its own starts and stops without
/// touching the run's. GStreamer's own answer, fallbackswitch, is in the Rust plugins, which Debian
/// 12 does not ship.
///
/// Each loss and each return is said once on stderr, without the input's password, and recorded in
/// `health` for what reports on the run.
final class ReconnectingInput: InputSession {
    /// The bin the file job links from in uridecodebin's place.
    var element: Element { bin }
    /// The input's losses and returns.
    let health = InputHealth()

    /// True for a `whep+http(s)://` input, whose connections take `--stun` and `--turn`.
    var isWHEP: Bool { input.uri.lowercased().hasPrefix("whep+") }

    /// How far ahead of the moment a frame came its timestamp is, as a live source's latency (the
    /// appsrc says so to the sinks): room for a frame that the network or the decoder held back a
    /// little longer than the first of its connection.
    static let timingSlack: ClockTime = 100_000_000

    /// How long the last frame stays before the slate comes.
    static let lastFrameHold: ClockTime = 1_000_000_000

    private let bin: Bin
    private let source: AppSrc
    private let filter: Element
    private let input: FileJob.Input
    private let live: StreamInput
    /// True when an output would have carried the input's audio beside its video.
    private let dropsAudio: Bool
    private let feed = Mutex(Feed())
    private let link = Mutex(Link())
    private let noteHandler = Mutex<@Sendable (String) -> Void>({ _ in })
    /// Where a connection's pipeline is stopped: rtspsrc may wait seconds for a server that is gone,
    /// which must hold up neither the next connection nor Swift's cooperative pool.
    private let teardown = DispatchQueue(label: "gstpipe.reconnect.teardown")

    /// What is pushed into the appsrc, on the streaming thread of the connection or on `fill`'s.
    private struct Feed {
        /// The caps of the first frame: every later one is converted to them.
        var caps: Caps?
        /// A frame's duration at the caps' rate (25 a second when they say none).
        var interval: ClockTime = 40_000_000
        var lastPTS: ClockTime?
        /// Running time of the last frame from the input.
        var lastInputAt: ClockTime?
        var lastFrame: Buffer?
        var slate: Buffer?
        var showing = Showing.input
        /// A picture switch happened: the outputs' encoders are asked for a key frame before the
        /// next buffer leaves the appsrc.
        var keyUnitDue = false
        var closed = false
        /// The connection whose frames are taken: frames of one being stopped are not.
        var connection = 0
        /// Run's running time minus the connection's, in nanoseconds, from its first frame.
        var offset: Int64?
    }

    private enum Showing {
        case input, lastFrame, slate
    }

    /// The connections, seen by `supervise`.
    private struct Link {
        var attempt: InputAttempt?
        /// Why the current connection ended, once it has.
        var ended: String?
        /// When the current connection gave its last frame, if it gave any.
        var lastSample: ContinuousClock.Instant?
        /// When the input was lost, or the run started; nil while it delivers.
        var awaySince: ContinuousClock.Instant? = .now
        /// True once a frame has come, ever.
        var everDelivered = false
        var settings = StreamSettings()
        var closed = false
        var saidAudio = false
        var supervisor: Task<Void, Never>?
    }

    /// Makes the input's bin in `parent` (the pipeline, or the `( ... )` bin of the junction); its
    /// pad comes in `start`, once the file job listens for it.
    init(input: FileJob.Input, live: StreamInput, dropsAudio: Bool, in parent: Bin) throws(GStreamerError) {
        self.input = input
        self.live = live
        self.dropsAudio = dropsAudio
        bin = try Bin(name: "gstpipe-input")
        source = try AppSrc(name: "gstpipe-reconnect-source")
        source.format = .time
        source.isLive = true
        // Never blocking the connection's streaming thread or `fill`: when downstream stops taking
        // (at end of stream), the oldest frames go.
        source.maxBuffers = 8
        source.maxBytes = 0
        try source.set("leaky-type", fromString: "downstream")
        // Without a maximum, a live appsrc answers the latency query with one as small as its minimum,
        // and the sinks warn "please add queues" and drop frames: nothing here waits on downstream, so
        // it may hold frames back as long as it likes.
        try source.set("min-latency", fromString: "\(Self.timingSlack)")
        try source.set("max-latency", fromString: "-1")
        filter = try ElementSpec("capsfilter", [("caps", .text("video/x-raw"))]).make(in: bin)
        try bin.add(source)
        try source.link(to: filter)
        try parent.add(bin)
    }

    /// Refuses `--reconnect` for a description it cannot serve: no network input gstpipe connects
    /// to, or one that works on audio alone.
    static func check(_ job: FileJob) throws(FileJob.Failure) {
        guard job.streamSettings.reconnect else { return }
        let names = StreamInput.all.flatMap(\.schemes).filter { $0 != "webrtc" }.map { "\($0)://" }
        guard let input = job.input, input.isNetwork, !input.uri.lowercased().hasPrefix("webrtc://") else {
            throw .usage(
                "--reconnect opens a network input again when it is lost (\(names.joined(separator: ", "))), and "
                    + "this description reads \(job.input.map { $0.name } ?? "none")"
                    + (job.input?.uri.lowercased().hasPrefix("webrtc://") == true
                        ? " (a webrtc:// input waits for its publisher by itself)" : ""))
        }
        guard job.media == .video else {
            throw .usage("--reconnect keeps video going through a loss, and this description works on audio alone")
        }
    }

    /// Exposes the bin's video pad (and says there is no other), then starts the first connection.
    func start(settings: StreamSettings, note: @escaping @Sendable (String) -> Void) async throws(FileJob.Failure) {
        noteHandler.withLock { $0 = note }
        link.withLock { $0.settings = settings }
        guard let output = filter.pad(named: "src"), (try? bin.addGhostPad(named: "src_video", target: output)) != nil
        else { throw .runtime("cannot make the pad of \(input.name)'s input") }
        bin.withUnsafePointer { gst_element_no_more_pads($0) }
        if let pad = source.pad(named: "src") {
            // On the appsrc's streaming thread, ahead of the buffer: encoders make it a key frame.
            pad.addProbe(.buffer) { [weak self] _ in
                guard let self else { return .ok }
                let due = feed.withLock { feed in
                    defer { feed.keyUnitDue = false }
                    return feed.keyUnitDue
                }
                if due { pad.push(.forceKeyUnit()) }
                return .ok
            }
        }
        let filler = Thread { [weak self] in self?.fill() }
        filler.name = "gstpipe-reconnect-fill"
        filler.start()
        link.withLock { $0.supervisor = Task { [weak self] in await self?.supervise() } }
    }

    // MARK: Connections

    /// Connects, waits for the connection to end, says so, waits as the schedule says, and again,
    /// until the run ends or the input has been away too long.
    private func supervise() async {
        let settings = link.withLock { $0.settings }
        let schedule = ReconnectSchedule(giveUpAfter: settings.reconnectMax)
        var failures = 0
        var saidNotThere = false
        // Why the input was last lost: what giving up names, rather than the last try's failure.
        var lossReason: String?
        while !Task.isCancelled {
            guard let reason = await connectOnce(settings: settings, schedule: schedule) else { return }
            let now = ContinuousClock.now
            let (lost, everDelivered, awaySince) = link.withLock { link -> (Bool, Bool, ContinuousClock.Instant) in
                let lost = link.awaySince == nil
                if lost { link.awaySince = now }
                return (lost, link.everDelivered, link.awaySince ?? now)
            }
            if lost {
                failures = 0
                lossReason = reason
                note("input lost: \(reason)")
                health.record(.away, reason: reason)
            } else if !everDelivered && !saidNotThere {
                saidNotThere = true
                note("cannot read \(input.name) yet: \(reason); trying again (--reconnect)")
                health.record(.starting, reason: reason)
            }
            failures += 1
            if schedule.givesUp(away: now - awaySince) {
                giveUp(reason: lossReason ?? reason, everDelivered: everDelivered)
                return
            }
            try? await Task.sleep(for: schedule.sleep(beforeAttempt: failures, away: now - awaySince))
            if schedule.givesUp(away: .now - awaySince) {
                giveUp(reason: lossReason ?? reason, everDelivered: everDelivered)
                return
            }
        }
    }

    /// One connection, from its start to its end: the reason it ended, or nil when the run ended.
    /// Silence for `--timeout` ends it, and so does being away longer than `--reconnect-max`.
    private func connectOnce(settings: StreamSettings, schedule: ReconnectSchedule) async -> String? {
        let (caps, connection) = feed.withLock { feed in
            feed.connection += 1
            feed.offset = nil
            return (feed.caps, feed.connection)
        }
        let started = ContinuousClock.now
        let attempt: InputAttempt
        do {
            attempt = try await InputAttempt(
                input: input, live: live, settings: settings, caps: caps,
                deliver: { [weak self] sample in self?.take(sample, of: connection) },
                sawAudio: { [weak self] in self?.noteAudioLeftOut() },
                ended: { [weak self] reason in self?.link.withLock { $0.ended = $0.ended ?? reason } })
        } catch {
            return Secrets.redact(error.message)
        }
        let current = link.withLock { link -> Bool in
            link.attempt = attempt
            link.ended = nil
            link.lastSample = nil
            return !link.closed
        }
        guard current else {
            teardown.async { attempt.stop() }
            return nil
        }
        var reason: String?
        while reason == nil {
            try? await Task.sleep(for: .milliseconds(100))
            let now = ContinuousClock.now
            let (ended, lastSample, awaySince, closed) = link.withLock { link in
                (link.ended, link.lastSample, link.awaySince, link.closed)
            }
            if closed || Task.isCancelled { return nil }
            if let ended {
                reason = ended
            } else if let timeout = settings.inputTimeout, now - (lastSample ?? started) >= timeout {
                reason = lastSample == nil
                    ? "nothing arrived in \(Self.seconds(timeout))" : "it sent nothing for \(Self.seconds(timeout))"
            } else if let awaySince, lastSample == nil, schedule.givesUp(away: now - awaySince) {
                reason = "nothing arrived yet"
            }
        }
        link.withLock { link in
            if link.attempt === attempt { link.attempt = nil }
        }
        // Frames the connection still hands on while it stops are not the input coming back.
        feed.withLock { feed in
            if feed.connection == connection { feed.connection += 1 }
        }
        teardown.async { attempt.stop() }
        return reason
    }

    /// Away longer than `--reconnect-max`: an error from the input, which ends the run (exit 1) with
    /// the outputs finished.
    private func giveUp(reason: String, everDelivered: Bool) {
        guard let limit = link.withLock({ $0.closed ? nil : $0.settings.reconnectMax }) else { return }
        health.record(.gaveUp, reason: reason)
        let seconds = Self.seconds(limit)
        if everDelivered {
            bin.postError(
                "\(input.name) has been away for \(seconds) (--reconnect-max): giving up (input lost: \(reason))")
        } else {
            bin.postError("\(reason); not there after \(seconds) of trying (--reconnect-max)")
        }
    }

    // MARK: Frames

    /// A frame from `connection`, on its streaming thread: its time moved into the run's
    /// (`timingSlack`), and pushed when that time comes, not before: a connection that starts, or a
    /// network that recovers, hands on a burst of frames at once, which is paced here as a
    /// synchronized sink would. The first frame fixes the caps; the first after a loss says the input
    /// is back.
    private func take(_ sample: Sample, of connection: Int) {
        guard let buffer = sample.buffer, let caps = sample.caps else { return }
        // The frame's running time in its connection's pipeline, which is live: its clock's time.
        let own: ClockTime? = buffer.pts.flatMap { pts in
            sample.segment.flatMap { segment in pts >= segment.start ? segment.base + pts - segment.start : nil }
        }
        enum Outcome {
            case pushed(first: Bool), early(ClockTime), otherCaps, closed
        }
        var outcome = Outcome.closed
        while true {
            guard let now = source.currentRunningTime else { return }
            outcome = feed.withLock { feed -> Outcome in
                guard !feed.closed, feed.connection == connection else { return .closed }
                if let fixed = feed.caps, fixed != caps { return .otherCaps }
                let ahead = now + Self.timingSlack
                var pts = ahead
                if let own {
                    let mapped = feed.offset.map { Int64(own) + $0 }
                    // Late (held back longer than the slack) or a second early (the connection's time
                    // jumped): the spacing starts again from this frame.
                    if let mapped, mapped >= Int64(now), mapped <= Int64(ahead + 1_000_000_000) {
                        pts = ClockTime(mapped)
                        if pts > ahead + 2_000_000 { return .early(pts - ahead) }
                    } else {
                        feed.offset = Int64(ahead) - Int64(own)
                    }
                }
                let first = feed.caps == nil
                if first { fix(caps, in: &feed) }
                // Less than half a frame after the last frame pushed (the filler's, just before the input came
                // back): a muxer counting in frames stamps both alike, and the recording's file then has two
                // frames at one time, which players refuse. This frame goes a frame after that one, and the
                // connection's next frames keep their spacing from it.
                if let last = feed.lastPTS, pts < last + feed.interval / 2 {
                    pts = last + feed.interval
                    if let own { feed.offset = Int64(pts) - Int64(own) }
                }
                if feed.showing != .input && feed.lastPTS != nil { feed.keyUnitDue = true }
                feed.showing = .input
                feed.lastPTS = pts
                feed.lastInputAt = now
                feed.lastFrame = buffer
                let stamped = buffer.withTimestamps(pts: pts, duration: feed.interval)
                stamped.dts = nil
                _ = source.push(stamped)
                return .pushed(first: first)
            }
            guard case .early(let wait) = outcome else { break }
            Thread.sleep(forTimeInterval: Double(min(wait, 100_000_000)) / 1e9)
        }
        switch outcome {
        case .closed, .early: return
        case .otherCaps:
            // Only the first connection can: later ones are converted to the caps.
            let picture =
                (try? VideoInfo(caps: caps)).map { "\($0.width)x\($0.height) \($0.formatName)" } ?? "other caps"
            link.withLock { $0.ended = $0.ended ?? "it changed its picture to \(picture)" }
            return
        case .pushed(let first):
            if first {
                DispatchQueue.global().async { [weak self] in
                    let slate = Slate.make(in: caps)
                    self?.feed.withLock { $0.slate = slate }
                }
            }
        }
        let arrived = ContinuousClock.now
        let back = link.withLock { link -> (away: Duration, first: Bool)? in
            link.lastSample = arrived
            guard let since = link.awaySince else { return nil }
            defer {
                link.awaySince = nil
                link.everDelivered = true
            }
            return (arrived - since, !link.everDelivered)
        }
        guard let back else { return }
        if !back.first {
            note("input back after \(Self.seconds(back.away, decimals: 1))")
        }
        health.record(.delivering, awayFor: back.first ? nil : back.away)
    }

    /// The first frame's caps are the stream's: the appsrc's, and a frame's duration at their rate.
    private func fix(_ caps: Caps, in feed: inout Feed) {
        feed.caps = caps
        source.caps = caps
        if let info = try? VideoInfo(caps: caps), info.framerate.numerator > 0 {
            feed.interval =
                ClockTime(1_000_000_000 * UInt64(info.framerate.denominator)) / ClockTime(info.framerate.numerator)
        }
    }

    /// The thread that stands in for the input: whenever no frame has come for `stallAfter`, it
    /// pushes one a frame's time after the last, until the input is back or the run ends.
    private func fill() {
        while true {
            let wait = feed.withLock { feed -> ClockTime? in
                guard !feed.closed else { return nil }
                guard let lastPTS = feed.lastPTS, let lastInputAt = feed.lastInputAt, let lastFrame = feed.lastFrame,
                    let now = source.currentRunningTime
                else { return 50_000_000 }
                let interval = feed.interval
                let stallAfter = max(interval * 5 / 2, 100_000_000)
                guard now >= lastInputAt + stallAfter else { return lastInputAt + stallAfter - now }
                // Pushed as far ahead of its time as the input's frames were (`timingSlack`), so that
                // the input's first frame back follows on without a jump.
                let ahead = now + Self.timingSlack
                let due = lastPTS + interval
                guard ahead >= due else { return due - ahead }
                let holding = now - lastInputAt < Self.lastFrameHold || feed.slate == nil
                let showing: Showing = holding ? .lastFrame : .slate
                if showing == .slate && feed.showing != .slate { feed.keyUnitDue = true }
                feed.showing = showing
                // Behind (this thread waited for a core): the frames missed go at once, on the beat; a
                // second or more behind, the stream goes on from now instead.
                let pts = ahead > due + 1_000_000_000 ? ahead : due
                let frame = (holding ? lastFrame : feed.slate) ?? lastFrame
                let own = frame.withTimestamps(pts: pts, duration: interval)
                own.dts = nil
                _ = source.push(own)
                feed.lastPTS = pts
                return 0
            }
            guard let wait else { return }
            if wait > 0 { Thread.sleep(forTimeInterval: Double(min(wait, 100_000_000)) / 1e9) }
        }
    }

    /// Says once, when an output would have carried it, that the input's audio is left out.
    private func noteAudioLeftOut() {
        guard dropsAudio, link.withLock({ link in
            defer { link.saidAudio = true }
            return !link.saidAudio
        }) else { return }
        note("the audio of \(input.name) is left out: --reconnect carries its video alone")
    }

    // MARK: Ending

    private func note(_ text: String) {
        noteHandler.withLock { $0 }(text)
    }

    /// Nothing to wait for at end of stream.
    func finish() {}

    /// Stops the connection and the thread that fills in: after the run's pipeline has stopped.
    func close() {
        feed.withLock { $0.closed = true }
        let (attempt, supervisor) = link.withLock { link in
            link.closed = true
            defer { link.attempt = nil }
            return (link.attempt, link.supervisor)
        }
        supervisor?.cancel()
        if let attempt { teardown.async { attempt.stop() } }
        teardown.sync {}
        health.finish()
    }

    /// "2 s", "4.2 s".
    static func seconds(_ duration: Duration, decimals: Int = 0) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        if decimals == 0 && seconds == seconds.rounded() { return "\(Int(seconds)) s" }
        return String(format: "%.\(max(decimals, 1))f s", seconds)
    }
}
