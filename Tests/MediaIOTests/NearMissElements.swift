import GstPipeSupport
import MediaIO
import Synchronization

// Sinks, filters and sources as a new user writes them, each with the near miss it is named after:
// a bufferType naming the callback the type does not implement, or no callback at all.

/// What the near-miss elements were called with, per tag: the callback and the bytes it got.
enum NearMissLog {
    static let calls = Locked<[String: [(callback: String, bytes: [UInt8])]]>([:])

    static func record(_ tag: String, _ callback: String, _ bytes: [UInt8]) {
        calls.withLock { $0[tag, default: []].append((callback, bytes)) }
    }

    /// A frame `render(_:)` got, packed.
    static func record(_ tag: String, frame: VideoFrame) throws {
        record(tag, "render", try frame.packedBytes())
    }

    /// Bytes `renderRawData` got.
    static func record(_ tag: String, raw bytes: UnsafeRawBufferPointer) {
        record(tag, "renderRawData", Array(bytes.bindMemory(to: UInt8.self)))
    }

    static func calls(_ tag: String) -> [(callback: String, bytes: [UInt8])] {
        calls.withLock { $0[tag] ?? [] }
    }
}

/// What every near-miss element has in common, so each type below shows only what it implements: its
/// tag (read when asked: a launch description sets it after the object is made), GRAY8, and, for the
/// filters and the source, the consumer it was handed.
class NearMissElement: @unchecked Sendable {
    // @unchecked (restated by each subclass): `properties` is Sendable and never replaced, `consumer` is
    // behind a Mutex, and the subclasses add no stored property but an Atomic.
    let properties: ElementProperties
    let consumer = Locked<(any VideoFrameConsumer)?>(nil)
    init(properties: ElementProperties) { self.properties = properties }

    var tag: String { properties.string("tag") ?? "?" }
    var pixelFormat: VideoPixelFormat { .gray8 }

    func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        self.consumer.withLock { $0 = consumer }
        return true
    }
}

/// Says `.rawData` but implements `render(_:)`: the classic near miss.
final class RawTypedFrameSink: NearMissElement, VideoSink, @unchecked Sendable {
    var bufferType: VideoBufferType { .rawData }
    func render(_ frame: VideoFrame) throws { try NearMissLog.record(tag, frame: frame) }
}

/// Leaves `bufferType` at its default (`.pixelBuffer`) but implements `renderRawData`.
final class PackedOnlySink: NearMissElement, VideoSink, @unchecked Sendable {
    func renderRawData(
        _ bytes: UnsafeRawBufferPointer, format: VideoFrameFormat, timestamp: ClockTime, rotation: VideoRotation
    ) throws {
        NearMissLog.record(tag, raw: bytes)
    }
}

/// Means to render, but its method has another label, so it implements neither callback.
final class MisspeltSink: NearMissElement, VideoSink, @unchecked Sendable {
    var bufferType: VideoBufferType { properties.bool("raw") ? .rawData : .pixelBuffer }
}

extension MisspeltSink {
    func render(frame: VideoFrame) throws { NearMissLog.record(tag, "render(frame:)", []) }
}

/// Implements both callbacks and says `.rawData`: only `renderRawData` is called, and nothing is said.
final class BothCallbacksSink: NearMissElement, VideoSink, @unchecked Sendable {
    var bufferType: VideoBufferType { .rawData }
    func render(_ frame: VideoFrame) throws { try NearMissLog.record(tag, frame: frame) }
    func renderRawData(
        _ bytes: UnsafeRawBufferPointer, format: VideoFrameFormat, timestamp: ClockTime, rotation: VideoRotation
    ) throws {
        NearMissLog.record(tag, raw: bytes)
    }
}

/// Implements `render(_:)` by handing each frame on to another sink, whose own `render(_:)` is the
/// default: that default running inside must not make this sink's `render(_:)` look unimplemented.
final class DelegatingSink: NearMissElement, VideoSink, @unchecked Sendable {
    func render(_ frame: VideoFrame) throws {
        try NearMissLog.record(tag, frame: frame)
        try PackedOnlySink(properties: properties).render(frame)
    }
}

/// A filter that says `.rawData` but implements `render(_:)`, handing each frame on unchanged.
final class RawTypedFrameFilter: NearMissElement, VideoFilter, @unchecked Sendable {
    var bufferType: VideoBufferType { .rawData }
    func render(_ frame: VideoFrame) throws {
        try NearMissLog.record(tag, frame: frame)
        consumer.withLock { $0 }?.consume(frame)
    }
}

/// A filter that leaves `bufferType` at `.pixelBuffer` but implements `renderRawData`, handing the
/// bytes on as raw data.
final class PackedOnlyFilter: NearMissElement, VideoFilter, @unchecked Sendable {
    func renderRawData(
        _ bytes: UnsafeRawBufferPointer, format: VideoFrameFormat, timestamp: ClockTime, rotation: VideoRotation
    ) throws {
        NearMissLog.record(tag, raw: bytes)
        consumer.withLock { $0 }?.consumeRawData(bytes, timestamp: timestamp, format: format, rotation: rotation)
    }
}

/// A filter with no callback at all.
final class CallbacklessFilter: NearMissElement, VideoFilter, @unchecked Sendable {}

/// A pull-mode source of 4x2 GRAY8 frames, every byte of frame n equal to n, whose bufferType says
/// one thing while it hands frames over the other way: `.rawData` but `makeFrame` and `consume`
/// (`rawtypedpooledsrc`), or `.pixelBuffer` but `consumeRawData` (`pixeltypedrawsrc`).
final class MismatchedSource: NearMissElement, VideoSource, @unchecked Sendable {
    private let produced = Atomic<Int>(0)
    var pooled: Bool { properties.bool("pooled") }
    var bufferType: VideoBufferType { pooled ? .rawData : .pixelBuffer }

    func produceFrame() {
        guard let consumer = consumer.withLock({ $0 }) else { return }
        let index = produced.wrappingAdd(1, ordering: .relaxed).oldValue
        guard index < properties.int("frames") else { return consumer.endOfStream() }
        let rate = VideoFrameRate(25)
        let format = VideoFrameFormat(pixelFormat: .gray8, width: 4, height: 2, frameRate: rate)
        let timestamp = rate.timestamp(ofFrame: index)
        guard pooled else {
            let bytes = [UInt8](repeating: UInt8(index), count: 8)
            bytes.withUnsafeBytes {
                _ = consumer.consumeRawData($0, timestamp: timestamp, format: format, rotation: .none)
            }
            return
        }
        do {
            let frame = try consumer.makeFrame(format: format, timestamp: timestamp, duration: rate.frameDuration)
            try frame.withMutablePlanes { planes in
                for row in 0..<planes[0].rows { planes[0].row(row).update(repeating: UInt8(index)) }
            }
            consumer.consume(frame)
        } catch {
            consumer.reportError("\(error)")
        }
    }
}

enum NearMissElements {
    static let properties = [
        tagProperty, PropertySpec("frames", blurb: "Frames before EOS", .int(range: 0...1000, default: 4)),
        PropertySpec("pooled", blurb: "Hand frames over from makeFrame", .bool(default: false)),
        PropertySpec("raw", blurb: "bufferType .rawData", .bool(default: false))
    ]

    static let registered: Void = {
        sink("rawtypedframesink") { RawTypedFrameSink(properties: $0) }
        sink("packedonlysink") { PackedOnlySink(properties: $0) }
        sink("misspeltsink") { MisspeltSink(properties: $0) }
        sink("bothcallbackssink") { BothCallbacksSink(properties: $0) }
        sink("delegatingsink") { DelegatingSink(properties: $0) }
        filter("rawtypedframefilter") { RawTypedFrameFilter(properties: $0) }
        filter("packedonlyfilter") { PackedOnlyFilter(properties: $0) }
        filter("callbacklessfilter") { CallbacklessFilter(properties: $0) }
        try! MediaIOElements.registerSource(
            name: "mismatchedsrc", longName: "Mismatched source", description: "Test source", formats: [.gray8],
            properties: properties
        ) { MismatchedSource(properties: $0) }
    }()

    private static func sink<Sink: VideoSink>(_ name: String, _ make: @escaping @Sendable (ElementProperties) -> Sink) {
        try! MediaIOElements.registerSink(
            name: name, longName: name, description: "Test sink", formats: [.gray8], properties: properties, make: make)
    }

    private static func filter<Filter: VideoFilter>(
        _ name: String, _ make: @escaping @Sendable (ElementProperties) -> Filter
    ) {
        try! MediaIOElements.registerFilter(
            name: name, longName: name, description: "Test filter", sinkFormats: [.gray8], srcFormats: [.gray8],
            properties: properties, make: make)
    }

    static func register() {
        TestElements.register()
        _ = registered
    }
}
