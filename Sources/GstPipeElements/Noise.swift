import MediaIO
import Synchronization

/// `noise`: a white-noise video source. Every byte of every plane is random (alpha too, as in the
/// classic custom-capturer sample), so the picture is snow in any format downstream asks for.
///
/// It runs in pull mode: GStreamer asks for each frame on the appsrc's streaming thread, so it
/// produces exactly as fast as downstream takes frames.
public final class Noise: VideoSource {
    /// The element's properties, declared in one place.
    public static let properties: [PropertySpec] = [
        PropertySpec(
            "width", blurb: "Frame width when downstream leaves it open", .int(range: 1...16384, default: 320)),
        PropertySpec(
            "height", blurb: "Frame height when downstream leaves it open", .int(range: 1...16384, default: 240)),
        PropertySpec("framerate", blurb: "Frame rate when downstream leaves it open", .fraction(default: (30, 1))),
        PropertySpec(
            "num-buffers", blurb: "Number of frames to produce before end of stream (-1 = endless)",
            .int(range: -1...Int(Int32.max), default: -1)),
        PropertySpec(
            "seed",
            blurb: "Seed of the random generator: the same seed gives the same frames (-1 = a new seed each run)",
            .int(range: -1...Int(Int32.max), default: -1))
    ]

    /// Pixel formats in order of preference when downstream accepts several.
    public static let formats: [VideoPixelFormat] = [
        .i420, .yv12, .nv12, .nv21, .y42b, .y444, .gray8, .bgra, .rgba, .argb, .abgr, .bgrx, .rgbx, .xrgb, .xbgr,
        .rgb, .bgr
    ]

    private let properties: ElementProperties
    /// The run: its consumer, format, frame count, generator, and `num-buffers` with the format request.
    private let run = NoiseRun<any VideoFrameConsumer, VideoFrameFormat, (Int, VideoFormatRequest)>()

    /// A noise source reading its size, rate, `num-buffers` and `seed` properties from `properties`.
    ///
    /// - Parameter properties: The element instance's properties, as ``properties`` declares them.
    public init(properties: ElementProperties) { self.properties = properties }

    /// Keeps `consumer` and seeds the generator (from `seed`, or at random).
    ///
    /// - Parameter consumer: Where the frames go.
    /// - Returns: True.
    public func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        run.begin(consumer, seed: properties.int("seed"))
    }

    /// Lets go of the consumer and the stream's state.
    public func shouldDispose() { run.end() }

    /// Negotiates the format on the first call, then makes one frame of noise from the pool and hands it on;
    /// ends the stream after `num-buffers` frames.
    public func produceFrame() {
        // The whole frame is made under the lock: produceFrame runs on one streaming thread at a time,
        // and the lock keeps the generator's sequence (and so the seed's frames) in order.
        let outcome: (consumer: any VideoFrameConsumer, frame: VideoFrame?)? = run.withLock { state in
            guard let consumer = state.consumer else { return nil }
            let (limit, request) = state.settings(of: properties) { [properties] in
                let rate = properties.fraction("framerate") ?? (30, 1)
                return (
                    properties.int("num-buffers"),
                    VideoFormatRequest(
                        pixelFormats: Noise.formats, width: properties.int("width"), height: properties.int("height"),
                        frameRate: VideoFrameRate(rate.numerator, rate.denominator))
                )
            }
            if limit >= 0 && state.produced >= limit { return (consumer, nil) }
            if state.format == nil {
                state.format = consumer.negotiate(request)
            }
            guard let format = state.format else {
                consumer.reportError(
                    "downstream accepts none of noise's formats (\(Noise.formats.map(\.gstreamerName).joined(separator: ", ")))"
                )
                return (consumer, nil)
            }
            let timestamp = format.frameRate.timestamp(ofFrame: state.produced)
            let next = format.frameRate.timestamp(ofFrame: state.produced + 1)
            do {
                let frame = try consumer.makeFrame(
                    format: format, timestamp: timestamp,
                    duration: format.frameRate.frameDuration.map { _ in next - timestamp })
                try frame.withMutablePlanes { planes in
                    for plane in planes { state.random.fill(plane.bytes) }
                }
                state.produced += 1
                return (consumer, frame)
            } catch {
                consumer.reportError("noise could not make a frame: \(error)")
                return (consumer, nil)
            }
        }
        guard let outcome else { return }
        guard let frame = outcome.frame else {
            outcome.consumer.endOfStream()
            return
        }
        outcome.consumer.consume(frame)
    }
}

/// A small, fast, seedable generator: eight interleaved xorshift64 streams seeded by SplitMix64, so
/// the same seed gives the same bytes on every machine. Each step of one stream is a chain of six
/// dependent shifts and xors; the streams run two to a vector register, four registers at once, so
/// the CPU has independent work every cycle (two registers left it waiting on the chain: 64 bytes
/// took 1.5 times as long).
struct NoiseGenerator {
    private var lanes: (SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>)

    init(seed: UInt64) {
        var mix = seed
        func next() -> UInt64 {
            mix &+= 0x9E37_79B9_7F4A_7C15
            var z = mix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return (z ^ (z >> 31)) | 1  // xorshift needs a non-zero state
        }
        lanes = (SIMD2(next(), next()), SIMD2(next(), next()), SIMD2(next(), next()), SIMD2(next(), next()))
    }

    /// One step of the two streams in `x`'s lanes.
    @inline(__always)
    private static func step(_ x: inout SIMD2<UInt64>) -> SIMD2<UInt64> {
        x ^= x &<< 13
        x ^= x &>> 7
        x ^= x &<< 17
        return x
    }

    /// Fills `bytes` with random bytes, 64 at a time (the last, partial block from a whole one).
    mutating func fill(_ bytes: UnsafeMutableRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        var (a, b, c, d) = lanes
        var block = base
        for _ in 0..<bytes.count / 64 {
            block.storeBytes(of: NoiseGenerator.step(&a), as: SIMD2<UInt64>.self)
            block.storeBytes(of: NoiseGenerator.step(&b), toByteOffset: 16, as: SIMD2<UInt64>.self)
            block.storeBytes(of: NoiseGenerator.step(&c), toByteOffset: 32, as: SIMD2<UInt64>.self)
            block.storeBytes(of: NoiseGenerator.step(&d), toByteOffset: 48, as: SIMD2<UInt64>.self)
            block += 64
        }
        let rest = bytes.count % 64
        if rest > 0 {
            let last = (
                NoiseGenerator.step(&a), NoiseGenerator.step(&b), NoiseGenerator.step(&c), NoiseGenerator.step(&d)
            )
            withUnsafeBytes(of: last) { block.copyMemory(from: $0.baseAddress!, byteCount: rest) }
        }
        lanes = (a, b, c, d)
    }
}
