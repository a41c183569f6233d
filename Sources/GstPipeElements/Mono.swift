import GstPipeSupport
import MediaIO
import Synchronization

/// `mono`: mixes every channel into one, the audio counterpart of `gray`. Equal weights by default
/// ((L + R) / 2 for stereo), or the `weights` given; rate and sample format stay the input's. A mono
/// input passes through untouched: the very same buffer goes on, no copy.
public final class Mono: AudioChannelConverting {
    /// The element's properties, declared in one place.
    public static let properties: [PropertySpec] = [
        PropertySpec(
            "weights",
            blurb:
                "Each channel's weight in the mix, comma-separated (\"0.7,0.3\"); empty = equal weights (1/channels)",
            .string(default: nil))
    ]

    /// One: every frame mono hands on has a single channel.
    public var outputChannels: Int { 1 }
    /// Any sample format, rate, channel count and layout: mono mixes what it gets.
    public var audioFormat: AudioFormatRequest { AudioFormatRequest(layout: nil) }

    private let properties: ElementProperties
    private let consumer = Locked<(any AudioFrameConsumer)?>(nil)

    /// A mixer reading its `weights` property from `properties` (read again when it changes while running).
    ///
    /// - Parameter properties: The element instance's properties, as ``properties`` declares them.
    public init(properties: ElementProperties) {
        self.properties = properties
    }

    /// Keeps `consumer` for the mixed frames.
    ///
    /// - Parameter consumer: Where the mono frames go.
    /// - Returns: True.
    public func shouldInitialize(consumer: any AudioFrameConsumer) -> Bool {
        self.consumer.withLock { $0 = consumer }
        return true
    }

    /// Lets go of the consumer.
    public func shouldDispose() {
        consumer.withLock { $0 = nil }
    }

    /// The weights last parsed, with the channel count and property text they are for: parsed once,
    /// not for every buffer (the property may still change while running).
    private let cachedWeights = Locked<(channels: Int, text: String?, weights: [Double])?>(nil)

    /// The weights for `channels` channels, from the property or equal.
    func weights(channels: Int) throws -> [Double] {
        let text = properties.string("weights")
        if let cached = cachedWeights.withLock({ $0 }), cached.channels == channels, cached.text == text {
            return cached.weights
        }
        let weights = try parseWeights(channels: channels)
        cachedWeights.withLock { $0 = (channels, text, weights) }
        return weights
    }

    private func parseWeights(channels: Int) throws -> [Double] {
        guard let text = properties.string("weights"), !text.isEmpty else {
            return Array(repeating: 1 / Double(channels), count: channels)
        }
        let weights = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard weights.allSatisfy({ $0 != nil }) else {
            throw MediaIOError(
                "mono's weights \"\(text)\" are not numbers: give one per channel, such as weights=0.5,0.5")
        }
        guard weights.count == channels else {
            throw MediaIOError("mono has \(weights.count) weights for \(channels) channels: give one per channel")
        }
        return weights.map { $0! }
    }

    /// Mixes `frame`'s channels into one and hands the result on, on the streaming thread; a mono frame
    /// goes on as it is.
    ///
    /// - Parameter frame: The input samples, in any sample format and layout.
    /// - Throws: `MediaIOError` when `weights` is not one number per channel; `GStreamerError`
    ///   when the frames cannot be mapped or made. The pipeline then stops with the error.
    public func render(_ frame: AudioFrame) throws {
        guard let consumer = consumer.withLock({ $0 }) else { return }
        let info = frame.info
        if info.channels == 1 {
            consumer.consume(frame)
            return
        }
        let weights = try weights(channels: info.channels)
        var outputInfo = try AudioInfo(format: info.format, rate: info.rate, channels: 1)
        outputInfo.layout = .interleaved
        let output = try consumer.makeFrame(
            sampleCount: frame.sampleCount, format: outputInfo, timestamp: frame.timestamp)
        let equalStereo = info.channels == 2 && info.layout == .interleaved && weights == [0.5, 0.5]
        if equalStereo && info.format == .s16 {
            try Self.averageStereo(frame, into: output)
        } else if equalStereo && info.format == .f32 {
            try Self.averageStereoFloat(frame, into: output)
        } else {
            try Self.mix(frame, into: output, info: info, weights: weights)
        }
        var outgoing = output
        outgoing.duration = frame.duration
        outgoing.isDiscontinuity = frame.isDiscontinuity
        consumer.consume(outgoing)
    }

    /// The common case, in the sample type's own arithmetic (vectorized): (L + R) / 2, rounded down,
    /// within one step of the exact mean.
    private static func averageStereo(_ frame: AudioFrame, into output: AudioFrame) throws {
        try output.withMutableSamples(as: Int16.self) { out in
            try frame.withSamples(as: Int16.self) { input in
                for index in 0..<out.count {
                    out[index] = Int16(
                        truncatingIfNeeded: (Int32(input[2 * index]) &+ Int32(input[2 * index + 1])) >> 1)
                }
            }
        }
    }

    private static func averageStereoFloat(_ frame: AudioFrame, into output: AudioFrame) throws {
        try output.withMutableSamples(as: Float.self) { out in
            try frame.withSamples(as: Float.self) { input in
                for index in 0..<out.count { out[index] = (input[2 * index] + input[2 * index + 1]) * 0.5 }
            }
        }
    }

    private static func mix(_ frame: AudioFrame, into output: AudioFrame, info: AudioInfo, weights: [Double]) throws {
        switch info.format {
        case .s16: try Self.mix(frame, into: output, weights: weights, as: Int16.self)
        case .s32: try Self.mix(frame, into: output, weights: weights, as: Int32.self)
        case .f32: try Self.mix(frame, into: output, weights: weights, as: Float.self)
        case .f64: try Self.mix(frame, into: output, weights: weights, as: Double.self)
        case .u8: try Self.mix(frame, into: output, weights: weights, as: UInt8.self)
        }
    }

    private static func mix<T: MixableSample>(
        _ frame: AudioFrame, into output: AudioFrame, weights: [Double], as type: T.Type
    ) throws {
        let channels = frame.info.channels
        try output.withMutableSamples(as: T.self) { out in
            if frame.info.layout == .interleaved {
                try frame.withSamples(as: T.self) { input in
                    if channels == 2 {
                        let (left, right) = (weights[0], weights[1])
                        for index in 0..<out.count {
                            out[index] = T(
                                mixed: input[2 * index].mixValue * left + input[2 * index + 1].mixValue * right)
                        }
                    } else {
                        for index in 0..<out.count {
                            var sum = 0.0
                            for channel in 0..<channels {
                                sum += input[index * channels + channel].mixValue * weights[channel]
                            }
                            out[index] = T(mixed: sum)
                        }
                    }
                }
            } else {
                try frame.withChannels(as: T.self) { planes in
                    for index in 0..<out.count {
                        var sum = 0.0
                        for channel in 0..<channels { sum += planes[channel][index].mixValue * weights[channel] }
                        out[index] = T(mixed: sum)
                    }
                }
            }
        }
    }
}

/// A sample type `mono` mixes: to a Double around silence, and back rounded to the nearest step and
/// clamped to full scale.
protocol MixableSample: AudioSample {
    var mixValue: Double { get }
    init(mixed value: Double)
}

extension Double {
    /// Clamped to `low...high`, then rounded half away from zero as `rounded()` does, without its
    /// call into libm (a third of mono's time on S16): adding ±0.5 is exact below 2^52, and the
    /// conversion that follows truncates.
    @inline(__always)
    func clampedForRounding(_ low: Double, _ high: Double) -> Double {
        let clamped = Swift.max(low, Swift.min(high, self))
        return clamped + (clamped < 0 ? -0.5 : 0.5)
    }
}

extension Int16: MixableSample {
    var mixValue: Double { Double(self) }
    init(mixed value: Double) { self = Int16(value.clampedForRounding(-32768, 32767)) }
}

extension Int32: MixableSample {
    var mixValue: Double { Double(self) }
    init(mixed value: Double) { self = Int32(value.clampedForRounding(-2_147_483_648, 2_147_483_647)) }
}

extension Float: MixableSample {
    var mixValue: Double { Double(self) }
    init(mixed value: Double) { self = Float(value) }
}

extension Double: MixableSample {
    var mixValue: Double { self }
    init(mixed value: Double) { self = value }
}

extension UInt8: MixableSample {
    var mixValue: Double { Double(self) - 128 }
    init(mixed value: Double) { self = UInt8(value.clampedForRounding(-128, 127) + 128) }
}
