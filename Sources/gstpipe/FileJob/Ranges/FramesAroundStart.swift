import Foundation
import GstPipeSupport
import MediaIO
import Synchronization

/// The video frames' timestamps on either side of a range's start, for a file without a frame rate
/// (variable rate: a WebM recording, a phone's MP4), where no nominal rate tells where frames are.
/// ffmpeg's `-ss S` keeps the first frame at or after S and drops the one before, even when that one
/// is still on screen at S; GStreamer's decoders clip that earlier frame to start at S instead, and
/// without its timestamp RangeCut cannot tell it from a frame of the file's own.
///
/// Read by parsing the video (demuxer and parser, no decoder) from an accurate seek to the start, which
/// begins at the key frame before it, over a `window` of the file: a few seconds of packets, read in
/// milliseconds, not the file from its beginning. Only when no frame comes in the window (a gap in a
/// recording) is the rest of the file read.
enum FramesAroundStart {
    /// The last frame before the start, and the first at or after it, in stream time.
    struct Frames: Sendable, Equatable {
        var before: ClockTime?
        var first: ClockTime?
        /// Every frame's timestamp read (the first `sampleLimit`), to tell a variable rate from a
        /// nominal one: a demuxer may give a rate it guessed (qtdemux's nearest usual one, Matroska's
        /// default duration) for frames that are not on its grid.
        var sample: [ClockTime] = []

        /// `sample` in presentation order, without its last `reorderDepth` frames: packets come in
        /// decoding order, so B-frames shown before the last packets read may not have come yet.
        var presented: [ClockTime] { FramesAroundStart.presented(sample) }
    }

    /// Packets' timestamps read in decoding order, sorted, without the last `reorderDepth`: B-frames
    /// shown before the last packets read may not have come yet.
    static func presented(_ times: [ClockTime]) -> [ClockTime] {
        let sorted = times.sorted()
        return sorted.count > 2 * reorderDepth ? Array(sorted.dropLast(reorderDepth)) : sorted
    }

    /// The most frames a decoder holds back to reorder them (H.264's and HEVC's largest buffer).
    static let reorderDepth = 16

    /// How far before the start a frame still counts as at it: ffmpeg rounds the start to the
    /// stream's time base, and GStreamer's nanoseconds round a timestamp down (1.203507 s, as ffprobe
    /// prints a frame at 69322/57600 s, is 56 ns after it).
    static let tolerance: ClockTime = 1_000

    /// How many timestamps `sample` keeps.
    static let sampleLimit = 200

    /// How much of the file past the start is read first.
    static let window: ClockTime = 5_000_000_000

    /// The frames around `start` in the first video stream of `path`; nil when it has none, has no frame
    /// at or after `start`, or cannot be parsed.
    static func read(_ path: String, start: ClockTime) async -> Frames? {
        if let frames = await read(path, start: start, stop: start + window), frames.first != nil { return frames }
        guard let frames = await read(path, start: start, stop: nil), frames.first != nil else { return nil }
        return frames
    }

    private static func read(_ path: String, start: ClockTime, stop: ClockTime?) async -> Frames? {
        let frames = Locked(Frames())
        let parsed = await VideoPackets.read(path, from: start, to: stop) { time, _ in
            // Packets come in decoding order: B-frames' timestamps go back and forth.
            frames.withLock { frames in
                if frames.sample.count < sampleLimit { frames.sample.append(time) }
                if time + tolerance >= start {
                    frames.first = min(frames.first ?? time, time)
                } else {
                    frames.before = max(frames.before ?? time, time)
                }
            }
        }
        return parsed ? frames.withLock { $0 } : nil
    }
}
