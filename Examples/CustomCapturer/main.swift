// CustomCapturer: a white-noise capturer in the style of the classic custom-capturer sample. It sets
// up an ARGB format the way `initCapture` does, produces frames on its own timer at its frame rate
// (push mode), hands them to the consumer, and starts and stops with the element's lifecycle.
// It feeds a pipeline that encodes to a file, or shows a window with `--display`.
//
//   swift run CustomCapturer [--frames 90] [--out /tmp/custom-capturer.mkv] [--display]
import Foundation
import MediaIO
import Synchronization

final class NoiseCapturer: VideoSource {
    private struct Capture {
        var consumer: (any VideoFrameConsumer)?
        /// Which start the capture thread belongs to; a stop or a new start ends the old thread.
        var generation = 0
        var running = false
        var captured = 0
    }
    private let capture = Mutex(Capture())
    private let format: VideoFrameFormat
    private let frameLimit: Int

    /// `initCapture`: the format this capturer produces.
    init(width: Int, height: Int, frameRate: Int, frames: Int) {
        format = VideoFrameFormat(
            pixelFormat: .argb, width: width, height: height, frameRate: VideoFrameRate(frameRate))
        frameLimit = frames
    }

    var bufferType: VideoBufferType { .rawData }

    func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        print("capturer: shouldInitialize")
        capture.withLock { $0.consumer = consumer }
        return true
    }

    func shouldStart() {
        print("capturer: shouldStart")
        let generation = capture.withLock { state -> Int in
            state.generation += 1
            state.running = true
            return state.generation
        }
        // The capturer's own clock: a thread ticking at the frame rate.
        let interval = Duration.nanoseconds(Int64(format.frameRate.frameDuration ?? 33_333_333))
        Thread.detachNewThread { [self] in
            let clock = ContinuousClock()
            var deadline = clock.now
            while capture.withLock({ $0.running && $0.generation == generation }) {
                captureFrame()
                deadline += interval
                let wait = (deadline - clock.now).components
                Thread.sleep(forTimeInterval: max(0, Double(wait.seconds) + Double(wait.attoseconds) / 1e18))
            }
        }
    }

    func shouldStop() {
        print("capturer: shouldStop")
        // Stop without waiting: a tick blocked in consume returns by itself once the element stops.
        capture.withLock { $0.running = false }
    }

    func shouldDispose() {
        print("capturer: shouldDispose")
        capture.withLock { $0.consumer = nil }
    }

    private func captureFrame() {
        guard
            let (consumer, index) = capture.withLock({ state -> ((any VideoFrameConsumer), Int)? in
                guard let consumer = state.consumer, state.running else { return nil }
                defer { state.captured += 1 }
                return (consumer, state.captured)
            })
        else { return }
        if index >= frameLimit {
            consumer.endOfStream()
            capture.withLock { $0.running = false }
            return
        }
        // White noise with random alpha, as in the classic sample: a tightly packed ARGB frame.
        var pixels = [UInt8](repeating: 0, count: format.width * format.height * 4)
        var generator = SystemRandomNumberGenerator()
        pixels.withUnsafeMutableBytes { bytes in
            for offset in stride(from: 0, to: bytes.count, by: 8) {
                bytes.storeBytes(of: generator.next() as UInt64, toByteOffset: offset, as: UInt64.self)
            }
        }
        pixels.withUnsafeBytes { bytes in
            _ = consumer.consumeRawData(
                bytes, timestamp: format.frameRate.timestamp(ofFrame: index), format: format, rotation: .none)
        }
    }
}

let arguments = CommandLine.arguments
func value(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let frames = Int(value("--frames") ?? "") ?? 90
let output = value("--out") ?? "/tmp/custom-capturer.mkv"
let display = arguments.contains("--display")

try MediaIOElements.registerSource(
    name: "noisecapturer", longName: "Noise capturer", description: "Example capturer", formats: [.argb]
) { _ in NoiseCapturer(width: 320, height: 240, frameRate: 30, frames: frames) }

let sink = display ? "autovideosink" : "x264enc ! matroskamux ! filesink location=\(output)"
let pipeline = try Pipeline(launch: "noisecapturer ! videoconvert ! \(sink)")
try await pipeline.run()

if !display {
    // Check the file: decode it again and count its frames.
    let check = try Pipeline(
        launch: "filesrc location=\(output) ! matroskademux ! avdec_h264 ! appsink name=out sync=false")
    let decoded = try check.frames(fromAppSink: "out")
    try check.play()
    var count = 0
    for try await _ in decoded { count += 1 }
    check.stop()
    print("wrote \(output): \(count) frames decoded back")
    guard count == frames else {
        print("FAILED: expected \(frames) frames")
        exit(1)
    }
}
