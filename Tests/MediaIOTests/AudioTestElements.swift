import Foundation
import GstPipeSupport
import MediaIO
import Synchronization

/// The pattern `audiopattern` makes: sample `n` of channel `c`, as a fraction of full scale in
/// (-1, 1), distinct for every sample and channel within a long stretch.
enum AudioPattern {
    static func value(sample n: Int, channel c: Int) -> Double {
        Double((n * 37 + c * 1013) % 2000 - 1000) / 1024
    }

    /// The pattern's value as stored in `format` (what a lossless path must give back exactly).
    static func stored(_ value: Double, _ format: AudioSampleFormat) -> Double {
        switch format {
        case .s16: Double(Int16(value * 32768))
        case .s32: Double(Int32(value * 2_147_483_648))
        case .f32: Double(Float(value))
        case .f64: value
        case .u8: Double(UInt8(128 + Int(value * 128)))
        }
    }
}

/// A pull-mode audio source of `AudioPattern`, pushed `push` samples at a time through
/// `consumeRawData` (so the consumer cuts them into `per-buffer` buffers), in the format, rate,
/// channels and layout its properties say; with `frames=true` it makes and fills frames instead
/// (zero copy, recording each buffer's memory).
final class AudioPatternSource: AudioSource {
    let properties: ElementProperties
    private let state = Locked<(consumer: (any AudioFrameConsumer)?, sent: Int)>((nil, 0))
    static let pushedMemory = Locked<[String: [UInt]]>([:])

    init(properties: ElementProperties) { self.properties = properties }

    var tag: String { properties.string("tag") ?? "?" }
    /// Nil when the properties give a rate or channel count out of range.
    var info: AudioInfo? {
        try? AudioInfo(
            format: AudioSampleFormat(gstreamerName: properties.string("format") ?? "S16LE") ?? .s16,
            rate: properties.int("rate"), channels: properties.int("channels"),
            layout: properties.bool("planar") ? .nonInterleaved : .interleaved)
    }

    func shouldInitialize(consumer: any AudioFrameConsumer) -> Bool {
        LifecycleLog.shared.record(tag, "initialize")
        guard let info else { return false }
        var request = AudioFormatRequest(info)
        let perBuffer = properties.int("per-buffer")
        request.samplesPerBuffer = perBuffer > 0 ? perBuffer : nil
        guard consumer.negotiate(request) != nil else { return false }
        state.withLock { $0 = (consumer, 0) }
        return true
    }
    func shouldStart() { LifecycleLog.shared.record(tag, "start") }
    func shouldStop() { LifecycleLog.shared.record(tag, "stop") }
    func shouldDispose() {
        LifecycleLog.shared.record(tag, "dispose")
        state.withLock { $0 = (nil, 0) }
    }

    func produceAudio() {
        let total = properties.int("samples")
        let (consumer, sent) = state.withLock { ($0.consumer, $0.sent) }
        guard let consumer else { return }
        guard sent < total else {
            consumer.endOfStream()
            return
        }
        let count = min(properties.int("push"), total - sent)
        guard let info = self.info else { return consumer.reportError("no audio format") }
        if properties.bool("frames") || info.layout == .nonInterleaved {
            guard let frame = try? consumer.makeFrame(sampleCount: count, format: info, timestamp: nil) else { return }
            try? Self.fill(frame, from: sent)
            Self.pushedMemory.withLock { $0[tag, default: []] += frame.buffer.memoryRoots }
            consumer.consume(frame)
        } else if properties.bool("silent") {
            let bytes = [UInt8](repeating: 0, count: count * info.bytesPerFrame)
            bytes.withUnsafeBytes { _ = consumer.consumeRawData($0, format: info, timestamp: nil) }
        } else {
            let values = (0..<count).flatMap { n in
                (0..<info.channels).map { AudioPattern.value(sample: sent + n, channel: $0) }
            }
            let bytes = Self.encode(values, info.format)
            bytes.withUnsafeBytes { _ = consumer.consumeRawData($0, format: info, timestamp: nil) }
        }
        state.withLock { $0.sent += count }
    }

    static func encode(_ values: [Double], _ format: AudioSampleFormat) -> [UInt8] {
        func bytes<T>(_ array: [T]) -> [UInt8] { array.withUnsafeBytes { Array($0) } }
        switch format {
        case .s16: return bytes(values.map { Int16(AudioPattern.stored($0, .s16)) })
        case .s32: return bytes(values.map { Int32(AudioPattern.stored($0, .s32)) })
        case .f32: return bytes(values.map { Float($0) })
        case .f64: return bytes(values)
        case .u8: return values.map { UInt8(AudioPattern.stored($0, .u8)) }
        }
    }

    static func fill(_ frame: AudioFrame, from first: Int) throws {
        let info = frame.info
        func write<T: AudioSample>(_ type: T.Type, _ convert: (Double) -> T) throws {
            if info.layout == .interleaved || info.channels == 1 {
                try frame.withMutableSamples(as: T.self) { samples in
                    for n in 0..<frame.sampleCount {
                        for c in 0..<info.channels {
                            samples[n * info.channels + c] = convert(AudioPattern.value(sample: first + n, channel: c))
                        }
                    }
                }
            } else {
                try frame.withMutableChannels(as: T.self) { planes in
                    for (c, plane) in planes.enumerated() {
                        for n in 0..<frame.sampleCount {
                            plane[n] = convert(AudioPattern.value(sample: first + n, channel: c))
                        }
                    }
                }
            }
        }
        switch info.format {
        case .s16: try write(Int16.self) { Int16(AudioPattern.stored($0, .s16)) }
        case .s32: try write(Int32.self) { Int32(AudioPattern.stored($0, .s32)) }
        case .f32: try write(Float.self) { Float($0) }
        case .f64: try write(Double.self) { $0 }
        case .u8: try write(UInt8.self) { UInt8(AudioPattern.stored($0, .u8)) }
        }
    }
}

/// A filter that hands each frame on untouched (`copy=true`: a copy made through makeFrame).
final class AudioPassFilter: AudioFilter {
    let properties: ElementProperties
    private let consumer = Locked<(any AudioFrameConsumer)?>(nil)

    init(properties: ElementProperties) { self.properties = properties }
    var tag: String { properties.string("tag") ?? "?" }
    var audioFormat: AudioFormatRequest { AudioFormatRequest(layout: nil) }

    func shouldInitialize(consumer: any AudioFrameConsumer) -> Bool {
        LifecycleLog.shared.record(tag, "initialize")
        self.consumer.withLock { $0 = consumer }
        return true
    }
    func shouldStart() { LifecycleLog.shared.record(tag, "start") }
    func shouldStop() { LifecycleLog.shared.record(tag, "stop") }
    func shouldDispose() {
        LifecycleLog.shared.record(tag, "dispose")
        consumer.withLock { $0 = nil }
    }

    func render(_ frame: AudioFrame) throws {
        guard let consumer = consumer.withLock({ $0 }) else { return }
        guard properties.bool("copy") else {
            consumer.consume(frame)
            return
        }
        let copy = try consumer.makeFrame(
            sampleCount: frame.sampleCount, format: frame.info, timestamp: frame.timestamp)
        try frame.buffer.withBytes { source in
            try copy.buffer.withMutableBytes {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: source.prefix($0.count)))
            }
        }
        consumer.consume(copy)
    }
}

/// A sink recording every frame it gets (info, time, samples in interleaved order as Doubles), in
/// the shape its properties ask for (0 or empty: the input's).
final class AudioRecordingSink: AudioSink {
    struct Record: Sendable {
        var info: AudioInfo
        var timestamp: ClockTime
        var duration: ClockTime
        var discontinuity: Bool
        var samples: [Double]
    }
    static let records = Locked<[String: [Record]]>([:])

    let properties: ElementProperties
    init(properties: ElementProperties) { self.properties = properties }
    var tag: String { properties.string("tag") ?? "?" }

    var audioFormat: AudioFormatRequest {
        let rate = properties.int("rate")
        let channels = properties.int("channels")
        let formats = properties.string("format").flatMap(AudioSampleFormat.init(gstreamerName:)).map { [$0] }
        return AudioFormatRequest(
            formats: formats ?? AudioSampleFormat.allCases, rate: rate > 0 ? rate : nil,
            channels: channels > 0 ? channels : nil, layout: nil)
    }

    func shouldInitialize() -> Bool {
        LifecycleLog.shared.record(tag, "initialize")
        return true
    }
    func shouldStart() { LifecycleLog.shared.record(tag, "start") }
    func shouldStop() { LifecycleLog.shared.record(tag, "stop") }
    func shouldDispose() { LifecycleLog.shared.record(tag, "dispose") }

    func render(_ frame: AudioFrame) throws {
        guard !properties.bool("times-only") else {
            let record = Record(
                info: frame.info, timestamp: frame.timestamp, duration: frame.duration,
                discontinuity: frame.isDiscontinuity, samples: [])
            Self.records.withLock { $0[tag, default: []].append(record) }
            return
        }
        let samples: [Double] =
            switch frame.info.format {
            case .s16: try frame.interleavedSamples(as: Int16.self).map(Double.init)
            case .s32: try frame.interleavedSamples(as: Int32.self).map(Double.init)
            case .f32: try frame.interleavedSamples(as: Float.self).map(Double.init)
            case .f64: try frame.interleavedSamples(as: Double.self)
            case .u8: try frame.interleavedSamples(as: UInt8.self).map(Double.init)
            }
        let record = Record(
            info: frame.info, timestamp: frame.timestamp, duration: frame.duration,
            discontinuity: frame.isDiscontinuity,
            samples: properties.bool("times-only") ? [] : samples)
        Self.records.withLock { $0[tag, default: []].append(record) }
    }
}

enum AudioTestElements {
    private static let patternProperties: [PropertySpec] = [
        PropertySpec("tag", blurb: "Record under this name", .string(default: nil)),
        PropertySpec("format", blurb: "Sample format", .string(default: "S16LE")),
        PropertySpec("rate", blurb: "Rate", .int(range: 1...192_000, default: 48000)),
        PropertySpec("channels", blurb: "Channels", .int(range: 1...64, default: 2)),
        PropertySpec("planar", blurb: "Non-interleaved", .bool(default: false)),
        PropertySpec("samples", blurb: "Samples per channel in all", .int(range: 0...Int(Int32.max), default: 4800)),
        PropertySpec("push", blurb: "Samples per push", .int(range: 1...1_000_000, default: 480)),
        PropertySpec("per-buffer", blurb: "Samples per buffer (0: as pushed)", .int(range: 0...1_000_000, default: 0)),
        PropertySpec("frames", blurb: "Push frames made by makeFrame", .bool(default: false)),
        PropertySpec("silent", blurb: "Push zeros instead of the pattern (cheap)", .bool(default: false))
    ]

    private static let registered: Void = {
        let tag = PropertySpec("tag", blurb: "Record under this name", .string(default: nil))
        // The same source twice: through an appsrc, and pulled on a task of its own (no appsrc).
        for (name, pulled) in [("audiopattern", false), ("audiopulled", true)] {
            try! MediaIOElements.registerAudioSource(
                name: name, longName: "Audio pattern", description: "Test source", properties: patternProperties,
                pulled: pulled
            ) { AudioPatternSource(properties: $0) }
        }
        try! MediaIOElements.registerAudioFilter(
            name: "audiopass", longName: "Audio pass", description: "Test filter",
            properties: [tag, PropertySpec("copy", blurb: "Copy each frame", .bool(default: false))]
        ) { AudioPassFilter(properties: $0) }
        try! MediaIOElements.registerAudioSink(
            name: "audiorecord", longName: "Audio recorder", description: "Test sink",
            properties: [
                tag, PropertySpec("format", blurb: "Sample format wanted", .string(default: nil)),
                PropertySpec("rate", blurb: "Rate wanted (0: any)", .int(range: 0...192_000, default: 0)),
                PropertySpec("channels", blurb: "Channels wanted (0: any)", .int(range: 0...64, default: 0)),
                PropertySpec("times-only", blurb: "Record no samples", .bool(default: false))
            ]
        ) { AudioRecordingSink(properties: $0) }
    }()

    static func register() { _ = registered }
}
