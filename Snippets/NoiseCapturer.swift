// The classic custom capturer, white noise from its own timer, as a MediaIO video source.

// snippet.format
import Foundation
import MediaIO
import Synchronization

final class NoiseCapturer: VideoSource {
    // What `initCapture` set up in the classic sample: one fixed format.
    let format = VideoFrameFormat(pixelFormat: .argb, width: 320, height: 240, frameRate: VideoFrameRate(30))
    let frameLimit: Int
    private let state = Mutex<(consumer: (any VideoFrameConsumer)?, running: Bool, captured: Int)>((nil, false, 0))

    init(frames: Int) { frameLimit = frames }

    // Frames are handed over as tightly packed bytes (`consumeRawData`), not as pooled buffers.
    var bufferType: VideoBufferType { .rawData }
    // snippet.end

    // snippet.initialize
    func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        state.withLock { $0.consumer = consumer }
        return true
    }
    // snippet.end

    // snippet.start
    func shouldStart() {
        state.withLock { $0.running = true }
        let interval = 1.0 / Double(format.frameRate.numerator)
        Thread.detachNewThread { [self] in
            while state.withLock({ $0.running }) {
                captureFrame()
                Thread.sleep(forTimeInterval: interval)
            }
        }
    }
    // snippet.end

    // snippet.capture
    private func captureFrame() {
        guard
            let (consumer, index) = state.withLock({ state -> ((any VideoFrameConsumer), Int)? in
                guard let consumer = state.consumer, state.running else { return nil }
                defer { state.captured += 1 }
                return (consumer, state.captured)
            })
        else { return }
        guard index < frameLimit else {
            consumer.endOfStream()
            state.withLock { $0.running = false }
            return
        }
        // Random 64-bit words, two ARGB pixels each: a byte at a time would be eight times the calls.
        var generator = SystemRandomNumberGenerator()
        let pixels = (0..<format.width * format.height / 2).map { _ in generator.next() }
        pixels.withUnsafeBytes { bytes in
            _ = consumer.consumeRawData(
                bytes, timestamp: format.frameRate.timestamp(ofFrame: index), format: format, rotation: .none)
        }
    }
    // snippet.end

    // snippet.stop
    func shouldStop() {
        // Never wait here for the capture thread: a consume in progress returns by itself.
        state.withLock { $0.running = false }
    }

    func shouldDispose() {
        state.withLock { $0.consumer = nil }
    }
}
// snippet.end

// snippet.register
try MediaIOElements.registerSource(
    name: "noisecapturer", longName: "Noise capturer", description: "White noise from its own timer",
    formats: [.argb]
) { _ in NoiseCapturer(frames: 30) }

let pipeline = try Pipeline(launch: "noisecapturer ! videoconvert ! x264enc ! matroskamux ! fakesink")
try await pipeline.run()
// snippet.end
print("captured and encoded 30 frames")
