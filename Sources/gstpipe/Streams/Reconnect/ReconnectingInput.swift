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

    let bin: Bin
    let source: AppSrc
    let filter: Element
    let input: FileJob.Input
    let live: StreamInput
    /// True when an output carries the input's audio beside its video.
    let carriesAudio: Bool
    /// The input's audio, pushed in its own appsrc beside the video's; nil when no output carries it.
    let audioSource: AppSrc?
    let audioFilter: Element?
    let feed = Locked(Feed())
    let link = Locked(Link())
    let noteHandler = Locked<@Sendable (String) -> Void>({ _ in })
    /// Where a connection's pipeline is stopped: rtspsrc may wait seconds for a server that is gone,
    /// which must hold up neither the next connection nor Swift's cooperative pool.
    let teardown = DispatchQueue(label: "gstpipe.reconnect.teardown")

    /// What is pushed into the appsrc, on the streaming thread of the connection or on `fill`'s.
    struct Feed {
        /// The caps of the first frame: every later one is converted to them.
        var caps: Caps?
        /// A frame's duration at the caps' rate (25 a second when they say none).
        var interval: ClockTime = 40_000_000
        var lastPTS: ClockTime?
        /// The timestamp of the first frame that left the appsrc, where the audio starts.
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

    enum Showing {
        case input, lastFrame, slate
    }

    /// The connections, seen by `supervise`.
    struct Link {
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
    static func liveSource(named name: String, holding buffers: UInt64) throws(GStreamerError) -> AppSrc {
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
            // On the appsrc's streaming thread, ahead of the buffer: encoders make it a key frame. The pad comes
            // with each call: captured, it would hold the probe that holds it, and the appsrc's pad would never go.
            // The first buffer to leave fixes where the audio starts: while the outputs' encoders start, the
            // appsrc may drop its oldest frames, the first pushed among them.
            pad.addProbe(.buffer) { [weak self] pad, info in
                guard let self else { return .ok }
                let due = feed.withLock { feed in
                    defer { feed.keyUnitDue = false }
                    if feed.firstPTS == nil { feed.firstPTS = info.buffer?.pts }
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

    // MARK: Ending

    func note(_ text: String) {
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
