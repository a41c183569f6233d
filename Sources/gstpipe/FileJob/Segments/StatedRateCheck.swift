import GstPipeSupport
import MediaIO
import Synchronization

/// Whether a file's video keeps to the frame rate its container states, judged from a few windows of
/// its frames spread over the file (demuxer and parser, no decoder), for plan-segments: a recording
/// may keep to it for its first seconds and turn variable later. Reading every frame's time instead
/// made plan-segments on a two-hour 320x240 MP4 take 5.8 to 8.1 s (debug build, loaded machine), 0.6 s
/// with these windows, 0.3 to 0.5 s without a check. A variable stretch between two windows goes unseen.
enum StatedRateCheck {
    /// How many windows are read, the first at the file's start, one every `duration / windows`.
    static let windows: ClockTime = 8

    /// How much of the file one window reads, from the key frame before its start.
    static let window: ClockTime = 3_000_000_000

    /// True when every window's frames are consecutive frames of `times`' stated rate; false when one
    /// is not, or cannot be read.
    static func holds(_ times: MediaTimes, path: String, duration: ClockTime) async -> Bool {
        for index in 0..<windows {
            let start = duration / windows * index
            let read = Locked<[ClockTime]>([])
            let parsed = await VideoPackets.read(path, from: start, to: start + window) { time, _ in
                read.withLock { $0.append(time) }
            }
            guard parsed, times.isEveryFrame(FramesAroundStart.presented(read.withLock { $0 })) else { return false }
        }
        return true
    }
}
