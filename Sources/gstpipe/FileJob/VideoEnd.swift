import Foundation
import MediaIO
import Synchronization

/// Where a file's video ends, in stream time: after its last frame. A container's length is its
/// longest stream's, often the audio's (an AAC track ends a little after the video), and a segment
/// planned past the last frame would hold no picture. Read by parsing the video (demuxer and parser,
/// no decoder) from a seek to `tail` before the container's end, where the demuxer's index lets it
/// start there: the file is read to its end from the start only when no frame comes after that point
/// (a video far shorter than the file), or the file is that short anyway.
enum VideoEnd {
    private struct State {
        var segment: (start: ClockTime, time: ClockTime)?
        var end: ClockTime?
        /// Every frame's timestamp in stream time, in the order the demuxer gives them.
        var times: [ClockTime] = []
    }

    /// How far before the container's end the reading starts: more than any audio outlasts the video.
    static let tail: ClockTime = 10_000_000_000

    /// The end of the first video stream of `path`, nil when it has none or the file cannot be parsed.
    /// With the container's `duration`, only its last `tail` is read when that holds video.
    static func read(_ path: String, duration: ClockTime? = nil) async -> ClockTime? {
        if let duration, duration > 2 * tail, let end = await scan(path, from: duration - tail)?.end { return end }
        return await scan(path, from: nil)?.end
    }

    /// Every video frame's timestamp (stream time, in presentation order) and the video's end, read
    /// from the whole file: a variable-frame-rate input's frames are not where a rate puts them.
    static func frameTimes(_ path: String) async -> (times: [ClockTime], end: ClockTime)? {
        guard let state = await scan(path, from: nil), let end = state.end else { return nil }
        return (state.times.sorted(), end)
    }

    /// The end of the video read from `start` on (RangeCut's seek, which starts from the key frame
    /// before it), or from the beginning without it.
    private static func scan(_ path: String, from start: ClockTime?) async -> State? {
        let state = Mutex(State())
        do {
            let pipeline = try Pipeline(name: "gstpipe-video-end")
            let source = try ElementSpec("filesrc", [("location", .string(path))]).make(in: pipeline)
            let parser = try ElementSpec("parsebin").make(in: pipeline)
            let sink = try ElementSpec("fakesink", [("sync", .text("false"))]).make(in: pipeline)
            try source.link(to: parser)
            guard let input = sink.pad(named: "sink") else { return nil }
            if let start {
                // Added first: what comes before the seek is dropped before the probe below sees it.
                RangeCut.apply(TimeRange(start: start), video: input, audio: [], isVideo: false) { _ in }
            }
            input.addProbe([.buffer, .eventDownstream]) { info in
                if let segment = info.event?.segment {
                    state.withLock { $0.segment = (segment.start, segment.time) }
                } else if let buffer = info.buffer, let pts = buffer.pts {
                    state.withLock { state in
                        guard let segment = state.segment, pts >= segment.start else { return }
                        let time = pts - segment.start + segment.time
                        state.times.append(time)
                        state.end = max(state.end ?? 0, time + (buffer.duration ?? 0))
                    }
                }
                return .ok
            }
            let linked = Mutex(false)
            parser.onPadAdded { pad in
                // Motion JPEG leaves parsebin as image/jpeg.
                let type = (pad.currentCaps ?? pad.queryCaps()).mediaType ?? ""
                guard type.hasPrefix("video/") || type == "image/jpeg",
                    linked.withLock({ done in defer { done = true }; return !done })
                else { return }
                try? pad.link(to: input)
            }
            try await pipeline.run()
        } catch {
            return nil
        }
        return state.withLock { $0 }
    }
}
