// Audio sources: a tone in pull mode, and a capturer pushing chunks of any size from its own thread.

// snippet.pull
import Foundation
import MediaIO
import Synchronization

/// Pull mode: the element calls `produceAudio` each time it wants the next buffer.
final class Tone: AudioSource {
    private let state = Mutex<(consumer: (any AudioFrameConsumer)?, sample: Int)>((nil, 0))

    func shouldInitialize(consumer: any AudioFrameConsumer) -> Bool {
        // 48 kHz mono S16, in 10 ms buffers: downstream converts from here if it wants something else.
        let format = AudioFormatRequest(formats: [.s16], rate: 48000, channels: 1, samplesPerBuffer: 480)
        guard consumer.negotiate(format) != nil else { return false }
        state.withLock { $0 = (consumer, 0) }
        return true
    }

    func produceAudio() {
        let (consumer, first) = state.withLock { state in
            defer { state.sample += 480 }
            return (state.consumer, state.sample)
        }
        guard first < 48000 else {
            consumer?.endOfStream()
            return
        }  // one second
        let samples = (first..<first + 480).map { Int16(8000 * sin(2 * .pi * 440 * Double($0) / 48000)) }
        consumer?.consumeSamples(samples)
    }
}
// snippet.end

// snippet.push
/// Push mode: a capture thread hands over whatever its device gave, in any size; the consumer cuts it
/// into 480-sample buffers and stamps them from the count of samples, not the wall clock.
final class Capturer: AudioSource {
    private let state = Mutex<(consumer: (any AudioFrameConsumer)?, running: Bool)>((nil, false))

    func shouldInitialize(consumer: any AudioFrameConsumer) -> Bool {
        let format = AudioFormatRequest(formats: [.s16], rate: 48000, channels: 2, samplesPerBuffer: 480)
        guard consumer.negotiate(format) != nil else { return false }
        state.withLock { $0.consumer = consumer }
        return true
    }

    func shouldStart() {
        state.withLock { $0.running = true }
        Thread.detachNewThread { [self] in
            var pushed = 0
            while let consumer = state.withLock({ $0.running ? $0.consumer : nil }) {
                guard pushed < 48000 else {
                    consumer.endOfStream()
                    break
                }
                let frames = min(Int.random(in: 1...800), 48000 - pushed)  // what the device had
                let chunk = [Int16](repeating: 0, count: frames * 2)  // interleaved stereo
                consumer.consumeSamples(chunk)
                pushed += frames
            }
        }
    }

    func shouldStop() { state.withLock { $0.running = false } }
    func shouldDispose() { state.withLock { $0.consumer = nil } }
}
// snippet.end

// snippet.register
// pulled: true, as Tone makes audio only when asked: no appsrc, the element's own task calls produceAudio.
try MediaIOElements.registerAudioSource(name: "tone", longName: "Tone", description: "A 440 Hz tone", pulled: true) {
    _ in Tone()
}
try MediaIOElements.registerAudioSource(name: "capturer", longName: "Capturer", description: "Pushes chunks") { _ in
    Capturer()
}

for source in ["tone", "capturer"] {
    let pipeline = try Pipeline(launch: "\(source) ! appsink name=out sync=false")
    let frames = try pipeline.audioFrames(fromAppSink: "out")
    try pipeline.play()
    var samples = 0
    for try await frame in frames { samples += frame.sampleCount }
    pipeline.stop()
    print("\(source): \(samples) samples")  // 48000 from each: one second
}
// snippet.end
