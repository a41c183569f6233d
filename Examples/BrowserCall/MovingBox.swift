import Foundation
import MediaIO
import Synchronization

/// The call's processing, as a pair of MediaIO objects: `MovingBox` renders the browser's camera
/// (a VideoSink, fed by `BrowserPublisher`), turns each frame gray and draws a red box that moves
/// across it, and hands the result to `ProcessedFeed` (a push-mode VideoSource, served by
/// `BrowserViewers`), as a custom renderer and a custom capturer of a call SDK would be joined.
final class MovingBox: VideoSink {
    /// The box's colour in BT.601 YUV: pure red.
    static let red: (y: UInt8, u: UInt8, v: UInt8) = (81, 90, 240)

    private let feed: ProcessedFeed
    private let count = Mutex(0)

    init(feed: ProcessedFeed) {
        self.feed = feed
    }

    var pixelFormat: VideoPixelFormat { .i420 }

    /// Frames processed so far.
    var processed: Int { count.withLock { $0 } }

    func render(_ frame: VideoFrame) throws {
        let index = count.withLock { count in
            count += 1
            return count
        }
        let (width, height) = (frame.format.width, frame.format.height)
        // A quarter of the picture each way, moving right by 1% of the width a frame.
        let (boxWidth, boxHeight) = (width / 4, height / 4)
        let left = (index * max(1, width / 100)) % max(1, width - boxWidth)
        let top = (height - boxHeight) / 2
        try feed.send(like: frame) { planes in
            try frame.withPlanes { input in
                for row in 0..<height {
                    let source = input[0].row(row)
                    let target = planes[0].row(row)
                    for column in 0..<width { target[column] = source[column] }
                    if (top..<top + boxHeight).contains(row) {
                        for column in left..<left + boxWidth { target[column] = Self.red.y }
                    }
                }
            }
            // Chroma: neutral (gray) everywhere, red inside the box (half the rows and columns in I420).
            for (plane, value) in [(planes[1], Self.red.u), (planes[2], Self.red.v)] {
                for row in 0..<plane.rows {
                    let target = plane.row(row)
                    for column in 0..<target.count { target[column] = 128 }
                    if (top / 2..<(top + boxHeight) / 2).contains(row) {
                        for column in left / 2..<min(target.count, (left + boxWidth) / 2) { target[column] = value }
                    }
                }
            }
        }
    }
}

/// The processed frames as a source: push mode, each frame handed on as `MovingBox` makes it,
/// stamped by the time since the first.
final class ProcessedFeed: VideoSource {
    private struct State {
        var consumer: (any VideoFrameConsumer)?
        var start: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        state.withLock { $0.consumer = consumer }
        return true
    }

    func shouldStart() {}
    func shouldStop() {}

    func shouldDispose() {
        state.withLock { $0.consumer = nil }
    }

    /// Makes a frame the size of `frame`, lets `fill` write its planes, and hands it on.
    func send(like frame: VideoFrame, fill: ([MutableVideoPlane]) throws -> Void) throws {
        let (consumer, elapsed) = state.withLock { state -> ((any VideoFrameConsumer)?, Duration) in
            let now = ContinuousClock.now
            if state.start == nil { state.start = now }
            return (state.consumer, now - state.start!)
        }
        guard let consumer else { return }
        let format = VideoFrameFormat(pixelFormat: .i420, width: frame.format.width, height: frame.format.height)
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        let output = try consumer.makeFrame(format: format, timestamp: ClockTime(nanoseconds), duration: nil)
        try output.withMutablePlanes(fill)
        consumer.consume(output)
    }
}
