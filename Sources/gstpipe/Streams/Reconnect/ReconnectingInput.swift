import CGStreamer
import Foundation
import GstPipeParsing
import GstPipeSupport
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
/// When an output carries the input's audio, the bin has a second pad, `src_audio`, if the first
/// connection has audio (the bin says no-more-pads once that connection has exposed its streams, and
/// nothing is pushed before, so that the muxers get both pads before any data). The audio is one
/// unbroken run of samples: each buffer's timestamp is where the last one ended. A connection's
/// first buffer starts there, the later ones keep their spacing from it, and a hole (a loss, or a
/// connection without audio) is filled with silence in the first connection's format (`AudioFeed`).
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
    /// True when an output carries the input's audio beside its video.
    private let carriesAudio: Bool
    /// The input's audio, pushed in its own appsrc beside the video's; nil when no output carries it.
    private let audioSource: AppSrc?
    private let audioFilter: Element?
    private let feed = Locked(Feed())
    private let link = Locked(Link())
    private let noteHandler = Locked<@Sendable (String) -> Void>({ _ in })
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
        /// The first frame's timestamp, where the audio starts.
        var firstPTS: ClockTime?
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
        /// The bin's pads are all there (no-more-pads said): nothing is pushed before.
        var streamsDecided = false
        /// The input's audio once the first connection's has come; nil while none has, or when it is
        /// not carried.
        var audio: AudioFeed?
        /// True when the bin has an audio pad.
        var carriesAudio = false
    }

    /// The audio as one unbroken run of samples from `start`, in the first connection's format.
    struct AudioFeed {
        let caps: Caps
        let info: AudioInfo
        /// Twenty milliseconds of silence, sent again and again while the input is away.
        let silence: Buffer
        let silenceSamples: Int
        /// The running time of the first sample.
        let start: ClockTime
        /// Samples pushed so far: the next buffer starts at `start` plus their duration.
        var samples = 0
        /// Run's running time minus the connection's, for its audio, from its first buffer.
        var offset: Int64?

        /// How far a buffer may be from where the run of samples has got to and still be put there:
        /// more, and the run fills the hole with silence (a buffer later than that) or starts the
        /// connection's spacing again from here (earlier: a connection late for longer than the
        /// filler waited).
        static let tolerance: Int64 = 40_000_000
        /// No buffer for this long beyond where the samples have got to, less `timingSlack`: the
        /// filler sends silence.
        static let stallAfter: ClockTime = 60_000_000

        init?(caps: Caps, start: ClockTime) {
            guard let info = try? AudioInfo(caps: caps), info.rate > 0, info.bytesPerFrame > 0,
                info.layout == .interleaved, info.format != .u8
            else { return nil }
            let samples = max(info.rate / 50, 1)
            guard let silence = try? Buffer(bytes: [UInt8](repeating: 0, count: samples * info.bytesPerFrame))
            else { return nil }
            self.caps = caps
            self.info = info
            self.silence = silence
            silenceSamples = samples
            self.start = start
        }

        /// Where the next sample goes, in the run's running time.
        var next: ClockTime { start + info.duration(ofSamples: samples) }

        /// Stamps `buffer` (`count` samples) at `next` and counts its samples: its duration is exactly
        /// the time to the sample after it, so rounding never opens a gap or an overlap.
        mutating func stamp(_ buffer: Buffer, samples count: Int) -> Buffer {
            let pts = next
            samples += count
            let stamped = buffer.withTimestamps(pts: pts, duration: next - pts, discontinuity: false)
            stamped.dts = nil
            return stamped
        }

        /// Pushes silence from `next` to `end` into `source`, in buffers of at most twenty milliseconds.
        /// Each is pushed before the next is stamped: stamping a buffer nobody else holds changes it in
        /// place, and the same silence would go out with the last timestamps.
        mutating func pushSilence(until end: ClockTime, into source: AppSrc) {
            var missing = info.samples(in: end > next ? end - next : 0)
            while missing > 0 {
                let count = min(missing, silenceSamples)
                let chunk =
                    count == silenceSamples
                    ? silence : (try? Buffer(bytes: [UInt8](repeating: 0, count: count * info.bytesPerFrame)))
                guard let chunk else { break }
                _ = source.push(stamp(chunk, samples: count))
                missing -= count
            }
        }
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
        /// When the first frame came that waited for the bin's pads to be decided.
        var undecidedSince: ContinuousClock.Instant?
        var supervisor: Task<Void, Never>?
    }

    /// A live appsrc in time format that never blocks the connection's streaming thread or `fill`:
    /// when downstream stops taking (at end of stream), the oldest of its `holding` buffers go.
    /// Without a maximum latency, a live appsrc answers the latency query with one as small as its
    /// minimum, and the sinks warn "please add queues" and drop frames: nothing here waits on
    /// downstream, so it may hold buffers back as long as it likes.
    private static func liveSource(named name: String, holding buffers: UInt64) throws(GStreamerError) -> AppSrc {
        let source = try AppSrc(name: name)
        source.format = .time
        source.isLive = true
        source.maxBuffers = buffers
        source.maxBytes = 0
        try source.set("leaky-type", fromString: "downstream")
        try source.set("min-latency", fromString: "\(timingSlack)")
        try source.set("max-latency", fromString: "-1")
        return source
    }

    /// Makes the input's bin in `parent` (the pipeline, or the `( ... )` bin of the junction); its
    /// pad comes in `start`, once the file job listens for it.
    init(input: FileJob.Input, live: StreamInput, carriesAudio: Bool, in parent: Bin) throws(GStreamerError) {
        self.input = input
        self.live = live
        self.carriesAudio = carriesAudio
        bin = try Bin(name: "gstpipe-input")
        source = try Self.liveSource(named: "gstpipe-reconnect-source", holding: 8)
        filter = try ElementSpec("capsfilter", [("caps", .text("video/x-raw"))]).make(in: bin)
        try bin.add(source)
        try source.link(to: filter)
        if carriesAudio {
            // Room for the bursts of audio buffers a connection starts with.
            let audio = try Self.liveSource(named: "gstpipe-reconnect-audio", holding: 64)
            let audioFilter = try ElementSpec("capsfilter", [("caps", .text("audio/x-raw"))]).make(in: bin)
            try bin.add(audio)
            try audio.link(to: audioFilter)
            audioSource = audio
            self.audioFilter = audioFilter
        } else {
            audioSource = nil
            audioFilter = nil
        }
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
        if !carriesAudio { decideStreams(hasAudio: false, of: nil) }
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
        let (caps, audioCaps, connection, readsAudio) = feed.withLock { feed in
            feed.connection += 1
            feed.offset = nil
            feed.audio?.offset = nil
            return (feed.caps, feed.audio?.caps, feed.connection, !feed.streamsDecided || feed.carriesAudio)
        }
        let started = ContinuousClock.now
        let attempt: InputAttempt
        do {
            attempt = try await InputAttempt(
                input: input, live: live, settings: settings, caps: caps,
                deliver: { [weak self] sample in self?.take(sample, of: connection) },
                audio: carriesAudio && readsAudio
                    ? InputAttempt.Audio(
                        caps: audioCaps,
                        deliver: { [weak self] sample in self?.takeAudio(sample, of: connection) },
                        streams: { [weak self] hasAudio in self?.decideStreams(hasAudio: hasAudio, of: connection) })
                    : nil,
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
                reason =
                    lastSample == nil
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
        let own = Self.runningTime(of: buffer, in: sample)
        enum Outcome {
            case pushed(first: Bool), early(ClockTime), otherCaps, closed, undecided
        }
        var outcome = Outcome.closed
        while true {
            guard let now = source.currentRunningTime else { return }
            outcome = feed.withLock { feed -> Outcome in
                guard !feed.closed, feed.connection == connection else { return .closed }
                guard feed.streamsDecided else { return .undecided }
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
                if feed.firstPTS == nil { feed.firstPTS = pts }
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
        case .undecided:
            // A source that never says no-more-pads: after two seconds of video, the audio is left out.
            let waited = link.withLock { link -> Duration in
                let since = link.undecidedSince ?? .now
                link.undecidedSince = since
                return .now - since
            }
            if waited >= .seconds(2) {
                decideStreams(hasAudio: false, of: connection)
                noteAudioLeftOut()
            }
            return
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

    /// The running time of `buffer` in its connection's pipeline, nil without one. The timestamps are the
    /// sender's: one that does not fit the signed arithmetic of the offsets (past 2^62 ns, 146 years)
    /// counts as none, rather than trapping there.
    private static func runningTime(of buffer: Buffer, in sample: Sample) -> ClockTime? {
        guard let pts = buffer.pts, let segment = sample.segment, pts >= segment.start else { return nil }
        let (time, overflow) = segment.base.addingReportingOverflow(pts - segment.start)
        return !overflow && time < 1 << 62 ? time : nil
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
            let audioWait = feed.withLock { feed in fillAudio(&feed) }
            guard let wait else { return }
            let least = min(wait, audioWait)
            if least > 0 { Thread.sleep(forTimeInterval: Double(min(least, 100_000_000)) / 1e9) }
        }
    }

    // MARK: Audio

    /// Adds the audio pad when the first connection has audio (and an output carries it), then says
    /// no-more-pads: once, from the first connection (nil: at start, no output carrying audio) whose
    /// source has exposed its streams. Until then nothing is pushed.
    private func decideStreams(hasAudio: Bool, of connection: Int?) {
        let first = feed.withLock { feed -> Bool in
            guard !feed.streamsDecided, !feed.closed, connection.map({ $0 == feed.connection }) ?? true else {
                return false
            }
            feed.streamsDecided = true
            feed.carriesAudio = hasAudio && audioSource != nil
            return true
        }
        guard first else { return }
        if hasAudio, let output = audioFilter?.pad(named: "src") {
            if (try? bin.addGhostPad(named: "src_audio", target: output)) == nil {
                feed.withLock { $0.carriesAudio = false }
            }
        }
        bin.withUnsafePointer { gst_element_no_more_pads($0) }
    }

    /// An audio buffer from `connection`, on its streaming thread: put where the run of samples has got
    /// to (`AudioFeed`). The first ever fixes the format; silence fills a hole in a connection's audio.
    /// The audio starts with the video's first frame (audio before it is dropped, silence from it to the
    /// first audio), so that a recording's tracks start and end together.
    private func takeAudio(_ sample: Sample, of connection: Int) {
        guard let audioSource, let buffer = sample.buffer, let caps = sample.caps,
            let now = audioSource.currentRunningTime
        else { return }
        let own = Self.runningTime(of: buffer, in: sample)
        feed.withLock { feed in
            guard !feed.closed, feed.connection == connection, feed.streamsDecided, feed.carriesAudio else { return }
            if feed.audio == nil {
                guard let start = feed.firstPTS, let own, var audio = AudioFeed(caps: caps, start: start) else {
                    return
                }
                audio.offset = Int64(now + Self.timingSlack) - Int64(own)
                audioSource.caps = caps
                feed.audio = audio
            }
            guard var audio = feed.audio, audio.caps == caps else { return }
            defer { feed.audio = audio }
            let count = buffer.size / audio.info.bytesPerFrame
            guard count > 0 else { return }
            let next = audio.next
            if let own, let offset = audio.offset {
                let late = Int64(own) + offset - Int64(next)
                if late > AudioFeed.tolerance && late <= 1_000_000_000 {
                    // A hole in the connection's audio: silence keeps the rest in step with the video.
                    audio.pushSilence(until: ClockTime(Int64(next) + late), into: audioSource)
                } else if abs(late) > AudioFeed.tolerance {
                    audio.offset = Int64(next) - Int64(own)
                }
            } else if let own {
                audio.offset = Int64(next) - Int64(own)
            }
            _ = audioSource.push(audio.stamp(buffer, samples: count))
        }
    }

    /// On `fill`'s thread: when the audio has not got as far as the video's lead (`timingSlack`) less
    /// `AudioFeed.stallAfter`, silence up to that lead. Returns how long until it may be needed again.
    private func fillAudio(_ feed: inout Feed) -> ClockTime {
        guard let audioSource, var audio = feed.audio, !feed.closed, let now = audioSource.currentRunningTime else {
            return 50_000_000
        }
        let ahead = now + Self.timingSlack
        let next = audio.next
        guard next + AudioFeed.stallAfter <= ahead else { return next + AudioFeed.stallAfter - ahead }
        audio.pushSilence(until: ahead, into: audioSource)
        feed.audio = audio
        return 0
    }

    /// Says once, when an output would have carried it, that the input's audio is left out: the bin has
    /// no audio pad, since the first connection had none.
    private func noteAudioLeftOut() {
        guard carriesAudio, !feed.withLock({ $0.carriesAudio }),
            link.withLock({ link in
                defer { link.saidAudio = true }
                return !link.saidAudio
            })
        else { return }
        note("the audio of \(input.name) is left out: it had none when the run started")
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
