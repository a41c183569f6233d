import MediaIO

/// What a range is planned on: the input's length and frame rate (`read`, MediaTimes+Reading.swift).
struct MediaTimes: Sendable {
    var duration: ClockTime?
    /// The video's frame rate; nil without video, or when it is variable (0/1).
    var frameRate: Fraction?
    /// Whether the input has a video stream.
    var hasVideo = false
    /// Every frame's timestamp, in order, for a variable rate (`VideoEnd.frameTimes`, read by
    /// plan-segments): its boundaries are the frames themselves. Nil when not read.
    var frameTimes: [ClockTime]?
    /// How far before zero ffmpeg puts the file's start (its start_time), from which it counts `-ss`
    /// and `-to`: Opus in Matroska begins its pre-skip (CodecDelay, in whole milliseconds) before zero.
    var startOffset: ClockTime = 0

    /// Frame `index`'s timestamp at the nominal rate, rounded down as demuxers round theirs; from
    /// `frameTimes` when read (past the last frame, the length).
    func timestamp(ofFrame index: UInt64) -> ClockTime {
        if frameRate == nil, let frameTimes {
            return index < frameTimes.count ? frameTimes[Int(index)] : duration ?? frameTimes.last ?? 0
        }
        guard let rate = frameRate else { return index }
        let scaled = index.multipliedFullWidth(by: UInt64(rate.denominator) * 1_000_000_000)
        return UInt64(rate.numerator).dividingFullWidth(scaled).quotient
    }

    /// The index of the first frame whose timestamp is at or after `time`.
    func frameIndex(atOrAfter time: ClockTime) -> UInt64 {
        if frameRate == nil, let frameTimes {
            // The first frame at or after `time`, by bisection of the sorted times.
            var (low, high) = (0, frameTimes.count)
            while low < high {
                let middle = (low + high) / 2
                if frameTimes[middle] < time { low = middle + 1 } else { high = middle }
            }
            return UInt64(low)
        }
        guard let rate = frameRate else { return 0 }
        let scaled = time.multipliedFullWidth(by: UInt64(rate.numerator))
        let divisor = UInt64(rate.denominator) * 1_000_000_000
        let (quotient, remainder) = divisor.dividingFullWidth(scaled)
        var index = remainder == 0 ? quotient : quotient + 1
        // Rounding down in `timestamp` may put the frame before a time one nanosecond under it.
        while index > 0 && timestamp(ofFrame: index - 1) >= time { index -= 1 }
        return index
    }

    /// The first frame boundary at or after `time`; `time` itself without a frame rate or its
    /// frames' times.
    func frameBoundary(atOrAfter time: ClockTime) -> ClockTime {
        frameRate == nil && frameTimes == nil ? time : timestamp(ofFrame: frameIndex(atOrAfter: time))
    }

    /// Whether `times` (sorted) are consecutive frames at the nominal rate: each on the frame boundary
    /// after the one before, within the millisecond a container such as Matroska rounds to. Frames on
    /// the grid are not enough: a recording that drops to 15 frames a second keeps its frames on a
    /// 30/1 grid, every other boundary without a frame.
    func isEveryFrame(_ times: [ClockTime]) -> Bool {
        guard frameRate != nil, let first = times.first else { return false }
        let firstIndex = frameIndex(atOrAfter: first > 1_000_000 ? first - 1_000_000 : 0)
        for (offset, time) in times.enumerated() {
            let boundary = timestamp(ofFrame: firstIndex + UInt64(offset))
            if max(boundary, time) - min(boundary, time) > 1_000_000 { return false }
        }
        return true
    }

    /// One frame's length at the nominal rate.
    var frameDuration: ClockTime? { frameRate.map { _ in timestamp(ofFrame: 1_000_000) / 1_000_000 } }
}
