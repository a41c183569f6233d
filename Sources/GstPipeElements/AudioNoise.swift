import MediaIO
import Synchronization

/// `audionoise`: a white-noise audio source, the audio twin of `noise`. Every sample is uniform in
/// [-amplitude, amplitude] and independent of every other, channels included, in whatever sample
/// format, rate, channel count and layout downstream asks for.
///
/// It runs in pull mode: the element asks for each buffer on its own streaming thread (no appsrc).
public final class AudioNoise: AudioSource {
    /// The element's properties, declared in one place.
    public static let properties: [PropertySpec] = [
        PropertySpec(
            "samplesperbuffer", blurb: "Samples (per channel) in each buffer",
            .int(range: 1...Int(Int32.max), default: 1024)),
        PropertySpec(
            "num-buffers", blurb: "Number of buffers to produce before end of stream (-1 = endless)",
            .int(range: -1...Int(Int32.max), default: -1)),
        PropertySpec(
            "amplitude", blurb: "Largest sample value, as a fraction of full scale", .double(range: 0...1, default: 0.8)
        ),
        PropertySpec(
            "seed",
            blurb: "Seed of the random generator: the same seed gives the same samples (-1 = a new seed each run)",
            .int(range: -1...Int(Int32.max), default: -1)),
        PropertySpec(
            "rate", blurb: "Sample rate when downstream leaves it open", .int(range: 1...Int(Int32.max), default: 48000)
        ),
        PropertySpec("channels", blurb: "Channels when downstream leaves it open", .int(range: 1...64, default: 2))
    ]

    private let properties: ElementProperties
    /// The run: its consumer, format, buffer count, generator, and the properties a buffer reads.
    private let run = NoiseRun<any AudioFrameConsumer, AudioInfo, Settings>()

    /// The properties a buffer reads.
    private struct Settings {
        var limit: Int
        var samples: Int
        var amplitude: Double
    }

    /// A noise source reading its format, buffer size, `amplitude` and `seed` properties from `properties`.
    ///
    /// - Parameter properties: The element instance's properties, as ``properties`` declares them.
    public init(properties: ElementProperties) { self.properties = properties }

    /// Keeps `consumer` and seeds the generator (from `seed`, or at random).
    ///
    /// - Parameter consumer: Where the samples go.
    /// - Returns: True.
    public func shouldInitialize(consumer: any AudioFrameConsumer) -> Bool {
        run.begin(consumer, seed: properties.int("seed"))
    }

    /// Lets go of the consumer and the stream's state.
    public func shouldDispose() { run.end() }

    /// Negotiates the format on the first call, then makes one buffer of `samplesperbuffer` noise samples
    /// and hands it on; ends the stream after `num-buffers` buffers.
    public func produceAudio() {
        // The buffer is made and filled under the lock, so the generator's sequence (and so what a
        // seed gives) follows the buffers' order.
        let outcome = run.withLock { state -> Outcome in
            guard let consumer = state.consumer else { return .idle }
            let settings = state.settings(of: properties) { [properties] in
                Settings(
                    limit: properties.int("num-buffers"), samples: properties.int("samplesperbuffer"),
                    amplitude: properties.double("amplitude"))
            }
            if settings.limit >= 0 && state.produced >= settings.limit { return .end(consumer) }
            if state.format == nil {
                var request = AudioFormatRequest(layout: nil)
                request.preferredRate = properties.int("rate")
                request.preferredChannels = properties.int("channels")
                state.format = consumer.negotiate(request)
            }
            guard let format = state.format?.format else {
                consumer.reportError(
                    "downstream accepts no raw audio audionoise can make (S16LE, S32LE, F32LE, F64LE, U8)")
                return .end(consumer)
            }
            do {
                let frame = try consumer.makeFrame(sampleCount: settings.samples)
                try frame.buffer.withMutableBytes { bytes in
                    state.random.fillAudio(bytes, format: format, amplitude: settings.amplitude)
                }
                state.produced += 1
                return .frame(frame, consumer)
            } catch {
                consumer.reportError("audionoise could not make a buffer: \(error)")
                return .end(consumer)
            }
        }
        switch outcome {
        case .idle: break
        case .end(let consumer): consumer.endOfStream()
        case .frame(let frame, let consumer): consumer.consume(frame)
        }
    }

    /// What a call to `produceAudio` hands on, once out of the lock (a push may wait for downstream).
    private enum Outcome {
        case idle
        case end(any AudioFrameConsumer)
        case frame(AudioFrame, any AudioFrameConsumer)
    }
}

extension NoiseGenerator {
    /// Fills `bytes` with samples of `format`, uniform in [-amplitude, amplitude] of full scale.
    /// Random bytes first (fast, 64 at a time), then each sample scaled in place.
    mutating func fillAudio(_ bytes: UnsafeMutableRawBufferPointer, format: AudioSampleFormat, amplitude: Double) {
        fill(bytes)
        switch format {
        case .s16:
            let samples = bytes.bindMemory(to: UInt16.self)
            let scale = Int32(amplitude * 32768)
            guard scale < 32768 else { return }  // full scale: the random bits are the samples
            // (x * scale) >> 15 for a signed x is ((x + 32768) * 2 * scale) >> 16 - scale with x + 32768
            // unsigned: the same value through an unsigned multiply-high on 16-bit lanes (pmulhuw, 8
            // samples an instruction), where the 32-bit multiply took a shuffle of pmuludq for every 4.
            // Both factors 16-bit wide (a UInt32 factor of unknown range kept the 32-bit multiply).
            let twice = UInt16(2 * scale), offset = UInt16(scale)
            let pointer = samples.baseAddress!
            for index in 0..<samples.count {
                let product = UInt32(pointer[index] ^ 0x8000) &* UInt32(twice)
                pointer[index] = UInt16(truncatingIfNeeded: product &>> 16) &- offset
            }
        case .s32:
            let samples = bytes.bindMemory(to: Int32.self)
            let scale = Int64(amplitude * 2_147_483_648)
            guard scale < 2_147_483_648 else { return }
            for index in samples.indices {
                samples[index] = Int32(truncatingIfNeeded: (Int64(samples[index]) &* scale) >> 31)
            }
        case .u8:
            let samples = bytes.bindMemory(to: UInt8.self)
            let scale = Int16(amplitude * 128)
            for index in samples.indices {
                samples[index] = UInt8(
                    truncatingIfNeeded: 128 &+ ((Int16(Int8(bitPattern: samples[index])) &* scale) >> 7))
            }
        case .f32:
            // 24 random bits of each sample give a uniform value in [-1, 1).
            let samples = bytes.bindMemory(to: UInt32.self)
            let scale = Float(amplitude) / Float(1 << 23)
            let floats = UnsafeMutableRawPointer(samples.baseAddress!).assumingMemoryBound(to: Float.self)
            let random = samples.baseAddress!
            for index in 0..<samples.count {
                floats[index] = Float(Int32(bitPattern: random[index]) &>> 8) * scale
            }
        case .f64:
            let samples = bytes.bindMemory(to: UInt64.self)
            let scale = amplitude / Double(1 << 52)
            let doubles = UnsafeMutableRawPointer(samples.baseAddress!).assumingMemoryBound(to: Double.self)
            for index in samples.indices {
                doubles[index] = Double(Int64(bitPattern: samples[index]) >> 11) * scale
            }
        }
    }
}
