import Foundation
import GstPipeSupport
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

    /// The frames read from `start` on (RangeCut's seek, which starts from the key frame before it), or
    /// from the beginning without it.
    private static func scan(_ path: String, from start: ClockTime?) async -> State? {
        let state = Locked(State())
        let parsed = await VideoPackets.read(path, from: start) { time, duration in
            // Only frames from the seek on: the key frame before it says nothing of where the video ends
            // (it may be the last frame of a video far shorter than the file).
            if let start, time < start { return }
            state.withLock { state in
                state.times.append(time)
                state.end = max(state.end ?? 0, time + (duration ?? 0))
            }
        }
        return parsed ? state.withLock { $0 } : nil
    }
}
