import Foundation
import GstPipeSupport
import MediaIO
import Synchronization

/// `gstpipe join`: encoded segments (as `gstpipe IN --start S --end E ! DESC ! seg.mp4` writes them)
/// put one after the other into one file without decoding them, and an encoded audio track muxed
/// beside them.
///
/// Each segment is read by `parsebin` (demuxer and parser, whatever the container; H.264 and H.265
/// from MP4 or Matroska without the parser, which would re-time them: see `isMuxable`) into a pad of
/// `concat` requested in the segments' order before anything plays (pads requested as the demuxers
/// expose theirs would come in any order). concat offsets each segment by the running time where the
/// one before ended, so the timestamps go on without a gap or an overlap, whatever edit list a
/// segment's MP4 starts with (`splitmuxsrc`, which offsets by each part's length, doubled two frames
/// at each join of B-frame H.264 in MP4). The file is written beside OUT under a temporary name and
/// renamed at end of stream: on any failure, no OUT is left.
///
/// With `starts` (each segment's planned start), each segment is placed at its start instead, by an
/// offset on its reader's pad: a variable-frame-rate input's MP4 segment does not say how long its
/// last frame lasts (mp4mux repeats the gap before it), so placed after it the next segment would
/// come early. Such segments' rates differ (each averages its own frames): the joined stream says
/// 0/1, variable.
struct SegmentJoin {
    let output: String
    let segments: [String]
    let audio: String?
    /// Each segment's planned start, in nanoseconds, in order; nil to place each after the one before.
    var starts: [ClockTime]? = nil

    /// Checks the paths: OUT's format (a container gstpipe writes video to), every segment and the
    /// audio file readable. Usage errors for what the command line says wrong, runtime ones for files.
    func check() throws(FileJob.Failure) -> OutputFormat {
        guard let format = OutputFormat.forPath(output), format.holdsVideo, !format.isImage, format.muxer != nil
        else {
            throw .usage("cannot join into \(output): name an .mp4, .mov, .mkv or .webm file")
        }
        guard !segments.isEmpty else {
            throw .usage("join takes the segments after OUT: gstpipe join out.mp4 seg0.mp4 seg1.mp4")
        }
        if let starts {
            guard starts.count == segments.count else {
                throw .usage("--starts gives \(starts.count) starts for \(segments.count) segments: give one a segment")
            }
            guard zip(starts, starts.dropFirst()).allSatisfy({ $0 < $1 }) else {
                throw .usage("--starts must rise, one start a segment in the segments' order")
            }
        }
        for path in segments + (audio.map { [$0] } ?? []) {
            _ = try FileJob.readInput(path)
            if URL(fileURLWithPath: path).standardizedFileURL == URL(fileURLWithPath: output).standardizedFileURL {
                throw .usage("\(output) is also an input of the join: write to another file")
            }
        }
        return format
    }

    /// Joins; throws a runtime failure saying what went wrong, after removing what was written.
    func run() async throws(FileJob.Failure) {
        let format = try check()
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        let folder = outputURL.deletingLastPathComponent()
        let partial = folder.appendingPathComponent(".\(outputURL.lastPathComponent).joining-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: partial) }
        let refusal = Refusal()
        let readers = Readers()
        do {
            let pipeline = try build(muxer: format.muxer!, writing: partial, refusal: refusal, readers: readers)
            defer { readers.end() }
            try await pipeline.run()
        } catch {
            // A segment refused for its shape: the demuxers' not-linked error that follows it may reach
            // the bus first, and would hide the reason.
            if let refused = refusal.message.withLock({ $0 }) {
                throw .runtime("cannot join into \(output): \(refused)")
            }
            let source = error.source.map { "from \($0): " } ?? ""
            throw .runtime("cannot join into \(output): \(source)\(error.message) (are the segments of one encoding?)")
        }
        // rename(2) replaces an existing file in one step (a reader sees the old file or the new one)
        // and refuses to replace a directory.
        if rename(partial, output) != 0 {
            throw .runtime("cannot write \(output): \(String(cString: strerror(errno)))")
        }
    }

    /// The pipeline: each segment's parsebin into `concat`, then the muxer.
    private func build(
        muxer muxerName: String, writing path: String, refusal: Refusal, readers: Readers
    ) throws(GStreamerError) -> Pipeline {
        let pipeline = try Pipeline(name: "gstpipe-join")
        // Placed by their starts, the segments keep their own running times: concat adds none.
        let placed: [(String, ElementSpec.Value)] = starts == nil ? [] : [("adjust-base", .text("false"))]
        let concat = try ElementSpec("concat", placed).make(named: "gstpipe-concat", in: pipeline)
        let muxer = try ElementSpec(muxerName).make(named: "gstpipe-mux", in: pipeline)
        let sink = try ElementSpec("filesink", [("location", .string(path))]).make(
            named: "gstpipe-output", in: pipeline)
        try muxer.link(to: sink)
        guard let joined = concat.pad(named: "src") else {
            throw GStreamerError(kind: .core, message: "concat has no src pad", source: concat.name)
        }
        // Placed segments may each say another rate: capssetter says 0/1 (variable) for all of them,
        // its caps set from the first segment's media type (join=true keeps them to that type).
        let rateSetter = try starts.map { _ throws(GStreamerError) in
            try ElementSpec("capssetter", [("join", .text("true")), ("replace", .text("false"))]).make(
                named: "gstpipe-variable-rate", in: pipeline)
        }
        if let rateSetter {
            try concat.link(to: rateSetter)
            try rateSetter.link(sourcePad: nil, to: muxer, sinkPad: "video_%u")
        } else {
            try joined.link(to: try muxer.requestPad("video_%u"))
        }
        let shapes = ShapeCheck(refusal: refusal, rateSetter: rateSetter)
        // Every pad requested now, in order (sink_0, sink_1...); the readers opened a few at a time.
        for _ in segments { _ = try concat.requestPad("sink_%u") }
        for index in segments.indices.prefix(Self.openAtOnce) {
            readers.add(index, try open(index, in: pipeline, concat: concat, shapes: shapes, readers: readers))
        }
        if let audio {
            // Requested before anything plays: matroskamux refuses a pad once it has written its header.
            let muxerAudio = try muxer.requestPad("audio_%u")
            _ = try read(audio, index: segments.count, in: pipeline, kind: "audio/") { pad throws(GStreamerError) in
                try pad.link(to: muxerAudio)
            }
        }
        return pipeline
    }

    /// How many segments are read at once. Each reader holds a file, a demuxer's thread and its
    /// buffers: with every segment open, 200 segments took 405 threads and 211 file descriptors, so a
    /// day in one-minute segments would pass the usual limit of 1024 descriptors.
    static let openAtOnce = 4

    /// Opens segment `index` into its concat pad. When concat is done with it (its end of stream),
    /// its reader is closed and the segment `openAtOnce` further on opened, on a thread of its own:
    /// an element cannot be stopped from its own streaming thread.
    private func open(
        _ index: Int, in pipeline: Pipeline, concat: Element, shapes: ShapeCheck, readers: Readers
    ) throws(GStreamerError) -> Reader {
        let segment = segments[index]
        guard let input = concat.pad(named: "sink_\(index)") else {
            throw GStreamerError(kind: .core, message: "concat has no pad sink_\(index)", source: concat.name)
        }
        let offset = starts.map { Int64($0[index] - $0[0]) }
        let reader = try read(segment, index: index, in: pipeline, kind: "video/") { pad throws(GStreamerError) in
            try shapes.accept(pad.currentCaps ?? pad.queryCaps(), of: segment)
            // Set before the segment event leaves the pad: the offset moves its running time.
            if let offset { pad.offset = offset }
            // The caps that flow are checked too: those a pad is linked with may still lack a
            // field, and a segment whose caps change midway would reach the muxer.
            pad.addProbe(.eventDownstream) { info in
                guard let caps = info.event?.caps else { return .ok }
                // Refused, the caps go no further: the run then fails, and names the refusal.
                return (try? shapes.accept(caps, of: segment)) == nil ? .drop : .ok
            }
            try pad.link(to: input)
        }
        let next = index + Self.openAtOnce
        guard next < segments.count else { return reader }
        // The pipeline weak and concat looked up by name: the probe belongs to concat's pad, which the
        // pipeline holds (and the wrapper `concat` may be gone by then).
        let concatName = concat.name
        input.addProbe(.eventDownstream) { [weak pipeline] info in
            guard info.event?.typeName == "eos", let pipeline, let concat = pipeline.element(named: concatName)
            else { return .ok }
            Thread {
                readers.close(index, in: pipeline)
                do throws(GStreamerError) {
                    try readers.open(next) { () throws(GStreamerError) -> Reader in
                        let opened = try open(next, in: pipeline, concat: concat, shapes: shapes, readers: readers)
                        // Playing by its own state, not its parent's: see `Readers`.
                        for element in [opened.parser, opened.source] {
                            element.setLockedState(true)
                            _ = try element.setState(.playing)
                        }
                        return opened
                    }
                } catch {
                    pipeline.postError("cannot join \(segments[next]): \(error.message)")
                }
            }.start()
            return .remove
        }
        return reader
    }

    /// A segment's reader: its filesrc and parsebin.
    typealias Reader = (source: Element, parser: Element)

    /// The readers open, by segment index. The first segments end within milliseconds, while the
    /// pipeline is still on its way to PLAYING, and the pipeline's state change then raced the swap: it
    /// set a reader being closed back to PLAYING (GStreamer then disposed it playing), and one being
    /// opened failed to take its parent's state or its demuxer found nothing linked, about one join of
    /// 200 segments in ten under load. So a reader closed or opened after the start has its state locked
    /// against the pipeline's and set alone, and the run's end closes the readers still open.
    final class Readers: Sendable {
        private let state = Locked<(ended: Bool, open: [Int: Reader])>((false, [:]))

        /// Keeps `reader`, one of those opened before the pipeline starts.
        func add(_ index: Int, _ reader: Reader) {
            state.withLock { $0.open[index] = reader }
        }

        /// Opens and keeps the reader `make` gives, unless the run has ended: a segment opened after the
        /// pipeline stopped would play on alone.
        func open(_ index: Int, _ make: () throws(GStreamerError) -> Reader) throws(GStreamerError) {
            try state.withLock { (state) throws(GStreamerError) in
                guard !state.ended else { return }
                state.open[index] = try make()
            }
        }

        /// Stops segment `index`'s reader and takes it out of `pipeline`.
        func close(_ index: Int, in pipeline: Pipeline) {
            guard let reader = state.withLock({ $0.open.removeValue(forKey: index) }) else { return }
            Self.stop(reader)
            try? pipeline.remove(reader.source, reader.parser)
        }

        /// Ends the run's readers: those still open are stopped, and none opens after.
        func end() {
            let left = state.withLock { state in
                state.ended = true
                defer { state.open = [:] }
                return Array(state.open.values)
            }
            left.forEach(Self.stop)
        }

        private static func stop(_ reader: Reader) {
            for element in [reader.parser, reader.source] {
                element.setLockedState(true)
                _ = try? element.setState(.null)
            }
        }
    }

    /// What must match between segments: the codec, the picture size and, unless `rateSetter` makes
    /// the rate variable, the frame rate. The first caps seen set the shape; a segment of another is
    /// refused, the reason kept in `refusal` before any error it causes can reach the bus.
    final class ShapeCheck: Sendable {
        private let refusal: Refusal
        private let rateSetter: Element?
        private let first = Locked<String?>(nil)

        init(refusal: Refusal, rateSetter: Element?) {
            self.refusal = refusal
            self.rateSetter = rateSetter
        }

        /// Takes the first caps seen as the shape; throws naming the difference for caps of another.
        func accept(_ caps: Caps, of segment: String) throws(GStreamerError) {
            let fields = caps.description.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let kept = fields.filter { field in
                field.hasPrefix("width=") || field.hasPrefix("height=")
                    || (rateSetter == nil && field.hasPrefix("framerate="))
            }
            let shape = ([caps.mediaType ?? "?"] + kept).joined(separator: ", ")
            let (isFirst, expected) = first.withLock { first in
                if first == nil {
                    first = shape
                    return (true, shape)
                }
                return (false, first!)
            }
            if isFirst, let rateSetter, let type = caps.mediaType {
                try rateSetter.set("caps", fromString: "\(type), framerate=(fraction)0/1")
            }
            guard shape == expected else {
                // A variable-frame-rate input's segments each get the rate their own frames average.
                let message =
                    "\(segment) is \(shape), the first segment \(expected): join takes segments of one size, "
                    + "codec and frame rate (give --starts, plan-segments' START of each, to join a "
                    + "variable-frame-rate input's segments)"
                refusal.message.withLock { if $0 == nil { $0 = message } }
                throw GStreamerError(kind: .runtime, message: message, source: nil)
            }
        }
    }

    /// filesrc and parsebin for `path`; `link` gets its first stream of `kind` ("video/", "audio/"),
    /// on the streaming thread that found it. Streams of other kinds stay unlinked: demuxers go on
    /// while one of their streams is linked.
    private func read(
        _ path: String, index: Int, in pipeline: Pipeline, kind: String,
        link: @escaping @Sendable (Pad) throws(GStreamerError) -> Void
    ) throws(GStreamerError) -> Reader {
        let source = try ElementSpec("filesrc", [("location", .string(path))]).make(
            named: "gstpipe-segment\(index)", in: pipeline)
        let parser = try ElementSpec("parsebin").make(named: "gstpipe-parse\(index)", in: pipeline)
        try source.link(to: parser)
        try parser.connectReturning("autoplug-continue") { arguments in
            .bool(!(arguments.count > 1 && arguments[1].caps.map(Self.isMuxable) == true))
        }
        let linked = Locked(false)
        parser.onPadAdded { [weak parser] pad in
            guard (pad.currentCaps ?? pad.queryCaps()).mediaType?.hasPrefix(kind) == true,
                linked.withLock({ done in
                    defer { done = true }
                    return !done
                })
            else { return }
            do throws(GStreamerError) {
                try link(pad)
            } catch {
                parser?.postError("cannot join \(path): \(error.message)")
            }
        }
        return (source, parser)
    }

    /// True for H.264 or H.265 as MP4 and Matroska demuxers give it (length-prefixed access units),
    /// which mp4mux and matroskamux take as it is: parsebin exposes it without its parser. The parser
    /// would time each buffer by the rate the stream's VUI states, not keep the demuxer's: for a
    /// variable-rate stream x264 states a tick of its time base (1 ns, a rate of 1000000000/1), so every
    /// duration became 1 ns, mp4mux wrote 0 for the last frame's (ffprobe then dropped that frame) and,
    /// the rate being in the caps, a time base of 1e11 ns mod 2^32.
    static func isMuxable(_ caps: Caps) -> Bool {
        guard let type = caps.mediaType, type == "video/x-h264" || type == "video/x-h265",
            let format = caps.string("stream-format"), ["avc", "avc3", "hvc1", "hev1"].contains(format)
        else { return false }
        return caps.string("alignment") == "au"
    }

    /// The first segment refused for its shape, kept for the error the run ends with.
    final class Refusal: Sendable {
        let message = Locked<String?>(nil)
    }
}
