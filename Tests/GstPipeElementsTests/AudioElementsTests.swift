import Foundation
import GstPipeElements
import MediaIO
import Testing

/// Runs `description` (ending in `appsink name=out`) to its end and gives every frame.
func captureAudio(_ description: String) async throws -> [AudioFrame] {
    try GstPipeElements.register()
    let pipeline = try Pipeline(launch: description)
    let frames = try pipeline.audioFrames(fromAppSink: "out", capacity: 16)
    try pipeline.play()
    var captured: [AudioFrame] = []
    for try await frame in frames { captured.append(frame) }
    pipeline.stop()
    return captured
}

/// Every sample of `frames` as a Double in interleaved order (U8 centred on 0).
func values(_ frames: [AudioFrame]) throws -> [Double] {
    try frames.flatMap { frame -> [Double] in
        switch frame.info.format {
        case .s16: try frame.interleavedSamples(as: Int16.self).map(Double.init)
        case .s32: try frame.interleavedSamples(as: Int32.self).map(Double.init)
        case .f32: try frame.interleavedSamples(as: Float.self).map(Double.init)
        case .f64: try frame.interleavedSamples(as: Double.self)
        case .u8: try frame.interleavedSamples(as: UInt8.self).map { Double($0) - 128 }
        }
    }
}

/// One step of `format`: the difference between neighbouring values.
func step(_ format: AudioSampleFormat) -> Double {
    switch format {
    case .s16, .s32, .u8: 1
    case .f32: 1.0 / 8_388_608
    case .f64: 1.0 / 4_503_599_627_370_496
    }
}

/// Full scale of `format` in the units `values` gives.
func fullScale(_ format: AudioSampleFormat) -> Double {
    switch format {
    case .s16: 32768
    case .s32: 2_147_483_648
    case .u8: 128
    case .f32, .f64: 1
    }
}

@Suite("audionoise: white noise in every format, seeded, bounded, uniform, independent per channel", .bounded)
struct AudioNoiseTests {
    @Test(
        "Every sample format: the buffers, sizes and times asked for, samples within the amplitude",
        arguments: AudioSampleFormat.allCases)
    func formats(format: AudioSampleFormat) async throws {
        let frames = try await captureAudio(
            "audionoise num-buffers=5 samplesperbuffer=441 amplitude=0.5 seed=3 ! audio/x-raw,format=\(format.gstreamerName),rate=44100,channels=3 "
                + "! appsink name=out sync=false")
        #expect(frames.count == 5)
        #expect(
            frames.allSatisfy {
                $0.sampleCount == 441 && $0.info.channels == 3 && $0.info.rate == 44100 && $0.info.format == format
            })
        #expect(frames.map(\.timestamp) == (0..<5).map { UInt64($0) * 10_000_000 })
        let samples = try values(frames)
        let limit = 0.5 * fullScale(format)
        #expect(samples.allSatisfy { abs($0) <= limit + step(format) }, "within ±amplitude")
        #expect(samples.contains { abs($0) > 0.4 * fullScale(format) }, "reaches near the amplitude")
    }

    @Test("The same seed gives the same samples; another seed others")
    func seeded() async throws {
        let run = { (seed: Int) in
            try await values(
                captureAudio(
                    "audionoise num-buffers=4 seed=\(seed) ! audio/x-raw,format=S16LE ! appsink name=out sync=false"))
        }
        let first = try await run(42)
        #expect(first.count == 4 * 1024 * 2)
        #expect(try await run(42) == first)
        #expect(try await run(43) != first)
    }

    @Test("Uniform over the range, mean zero, channels independent")
    func statistics() async throws {
        let samples = try await values(
            captureAudio(
                "audionoise num-buffers=100 seed=9 amplitude=1 ! audio/x-raw,format=F32LE,channels=2 ! appsink name=out sync=false"
            ))
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let right = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
        #expect(left.count == 102_400)
        let mean = left.reduce(0, +) / Double(left.count)
        #expect(abs(mean) < 0.01)
        // Ten equal bins between -1 and 1 each hold a tenth, within 5%.
        var bins = [Int](repeating: 0, count: 10)
        for value in left { bins[min(9, Int((value + 1) * 5))] += 1 }
        #expect(bins.allSatisfy { abs(Double($0) - 10240) < 512 }, "\(bins)")
        // Correlation between the channels: about 0 for independent samples (1 for copies).
        let meanRight = right.reduce(0, +) / Double(right.count)
        var covariance = 0.0, varianceLeft = 0.0, varianceRight = 0.0
        for (l, r) in zip(left, right) {
            covariance += (l - mean) * (r - meanRight)
            varianceLeft += (l - mean) * (l - mean)
            varianceRight += (r - meanRight) * (r - meanRight)
        }
        #expect(abs(covariance / (varianceLeft * varianceRight).squareRoot()) < 0.02)
    }

    @Test("Rate and channels come from the properties when downstream leaves them open")
    func defaults() async throws {
        let frames = try await captureAudio(
            "audionoise num-buffers=1 rate=16000 channels=1 ! appsink name=out sync=false")
        #expect(frames.first?.info.rate == 16000 && frames.first?.info.channels == 1)
    }
}

@Suite("mono: every channel mixed into one", .bounded)
struct MonoTests {
    @Test(
        "Stereo to mono is (L + R) / 2 within one step of the format, rate and format kept",
        arguments: AudioSampleFormat.allCases)
    func equalWeights(format: AudioSampleFormat) async throws {
        let caps = "audio/x-raw,format=\(format.gstreamerName),rate=22050,channels=2"
        let stereo = try await values(
            captureAudio("audionoise num-buffers=3 seed=5 ! \(caps) ! appsink name=out sync=false"))
        let frames = try await captureAudio(
            "audionoise num-buffers=3 seed=5 ! \(caps) ! mono ! appsink name=out sync=false")
        #expect(frames.allSatisfy { $0.info.channels == 1 && $0.info.format == format && $0.info.rate == 22050 })
        let mono = try values(frames)
        #expect(mono.count == stereo.count / 2)
        var worst = 0.0
        for index in 0..<mono.count {
            let mean: Double = (stereo[2 * index] + stereo[2 * index + 1]) / 2
            worst = max(worst, abs(mono[index] - mean))
        }
        #expect(worst <= step(format) * (format == .f32 ? 2 : 1), "largest difference \(worst)")
    }

    @Test("weights mix channels as given: 1,0 keeps the left channel; 0.25,0.75 weighs them")
    func weights() async throws {
        let caps = "audio/x-raw,format=S16LE,channels=2"
        let stereo = try await values(
            captureAudio("audionoise num-buffers=2 seed=8 ! \(caps) ! appsink name=out sync=false"))
        let left = try await values(
            captureAudio("audionoise num-buffers=2 seed=8 ! \(caps) ! mono weights=1,0 ! appsink name=out sync=false"))
        #expect(left == stride(from: 0, to: stereo.count, by: 2).map { stereo[$0] })
        let weighed = try await values(
            captureAudio(
                "audionoise num-buffers=2 seed=8 ! \(caps) ! mono weights=0.25,0.75 ! appsink name=out sync=false"))
        var expected: [Double] = []
        for index in 0..<weighed.count {
            let mix: Double = 0.25 * stereo[2 * index] + 0.75 * stereo[2 * index + 1]
            expected.append(mix.rounded())
        }
        #expect(weighed == expected)
    }

    @Test("Six channels, planar, to one")
    func sixChannels() async throws {
        let caps = "audio/x-raw,format=F32LE,channels=6,layout=non-interleaved"
        let six = try await values(
            captureAudio("audionoise num-buffers=2 seed=2 ! \(caps) ! appsink name=out sync=false"))
        let mono = try await values(
            captureAudio("audionoise num-buffers=2 seed=2 ! \(caps) ! mono ! appsink name=out sync=false"))
        #expect(mono.count == six.count / 6)
        var worst = 0.0
        for index in 0..<mono.count {
            var sum = 0.0
            for channel in 0..<6 { sum += six[index * 6 + channel] }
            worst = max(worst, abs(mono[index] - sum / 6))
        }
        #expect(worst < 1e-6)
    }

    @Test("Weights that do not fit the channels stop the pipeline with a message naming mono")
    func badWeights() async throws {
        try GstPipeElements.register()
        let pipeline = try Pipeline(
            launch: "audionoise num-buffers=2 ! audio/x-raw,channels=2 ! mono name=mixer weights=1,2,3 ! fakesink")
        do {
            try await pipeline.run()
            Issue.record("the pipeline ran")
        } catch {
            #expect(error.source == "mixer")
            #expect(error.message == "mono has 3 weights for 2 channels: give one per channel")
        }
    }

    @Test("A mono input passes through untouched: the same memory goes on")
    func passThrough() async throws {
        try GstPipeElements.register()
        let pipeline = try Pipeline(
            launch:
                "audionoise num-buffers=6 ! audio/x-raw,channels=1 ! tee name=t t. ! queue ! appsink name=direct sync=false "
                + "t. ! queue ! mono ! appsink name=out sync=false")
        let direct = try pipeline.audioFrames(fromAppSink: "direct")
        let mixed = try pipeline.audioFrames(fromAppSink: "out")
        try pipeline.play()
        async let first = direct.reduce(into: [UInt]()) { $0 += $1.buffer.memoryRoots }
        async let second = mixed.reduce(into: [UInt]()) { $0 += $1.buffer.memoryRoots }
        let (a, b) = try await (first, second)
        pipeline.stop()
        #expect(a.count == 6)
        #expect(a == b)
    }
}
