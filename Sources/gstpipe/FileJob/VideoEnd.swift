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
    /// How far before the container's end the reading starts: more than any audio outlasts the video.
    static let tail: ClockTime = 10_000_000_000

    /// The end of the first video stream of `path`, nil when it has none or the file cannot be parsed.
    /// With the container's `duration`, only its last `tail` is read when that holds video.
    static func read(_ path: String, duration: ClockTime? = nil) async -> ClockTime? {
        if let duration, duration > 2 * tail, let end = await read(path, from: duration - tail) { return end }
        return await read(path, from: nil)
    }

    /// The end of the video read from `start` on (RangeCut's seek, which starts from the key frame
    /// before it), or from the beginning without it.
    private static func read(_ path: String, from start: ClockTime?) async -> ClockTime? {
        let end = Mutex<ClockTime?>(nil)
        let parsed = await VideoPackets.read(path, from: start) { time, duration in
            // Only frames from the seek on: the key frame before it says nothing of where the video ends
            // (it may be the last frame of a video far shorter than the file).
            if let start, time < start { return }
            end.withLock { $0 = max($0 ?? 0, time + (duration ?? 0)) }
        }
        return parsed ? end.withLock { $0 } : nil
    }
}
