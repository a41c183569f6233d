// A Swift video source served to browsers (WHEP), and a browser's camera into a Swift sink (WHIP).

// snippet.types
import Foundation
import GstPipeWebRTC
import MediaIO
import Synchronization

/// A pull-mode source: a gray ramp that moves, 30 frames a second.
final class Ramp: VideoSource {
    private let state = Mutex<(consumer: (any VideoFrameConsumer)?, index: Int)>((nil, 0))

    func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        state.withLock { $0.consumer = consumer }
        return true
    }
    func shouldStart() {}
    func shouldStop() {}
    func shouldDispose() { state.withLock { $0.consumer = nil } }

    func produceFrame() {
        let (consumer, index) = state.withLock { state in
            defer { state.index += 1 }
            return (state.consumer, state.index)
        }
        let format = VideoFrameFormat(pixelFormat: .gray8, width: 320, height: 240, frameRate: VideoFrameRate(30))
        guard let consumer,
            let frame = try? consumer.makeFrame(
                format: format, timestamp: format.frameRate.timestamp(ofFrame: index),
                duration: format.frameRate.frameDuration)
        else { return }
        try? frame.withMutablePlanes { planes in
            for row in 0..<planes[0].rows {
                let pixels = planes[0].row(row)
                for x in 0..<320 { pixels[x] = UInt8((x + index * 4) & 0xFF) }
            }
        }
        consumer.consume(frame)
    }
}

/// A sink that counts the browser's frames.
final class Counter: VideoSink {
    let frames = Mutex(0)
    var pixelFormat: VideoPixelFormat { .i420 }
    func shouldStart() {}
    func shouldStop() {}
    func shouldDispose() {}
    func render(_ frame: VideoFrame) throws { frames.withLock { $0 += 1 } }
}
// snippet.end

// snippet.serve
let viewers = try await BrowserViewers.serve(video: Ramp(), at: "webrtc://127.0.0.1:8890/live")
print("watch at \(viewers.pageURL)")  // http://127.0.0.1:8890/live, or any WHEP player at .../live/whep
// snippet.end

// snippet.receive
let counter = Counter()
let publisher = try await BrowserPublisher.receive(at: "webrtc://127.0.0.1:8891/in", video: counter)
print("publish at \(publisher.pageURL)")  // the page sends the camera; OBS and WHIP clients use .../in/whip
// snippet.end

// snippet.hide
// Run by CI: both pages answer, then everything closes.
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
for page in [viewers.pageURL, publisher.pageURL] {
    let (_, response) = try await URLSession.shared.data(from: URL(string: page)!)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
        print("FAILED: \(page) did not answer 200")
        exit(1)
    }
}
publisher.close()
viewers.close()
print("both pages answered")
