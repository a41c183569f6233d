import Foundation
import MediaIO

/// A file's range cut into segments of about the same length, each starting and ending on a frame
/// boundary, for `gstpipe plan-segments`: every segment is re-encoded on its own (so it may start
/// anywhere), and `gstpipe join` puts them back together.
struct SegmentPlan: Sendable {
    /// One segment: the frames whose timestamps are in [start, end).
    struct Segment: Sendable, Equatable {
        var index: Int
        var start, end: ClockTime
        var frames: UInt64
    }

    let input: String
    let times: MediaTimes
    let segments: [Segment]

    /// Plans `range` (already on frame boundaries, `TimeRangeRequest.resolve`) of `input` in segments
    /// of `length` nanoseconds; the last one ends with the range, and may be shorter.
    init(input: String, times: MediaTimes, range: TimeRange, length: ClockTime) {
        self.input = input
        self.times = times
        // An --end or --duration past the file's end plans to its end: no segment holds nothing.
        let end = min(range.end ?? times.duration ?? range.start, times.duration ?? .max)
        var segments: [Segment] = []
        // A range cut on its frames' own times seeks 1 ns before its first frame (`resolve`): the plan
        // starts on the frame, where the segment's own run will resolve its start to.
        var start = range.firstFrame ?? range.start
        while start < end {
            var next = min(times.frameBoundary(atOrAfter: start + length), end)
            // A length under one frame still moves on by a frame.
            if next <= start { next = min(times.frameBoundary(atOrAfter: start + 1), end) }
            let counted = times.frameRate != nil || times.frameTimes != nil
            let frames = counted ? times.frameIndex(atOrAfter: next) - times.frameIndex(atOrAfter: start) : 0
            segments.append(Segment(index: segments.count, start: start, end: next, frames: frames))
            start = next
        }
        self.segments = segments
    }

    /// One line a segment: `INDEX START END FRAMES`, times in seconds with 9 decimals.
    var text: String {
        segments.map {
            "\($0.index) \(TimeRangeRequest.seconds($0.start)) \(TimeRangeRequest.seconds($0.end)) \($0.frames)\n"
        }.joined()
    }

    /// The plan as JSON: input, frame rate ("30000/1001", null without video), the input's length in
    /// nanoseconds, and the segments with their times in nanoseconds and as text.
    var json: String {
        struct Entry: Encodable {
            let index: Int
            let startNs, endNs: UInt64
            let start, end: String
            let frames: UInt64
        }
        struct Plan: Encodable {
            let input: String
            let frameRate: String?
            let durationNs: UInt64?
            let segments: [Entry]

            func encode(to encoder: any Encoder) throws {
                // Written out so that a missing rate or length is null, not left out.
                enum Keys: String, CodingKey { case input, frameRate, durationNs, segments }
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(input, forKey: .input)
                try container.encode(frameRate, forKey: .frameRate)
                try container.encode(durationNs, forKey: .durationNs)
                try container.encode(segments, forKey: .segments)
            }
        }
        let plan = Plan(
            input: input, frameRate: times.frameRate?.description, durationNs: times.duration,
            segments: segments.map {
                Entry(
                    index: $0.index, startNs: $0.start, endNs: $0.end, start: TimeRangeRequest.seconds($0.start),
                    end: TimeRangeRequest.seconds($0.end), frames: $0.frames)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(plan)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
