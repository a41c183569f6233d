import Foundation
import MediaIO
import Synchronization

/// `gstpipe join`: encoded segments (as `gstpipe IN --start S --end E ! DESC ! seg.mp4` writes them)
/// put one after the other into one file without decoding them, and an encoded audio track muxed
/// beside them.
///
/// Each segment is read by `parsebin` (demuxer and parser, whatever the container) into a pad of
/// `concat` requested in the segments' order before anything plays (pads requested as the demuxers
/// expose theirs would come in any order). concat offsets each segment by the running time where the
/// one before ended, so the timestamps go on without a gap or an overlap, whatever edit list a
/// segment's MP4 starts with (`splitmuxsrc`, which offsets by each part's length, doubled two frames
/// at each join of B-frame H.264 in MP4). The file is written beside OUT under a temporary name and
/// renamed at end of stream: on any failure, no OUT is left.
struct SegmentJoin {
    let output: String
    let segments: [String]
    let audio: String?

    /// Checks the paths: OUT's format (a container gstpipe writes video to), every segment and the
    /// audio file readable. Usage errors for what the command line says wrong, runtime ones for files.
    func check() throws(FileJob.Failure) -> OutputFormat {
        guard let format = OutputFormat.forPath(output), format.holdsVideo, !format.isImage, format.muxer != nil
        else {
            throw .usage("cannot join into \(output): name an .mp4, .mov, .mkv or .webm file")
        }
        guard !segments.isEmpty else { throw .usage("join takes the segments after OUT: gstpipe join out.mp4 seg0.mp4 seg1.mp4") }
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
        do {
            let pipeline = try build(muxer: format.muxer!, writing: partial, refusal: refusal)
            try await pipeline.run()
        } catch {
            // A segment refused for its shape: the demuxers' not-linked error that follows it may reach
            // the bus first, and would hide the reason.
            if let refused = refusal.message.withLock({ $0 }) { throw .runtime("cannot join into \(output): \(refused)") }
            let source = error.source.map { "from \($0): " } ?? ""
            throw .runtime("cannot join into \(output): \(source)\(error.message) (are the segments of one encoding?)")
        }
        // rename(2) replaces an existing file in one step (a reader sees the old file or the new one)
        // and refuses to replace a directory.
        if rename(partial, output) != 0 {
            throw .runtime("cannot write \(output): \(String(cString: strerror(errno)))")
        }
    }

    private func build(
        muxer muxerName: String, writing path: String, refusal: Refusal
    ) throws(GStreamerError) -> Pipeline {
        let pipeline = try Pipeline(name: "gstpipe-join")
        let concat = try ElementSpec("concat").make(named: "gstpipe-concat", in: pipeline)
        let muxer = try ElementSpec(muxerName).make(named: "gstpipe-mux", in: pipeline)
        let sink = try ElementSpec("filesink", [("location", .string(path))]).make(named: "gstpipe-output", in: pipeline)
        try muxer.link(to: sink)
        guard let joined = concat.pad(named: "src") else {
            throw GStreamerError(kind: .core, message: "concat has no src pad", source: concat.name)
        }
        try joined.link(to: try muxer.requestPad("video_%u"))
        let shape = Mutex<String?>(nil)
        for (index, segment) in segments.enumerated() {
            let input = try concat.requestPad("sink_%u")
            try read(segment, index: index, in: pipeline, kind: "video/") { pad throws(GStreamerError) in
                // concat and the muxers would take a segment of another size or codec and write a file
                // that changes midway: refused.
                let caps = Self.shape(of: pad.currentCaps ?? pad.queryCaps())
                let first = shape.withLock { first in
                    if first == nil { first = caps }
                    return first!
                }
                guard caps == first else {
                    // A variable-frame-rate input's segments each get the rate their own frames average.
                    let message =
                        "\(segment) is \(caps), the first segment \(first): join takes segments of one size, "
                        + "codec and frame rate (a variable-frame-rate input cannot be joined yet)"
                    refusal.message.withLock { if $0 == nil { $0 = message } }
                    throw GStreamerError(kind: .runtime, message: message, source: nil)
                }
                try pad.link(to: input)
            }
        }
        if let audio {
            // Requested before anything plays: matroskamux refuses a pad once it has written its header.
            let muxerAudio = try muxer.requestPad("audio_%u")
            try read(audio, index: segments.count, in: pipeline, kind: "audio/") { pad throws(GStreamerError) in
                try pad.link(to: muxerAudio)
            }
        }
        return pipeline
    }

    /// What must match between segments: the codec, the picture size and the frame rate.
    private static func shape(of caps: Caps) -> String {
        let fields = caps.description.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let kept = fields.filter { $0.hasPrefix("width=") || $0.hasPrefix("height=") || $0.hasPrefix("framerate=") }
        return ([caps.mediaType ?? "?"] + kept).joined(separator: ", ")
    }

    /// filesrc and parsebin for `path`; `link` gets its first stream of `kind` ("video/", "audio/"),
    /// on the streaming thread that found it. Streams of other kinds stay unlinked: demuxers go on
    /// while one of their streams is linked.
    private func read(
        _ path: String, index: Int, in pipeline: Pipeline, kind: String,
        link: @escaping @Sendable (Pad) throws(GStreamerError) -> Void
    ) throws(GStreamerError) {
        let source = try ElementSpec("filesrc", [("location", .string(path))]).make(
            named: "gstpipe-segment\(index)", in: pipeline)
        let parser = try ElementSpec("parsebin").make(named: "gstpipe-parse\(index)", in: pipeline)
        try source.link(to: parser)
        let linked = Mutex(false)
        parser.onPadAdded { [weak parser] pad in
            guard (pad.currentCaps ?? pad.queryCaps()).mediaType?.hasPrefix(kind) == true,
                linked.withLock({ done in defer { done = true }; return !done })
            else { return }
            do throws(GStreamerError) {
                try link(pad)
            } catch {
                parser?.postError("cannot join \(path): \(error.message)")
            }
        }
    }

    /// The first segment refused for its shape, kept for the error the run ends with.
    final class Refusal: Sendable {
        let message = Mutex<String?>(nil)
    }
}
