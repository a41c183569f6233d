// Basic tutorial 8, short-cutting the pipeline: the application generates audio itself and pushes it
// into an appsrc, as appsrc asks (need-data) and until it says stop (enough-data); a tee sends it to
// the sound output, to a waveform drawing, and back to the application through an appsink.
//
//     swift run BasicTutorial8
//
// Checks: every sample generated came back through the appsink, byte for byte, with timestamps from
// the sample counter; appsrc asked for data and said enough at least once each (its queue is bounded);
// the sound and waveform branches got data; the stream ended.
import Foundation
import GStreamer
import Synchronization
import TutorialSupport

let chunkSize = 1024
let sampleRate = 44100
let totalSamples = sampleRate * 3 / 2
let format = try AudioInfo(format: .s16, rate: sampleRate, channels: 1)

/// Sample `n` of the generated sound: a tone that wavers between 300 and 500 Hz, its phase summed
/// from the start, so the waveform keeps moving (the tutorial's "psychedelic" wave).
struct Wave {
    private var phase = 0.0

    mutating func next(_ n: Int) -> Int16 {
        let time = Double(n) / Double(sampleRate)
        let frequency: Double = 400 + 100 * sin(2 * Double.pi * time)
        phase += 2 * .pi * frequency / Double(sampleRate)
        return Int16(8000 * sin(phase))
    }

    /// The `count` samples from sample `first` on, as S16LE bytes.
    mutating func chunk(from first: Int, count: Int) -> [UInt8] {
        (first..<first + count).flatMap { n -> [UInt8] in
            let sample = next(n)
            return [UInt8(truncatingIfNeeded: sample), UInt8(truncatingIfNeeded: sample >> 8)]
        }
    }
}

/// How often appsrc asked for data and said it had enough.
struct Demand {
    var needData = 0
    var enoughData = 0
}

await Tutorial.run {
    let pipeline = try Pipeline(
        launch: "appsrc name=audio_source ! tee name=tee "
            + "tee. ! queue ! audioconvert ! audioresample name=resample ! autoaudiosink "
            + "tee. ! queue ! audioconvert ! wavescope shader=none style=lines ! videoconvert name=csp ! fakesink sync=true "
            + "tee. ! queue ! appsink name=app_sink sync=false")
    let source = try pipeline.appSrc(named: "audio_source")
    let sink = try pipeline.appSink(named: "app_sink")
    source.caps = format.caps
    sink.caps = format.caps
    source.format = .time
    // A bounded queue: 4 chunks, then appsrc says it has enough.
    source.maxBytes = UInt64(4 * chunkSize * 2)

    // The producer is told when to push and when to pause, like the tutorial's idle handler that
    // need-data starts and enough-data stops.
    let demand = Mutex(Demand())
    let wanted = Atomic(false)
    let (wakeUps, wakeUp) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    source.onNeedData { _ in
        demand.withLock { $0.needData += 1 }
        wanted.store(true, ordering: .releasing)
        wakeUp.yield()
    }
    source.onEnoughData {
        demand.withLock { $0.enoughData += 1 }
        wanted.store(false, ordering: .releasing)
    }
    let producer = Task {
        var wave = Wave()
        var generated = 0
        for await _ in wakeUps {
            while wanted.load(ordering: .acquiring), generated < totalSamples {
                let count = min(chunkSize, totalSamples - generated)
                // Timestamps come from the sample counter, never the wall clock: no drift.
                let result = try source.push(
                    bytes: wave.chunk(from: generated, count: count), pts: format.duration(ofSamples: generated),
                    duration: format.duration(ofSamples: generated + count) - format.duration(ofSamples: generated))
                guard result == .ok else { throw Tutorial.Failure(reason: "a push returned \(result)") }
                generated += count
            }
            if generated == totalSamples {
                source.endOfStream()
                wakeUp.finish()
            }
        }
        return generated
    }

    let audioBuffers = try Tutorial.require(pipeline.element(named: "resample")?.pad(named: "src"), "no resample pad")
        .countBuffers()
    let frames = try Tutorial.require(pipeline.element(named: "csp")?.pad(named: "src"), "no videoconvert pad")
        .countBuffers()
    // What comes back through the appsink, read while the pipeline runs.
    let samples = pipeline.samples(from: sink)
    let reader = Task {
        var expected = Wave()
        var received = 0
        for try await sample in samples {
            let buffer = try Tutorial.require(sample.buffer, "a sample without a buffer")
            let count = buffer.size / 2
            try Tutorial.check(
                buffer.pts == format.duration(ofSamples: received),
                "sample \(received) came stamped \(Tutorial.seconds(buffer.pts)), not \(Tutorial.seconds(format.duration(ofSamples: received)))"
            )
            try Tutorial.check(
                buffer.bytes == expected.chunk(from: received, count: count),
                "samples from \(received) on differ from those pushed")
            received += count
        }
        return received
    }
    try await pipeline.run()
    let generated = try await producer.value
    let received = try await reader.value

    let counts = demand.withLock { $0 }
    print("Generated \(generated) samples, \(received) came back through the appsink")
    print("need-data \(counts.needData) times, enough-data \(counts.enoughData) times")
    print("Sound branch: \(audioBuffers.count) buffers; waveform branch: \(frames.count) frames")
    try Tutorial.check(generated == totalSamples, "\(generated) of \(totalSamples) samples were generated")
    try Tutorial.check(received == totalSamples, "\(received) of \(totalSamples) samples came back")
    try Tutorial.check(
        counts.needData >= 1 && counts.enoughData >= 1,
        "appsrc asked \(counts.needData) times and stopped \(counts.enoughData) times")
    try Tutorial.check(
        audioBuffers.count > 0 && frames.count > 0,
        "a branch got nothing (sound \(audioBuffers.count), waveform \(frames.count))")
}
