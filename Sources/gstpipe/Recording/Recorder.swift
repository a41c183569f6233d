import Foundation
import GstPipeSupport
import MediaIO

/// `--record`: what the description outputs, written beside its other outputs into files of
/// `--record-segment` seconds that rotate.
///
/// The recording shares an output's encoding: a `tee` after the first H.264 output's encoder (or, for a
/// description that names no output, an encoder of its own after the junction it ends in) feeds
/// `splitmuxsink`, which cuts a file on the first key frame after each segment's length and asks the
/// encoder for that key frame (`send-keyframe-requests`). Each file is written by a muxer of its own
/// (`async-finalize`): fragmented MP4 (a `moov` first, then a fragment a second, so a file plays up to
/// its last fragment after kill -9) or Matroska, under a hidden temporary name beside its own
/// (`.NAME.partial`), and renamed when the muxer has finished it (`splitmuxsink-fragment-closed`).
///
/// A file's name is the local wall-clock time of its first frame (`RecordPattern`), and so is its
/// creation time (MP4's `mvhd`, Matroska's `DateUTC`), written as it is renamed. The first file's start
/// is the wall clock as its first frame arrives; each later file's is that plus the running time
/// between their first frames, so that a file starts exactly where the one before it ended.
/// After each file, and every `pruningPeriod` while the run goes (`keepPruning`), `RecordingRetention`
/// deletes what `--record-keep` and `--record-max-size` no longer keep.
final class Recorder: Sendable {
    /// One file being written.
    private struct File {
        let path: String
        let start: Date
        let runningTime: ClockTime
    }

    private struct State {
        /// The wall clock and running time of the first frame recorded.
        var origin: (date: Date, runningTime: ClockTime)?
        /// The files being written, by temporary path.
        var open: [String: File] = [:]
        /// Set once a file could not be written: the message the run ends with.
        var failure: String?
        /// The names of the last muxers and file sinks splitmuxsink made. With `async-finalize` it
        /// removes each file's pair once the file is finished, so an error that pair posts while
        /// finishing (the disk full) arrives after the pair has left the bin.
        var made: [String] = []
    }

    let settings: RecordSettings
    /// splitmuxsink: the elements it makes (muxers, file sinks) post their errors under its name.
    let sink: Element
    private let state = Locked(State())
    private let events: RecordingEvents
    private let retention: RecordingRetention
    private let note: @Sendable (String) -> Void

    /// The tokens a description that names no output gets at its end: the recording encodes what
    /// reaches this junction.
    static let junction = "gstpipe-record-junction"

    private init(
        settings: RecordSettings, sink: Element, events: RecordingEvents, note: @escaping @Sendable (String) -> Void
    ) {
        self.settings = settings
        self.sink = sink
        self.events = events
        self.note = note
        retention = RecordingRetention(settings: settings)
    }

    /// Refuses what cannot be recorded, before the pipeline is built: an input that is a file (it has
    /// no wall-clock time; `gstpipe IN --start --end ! out.mp4` cuts a file), or audio alone. Returns
    /// the tokens to add after the description when it names no output.
    static func check(_ settings: RecordSettings, job: FileJob) throws(FileJob.Failure) -> [String] {
        if let input = job.input, !input.isNetwork {
            throw .usage(
                "--record records live inputs (rtsp://, srt://, udp://, a camera, is-live=true sources), not the "
                    + "file \(input.name): write it with gstpipe \(input.name) ! out.mp4 (--start/--end for a part)")
        }
        guard job.media == .video else {
            throw .usage("--record records video: this description makes audio alone")
        }
        // A description that ends in a sink of its own (fakesink, autovideosink) is recorded from before it.
        let lastElement = job.tokens.last { !$0.contains("=") && $0 != "!" } ?? ""
        let endsInSink = GStreamer.classification(ofElement: lastElement)?.contains("Sink") ?? false
        return job.outputs.isEmpty && !endsInSink ? ["!"] + FileJob.junction(named: junction) : []
    }

    /// Builds the recording's branch in `pipeline` (after `check`), from the first H.264 output's
    /// encoder, from the record junction, or beside the first video output or sink. Throws a usage
    /// error for a source that is not live, or a pattern whose folder cannot be made or written.
    static func attach(
        _ settings: RecordSettings, outputs: [FileJobElements.Output], to pipeline: Pipeline,
        events: RecordingEvents = .run, note: @escaping @Sendable (String) -> Void
    ) throws(FileJob.Failure) -> Recorder {
        let sources = pipeline.children.filter { element in !element.pads.contains { $0.direction == .sink } }
        if let source = sources.first(where: { isLive($0) == false }) {
            throw .usage(
                "--record records live sources: \(source.name) is not live (give it is-live=true, or use a camera "
                    + "or a network input)")
        }
        try settings.pattern.prepare()
        let junction = pipeline.element(named: junction)
        let shared = outputs.first { $0.file.media == .video && $0.encoder.factoryName == "x264enc" }?.encoder
        // Without an x264enc to share (gray's x264grayenc makes no key frame when asked; VP8, images; a
        // sink of the description's own), the recording encodes the first video output's pictures itself.
        let sinks = pipeline.children.filter { element in
            !element.pads.contains { $0.direction == .source } && element.pads.contains { $0.direction == .sink }
        }
        // Children come newest first: the description's last sink.
        let beside = outputs.first { $0.file.media == .video }?.converter ?? sinks.first
        guard let upstream = junction ?? shared ?? beside, let bin = upstream.parent as? Bin else {
            throw .usage("--record records video: this description has no video output to record")
        }
        do {
            let recorder = Recorder(
                settings: settings, sink: try makeSink(settings, in: bin), events: events, note: note)
            try recorder.connect()
            if let junction {
                try recorder.encode(from: junction, in: bin)
            } else if let shared {
                try recorder.share(shared, in: bin)
            } else {
                try recorder.encode(from: try recorder.tee(before: upstream, in: bin), in: bin)
            }
            note(
                "recording to \(settings.pattern.text): files of \(settings.segmentSeconds.formatted()) s, "
                    + "each written as .NAME.partial beside it until whole")
            return recorder
        } catch {
            throw .runtime("cannot record: \(error.message)")
        }
    }

    /// False for a source with an `is-live` property that is off; nil for a source without one.
    private static func isLive(_ element: Element) -> Bool? {
        guard case .bool(let live)? = try? element.get("is-live") else { return nil }
        return live
    }

    private static func makeSink(_ settings: RecordSettings, in bin: Bin) throws(GStreamerError) -> Element {
        let muxer = settings.pattern.container == "mkv" ? "matroskamux" : "mp4mux"
        // Fragmented MP4: the moov first, then a fragment a second; Matroska plays cut short as it is.
        let muxerProperties =
            muxer == "mp4mux" ? "properties,fragment-duration=1000" : "properties,streamable=false"
        return try ElementSpec(
            "splitmuxsink",
            [
                ("async-finalize", .text("true")), ("muxer-factory", .text(muxer)),
                ("muxer-properties", .text(muxerProperties)), ("sink-factory", .text("filesink")),
                ("max-size-time", .text(String(UInt64(settings.segmentSeconds * 1e9)))),
                ("send-keyframe-requests", .text("true")),
                // Only when the signal handler gives no name: it always does.
                ("location", .string(settings.pattern.root.appendingPathComponent(".unnamed%05d.partial").path))
            ]
        ).make(named: "gstpipe-record", in: bin)
    }

    /// Names each file as it starts.
    private func connect() throws(GStreamerError) {
        // Each fragment on disk as the muxer gives it: filesink's own 64 kB buffer would hold seconds of
        // a small stream back from a file killed with -9. (sink-properties cannot set an enum: its
        // structure holds the nick as a string, which GObject does not convert.)
        try sink.connect("sink-added") { [self] arguments in
            guard case .element(let fileSink)? = arguments.first else { return }
            try? fileSink.set("buffer-mode", fromString: "unbuffered")
            self.remember(fileSink.name)
        }
        try sink.connect("muxer-added") { [self] arguments in
            guard case .element(let muxer)? = arguments.first else { return }
            self.remember(muxer.name)
        }
        try sink.connectReturning("format-location-full") { [self] arguments in
            guard arguments.count >= 2, case .sample(let sample) = arguments[1] else { return .null }
            return .string(self.open(startingWith: sample))
        }
    }

    /// A few files' worth is enough: a pair's error comes while its file finishes, soon after the next starts.
    private func remember(_ name: String) {
        state.withLock { state in
            state.made.append(name)
            if state.made.count > 16 { state.made.removeFirst(state.made.count - 16) }
        }
    }

    /// A new file: its start, its name, its folder.
    private func open(startingWith sample: Sample) -> String {
        let runningTime = Self.runningTime(of: sample) ?? 0
        let start = state.withLock { state -> Date in
            guard let origin = state.origin else {
                state.origin = (Date(), runningTime)
                return state.origin!.date
            }
            let offset = runningTime >= origin.runningTime ? Double(runningTime - origin.runningTime) / 1e9 : 0
            return origin.date.addingTimeInterval(offset)
        }
        var path = URL(fileURLWithPath: settings.pattern.path(startingAt: start)).standardizedFileURL.path
        // Two files in one second (a short segment) get -2, -3...
        var number = 2
        let stem = String(path.dropLast(settings.pattern.container.count + 1))
        while FileManager.default.fileExists(atPath: path)
            || state.withLock({ $0.open[RecordPattern.partialPath(of: path)] != nil })
        {
            path = "\(stem)-\(number).\(settings.pattern.container)"
            number += 1
        }
        let partial = RecordPattern.partialPath(of: path)
        // A failure here shows as the file sink's own error (the folder named), which ends the run.
        try? FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        state.withLock { $0.open[partial] = File(path: path, start: start, runningTime: runningTime) }
        return partial
    }

    private static func runningTime(of sample: Sample) -> ClockTime? {
        guard let pts = sample.buffer?.pts else { return nil }
        guard let segment = sample.segment, pts >= segment.start else { return pts }
        // Saturating: ClockTime(_:) of a Double past UInt64's range, or the sum past it, would trap.
        let scaled = min(Double(pts - segment.start) / max(segment.rate, 1e-9), 9e18)
        let (time, overflow) = segment.base.addingReportingOverflow(ClockTime(scaled))
        return overflow ? .max : time
    }

    /// A recording branch from `encoder`'s output, beside where it went.
    private func share(_ encoder: Element, in bin: Bin) throws(GStreamerError) {
        try recordBranch(from: try tee(after: try Self.pad("src", of: encoder), in: bin), in: bin)
    }

    /// A tee put between `element` and what feeds it, the feed going on through a queue; returns the tee.
    private func tee(before element: Element, in bin: Bin) throws(GStreamerError) -> Element {
        guard let feed = try Self.pad("sink", of: element).peer else {
            throw GStreamerError(kind: .core, message: "\(element.name) is not linked")
        }
        return try tee(after: feed, in: bin)
    }

    /// A tee put after the source pad `feed`, what it fed going on through a queue; returns the tee.
    private func tee(after feed: Pad, in bin: Bin) throws(GStreamerError) -> Element {
        guard let input = feed.peer else { throw GStreamerError(kind: .core, message: "\(feed.name) is not linked") }
        _ = feed.unlink(from: input)
        let tee = try ElementSpec("tee").make(named: "gstpipe-record-tee", in: bin)
        let queue = try ElementSpec("queue").make(in: bin)
        try feed.link(to: try Self.pad("sink", of: tee))
        try tee.link(to: queue)
        try Self.pad("src", of: queue).link(to: input)
        return tee
    }

    private static func pad(_ name: String, of element: Element) throws(GStreamerError) -> Pad {
        guard let pad = element.pad(named: name) else {
            throw GStreamerError(kind: .core, message: "\(element.name) has no \(name) pad")
        }
        return pad
    }

    /// The recording encoded for streaming after `upstream` (the record junction, or a tee).
    private func encode(from upstream: Element, in bin: Bin) throws(GStreamerError) {
        var chain = upstream.factoryName == "tee" ? [try ElementSpec("queue").make(in: bin)] : []
        chain.append(try ElementSpec("videoconvert").make(named: "gstpipe-record-convert", in: bin))
        chain.append(try ElementSpec.chain([OutputFormat.h264Input])[0].make(in: bin))
        for spec in ElementSpec.chain(OutputFormat.streamingH264) { chain.append(try spec.make(in: bin)) }
        for (upstream, downstream) in zip([upstream] + chain, chain) { try upstream.link(to: downstream) }
        try recordBranch(from: chain.last!, in: bin)
    }

    /// queue, h264parse (the muxers take AVC), splitmuxsink. The queue holds seconds, so that a slow
    /// disk does not hold up the outputs beside it.
    private func recordBranch(from upstream: Element, in bin: Bin) throws(GStreamerError) {
        let queue = try ElementSpec(
            "queue",
            [("max-size-time", .text("10000000000")), ("max-size-bytes", .text("0")), ("max-size-buffers", .text("0"))]
        ).make(named: "gstpipe-record-queue", in: bin)
        let parser = try ElementSpec("h264parse").make(in: bin)
        try upstream.link(to: queue)
        try queue.link(to: parser)
        try parser.link(sourcePad: "src", to: sink, sinkPad: "video")
    }

    /// Takes a bus message: a file finished (`splitmuxsink-fragment-closed`) is renamed and retention
    /// runs. Returns the failure message when `message` is an error of the recording's, which ends the run.
    func handle(_ message: Message) -> String? {
        switch message {
        case .element(let source, let structure) where source == sink.name:
            if structure.name == "splitmuxsink-fragment-closed", let location = structure.string("location") {
                close(location, endRunningTime: structure.uint64("running-time").map { ClockTime($0) })
            }
            return nil
        case .error(let error) where isRecording(error.source):
            let open = state.withLock { $0.open.values.map(\.path).sorted().first }
            let what = open.map { " \($0)" } ?? ""
            var reason = error.message.hasSuffix(".") ? String(error.message.dropLast()) : error.message
            if let debug = error.debug, let detail = debug.split(separator: "\n").dropFirst().first {
                reason += " (\(detail))"
            }
            let text =
                "recording\(what) failed: \(reason); the run ends (finished recordings are kept, the file being "
                + "written stays under its .partial name)"
            events.send(.failed(message: text))
            return text
        default:
            return nil
        }
    }

    private func isRecording(_ source: String?) -> Bool {
        guard let source else { return false }
        if source == sink.name || state.withLock({ $0.made.contains(source) }) { return true }
        // The muxers and file sinks splitmuxsink makes are inside it.
        return (sink as? Bin)?.children.contains { $0.name == source } ?? false
    }

    /// At end of stream, every file's muxer has finished it: those whose closing message has not come
    /// yet are renamed now.
    func finishAtEnd() {
        for partial in state.withLock({ Array($0.open.keys) }) where FileManager.default.fileExists(atPath: partial) {
            close(partial, endRunningTime: nil)
        }
    }

    /// A file is whole: its creation time written, renamed to its name, said, and retention run.
    private func close(_ partial: String, endRunningTime: ClockTime?) {
        guard let file = state.withLock({ $0.open.removeValue(forKey: partial) }) else { return }
        if settings.pattern.container == "mp4" {
            // To the second, as the name says it (MP4 keeps seconds).
            let seconds = file.start.timeIntervalSince1970.rounded(.down) + 2_082_844_800
            let header = MovieHeader(creationTime: UInt64(seconds))
            try? MovieHeader.write(header, to: partial)
            try? FragmentedMP4.addEditList(fileAt: partial)
        } else {
            _ = try? MatroskaMetadata.repair(fileAt: partial, creationDate: file.start)
        }
        guard rename(partial, file.path) == 0 else {
            note("recording: cannot rename \(partial) to \(file.path): \(String(cString: strerror(errno)))")
            return
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int64) ?? 0
        let duration = endRunningTime.map { $0 > file.runningTime ? Double($0 - file.runningTime) / 1e9 : 0 } ?? 0
        events.send(.written(path: file.path, start: file.start, duration: duration, bytes: bytes))
        prune()
    }

    /// How often retention runs between files.
    static let pruningPeriod: Duration = .seconds(2)

    /// Runs retention every `period` until the task is cancelled, as well as at each file's close: with
    /// segments of an hour, a file past `--record-keep` would otherwise stay until the next one closed.
    /// Nil when neither `--record-keep` nor `--record-max-size` is given.
    func keepPruning(every period: Duration = pruningPeriod) -> Task<Void, Never>? {
        guard settings.keepSeconds != nil || settings.maxBytes != nil else { return nil }
        return Task.detached { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: period)
                guard !Task.isCancelled, let self else { return }
                self.prune()
            }
        }
    }

    /// Deletes what retention no longer keeps, each deletion said once. A file's close and the clock
    /// may run it at once, without a lock: both read the folder, and a file is deleted by one unlink,
    /// which succeeds for one of them only (the other counts the file gone and deletes no more).
    private func prune() {
        for path in retention.apply(now: Date()) { events.send(.deleted(path: path)) }
    }
}
