import Foundation
import GstPipeSupport
import MediaIO
import Synchronization

/// Lifecycle calls, recorded per element tag, in order.
final class LifecycleLog: Sendable {
    static let shared = LifecycleLog()
    private let entries = Locked<[String: [String]]>([:])

    func record(_ tag: String, _ call: String) {
        entries.withLock { $0[tag, default: []].append(call) }
    }

    func calls(_ tag: String) -> [String] {
        entries.withLock { $0[tag] ?? [] }
    }
}

let tagProperty = PropertySpec("tag", blurb: "Name under which lifecycle calls are recorded", .string(default: nil))

/// A pull-mode source of GRAY8 frames whose pixel (x, y) of frame n is (x + 3y + 7n) mod 256.
final class PatternSource: VideoSource {
    let properties: ElementProperties
    private let state = Locked<(consumer: (any VideoFrameConsumer)?, index: Int)>((nil, 0))

    init(properties: ElementProperties) { self.properties = properties }

    var tag: String { properties.string("tag") ?? "?" }
    var bufferType: VideoBufferType { properties.bool("raw") ? .rawData : .pixelBuffer }

    func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        LifecycleLog.shared.record(tag, "initialize")
        state.withLock { $0 = (consumer, 0) }
        return !properties.bool("refuse")
    }
    func shouldStart() { LifecycleLog.shared.record(tag, "start") }
    func shouldStop() { LifecycleLog.shared.record(tag, "stop") }
    func shouldDispose() {
        LifecycleLog.shared.record(tag, "dispose")
        state.withLock { $0 = (nil, 0) }
    }

    static func pixel(x: Int, y: Int, frame: Int) -> UInt8 { UInt8((x + 3 * y + 7 * frame) & 0xFF) }

    func produceFrame() {
        let (consumer, index) = state.withLock { state -> ((any VideoFrameConsumer)?, Int) in
            defer { state.index += 1 }
            return (state.consumer, state.index)
        }
        guard let consumer else { return }
        if index == properties.int("fail-at") {
            consumer.reportError("pattern source failed at frame \(index)")
            return
        }
        if index >= properties.int("frames") {
            consumer.endOfStream()
            return
        }
        let switchAt = properties.int("switch-at")
        let width = switchAt >= 0 && index >= switchAt ? properties.int("switch-width") : properties.int("width")
        let height = properties.int("height")
        let rate = VideoFrameRate(25)
        let format = VideoFrameFormat(pixelFormat: .gray8, width: width, height: height, frameRate: rate)
        var packed = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { packed[y * width + x] = PatternSource.pixel(x: x, y: y, frame: index) }
        }
        if bufferType == .rawData {
            packed.withUnsafeBytes {
                _ = consumer.consumeRawData(
                    $0, timestamp: rate.timestamp(ofFrame: index), format: format, rotation: .none)
            }
            return
        }
        do {
            let frame = try consumer.makeFrame(
                format: format, timestamp: rate.timestamp(ofFrame: index), duration: rate.frameDuration)
            try frame.withMutablePlanes { planes in
                for y in 0..<height {
                    for x in 0..<width { planes[0].bytes[y * planes[0].bytesPerRow + x] = packed[y * width + x] }
                }
            }
            consumer.consume(frame)
        } catch {
            consumer.reportError("\(error)")
        }
    }

    static let propertySpecs: [PropertySpec] = [
        tagProperty,
        PropertySpec("frames", blurb: "Frames before EOS", .int(range: 0...1_000_000, default: 5)),
        PropertySpec("width", blurb: "Width", .int(range: 1...4096, default: 5)),
        PropertySpec("height", blurb: "Height", .int(range: 1...4096, default: 3)),
        PropertySpec("raw", blurb: "Hand frames over as raw data", .bool(default: false)),
        PropertySpec(
            "switch-at", blurb: "Frame from which the width changes (-1 = never)", .int(range: -1...1000, default: -1)),
        PropertySpec("switch-width", blurb: "Width from switch-at on", .int(range: 1...4096, default: 9)),
        PropertySpec("refuse", blurb: "Return false from shouldInitialize", .bool(default: false)),
        PropertySpec(
            "fail-at", blurb: "Frame at which to report an error (-1 = never)", .int(range: -1...1_000_000, default: -1)
        )
    ]
}

/// A filter that passes every frame on untouched and records lifecycle calls and buffer identities.
final class PassThrough: VideoFilter {
    let properties: ElementProperties
    private let consumer = Locked<(any VideoFrameConsumer)?>(nil)
    private let passed = Locked(0)
    static let seen = Locked<[String: [(input: UInt, output: UInt?)]]>([:])

    init(properties: ElementProperties) { self.properties = properties }
    deinit { LifecycleLog.shared.record(tag + ".deinit", "deinit") }
    var tag: String { properties.string("tag") ?? "?" }
    var pixelFormat: VideoPixelFormat { .gray8 }
    var acceptedPixelFormats: [VideoPixelFormat] { VideoPixelFormat.allCases }

    func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        LifecycleLog.shared.record(tag, "initialize")
        self.consumer.withLock { $0 = consumer }
        return true
    }
    func shouldStart() { LifecycleLog.shared.record(tag, "start") }
    func shouldStop() {
        LifecycleLog.shared.record(tag, "stop")
        guard properties.bool("stop-waits") else { return }
        // A stop that waits for the streaming thread to hand over one more frame, as a renderer
        // draining its queue would.
        rendersDuringStop.withLock { $0 = 0 }
        stopping.withLock { $0 = true }
        // Generous: the whole suite runs encodes in other processes on the same two cores.
        let deadline = ContinuousClock.now + .seconds(10)
        while rendersDuringStop.withLock({ $0 }) == 0 && ContinuousClock.now < deadline { usleep(1000) }
        stopping.withLock { $0 = false }
        LifecycleLog.shared.record(tag, rendersDuringStop.withLock { $0 } > 0 ? "stop-saw-a-frame" : "stop-timed-out")
    }
    private let stopping = Locked(false)
    private let rendersDuringStop = Locked(0)
    func shouldDispose() { LifecycleLog.shared.record(tag, "dispose") }

    func render(_ frame: VideoFrame) throws {
        if stopping.withLock({ $0 }) { rendersDuringStop.withLock { $0 += 1 } }
        if properties.bool("fail") { throw MediaIOError("render failed on purpose") }
        guard let consumer = consumer.withLock({ $0 }) else { return }
        // eos-after: end this element's output after that many frames and drop the rest, returning
        // normally, so upstream (a tee) keeps feeding its other branches.
        let limit = properties.int("eos-after")
        let index = passed.withLock { count in
            defer { count += 1 }
            return count
        }
        if limit >= 0 && index >= limit {
            if index == limit { consumer.endOfStream() }
            return
        }
        consumer.consume(frame)
    }

    static let propertySpecs: [PropertySpec] = [
        tagProperty, PropertySpec("fail", blurb: "Throw from render", .bool(default: false)),
        PropertySpec(
            "eos-after", blurb: "Frames after which to end the stream (-1 = never)",
            .int(range: -1...1_000_000, default: -1)),
        PropertySpec("stop-waits", blurb: "shouldStop waits (10 s at most) for one more frame", .bool(default: false))
    ]
}

/// A sink that records lifecycle calls and the frames it renders (packed bytes and timestamps).
final class RecordingSink: VideoSink {
    let properties: ElementProperties
    static let frames = Locked<[String: [(bytes: [UInt8], timestamp: ClockTime, format: VideoFrameFormat)]]>([:])

    init(properties: ElementProperties) { self.properties = properties }
    var tag: String { properties.string("tag") ?? "?" }
    var pixelFormat: VideoPixelFormat { .gray8 }
    var bufferType: VideoBufferType { properties.bool("raw") ? .rawData : .pixelBuffer }

    func shouldInitialize() -> Bool {
        LifecycleLog.shared.record(tag, "initialize")
        return true
    }
    func shouldStart() { LifecycleLog.shared.record(tag, "start") }
    func shouldStop() { LifecycleLog.shared.record(tag, "stop") }
    func shouldDispose() { LifecycleLog.shared.record(tag, "dispose") }

    /// Throws at the frame numbered `fail-at` (counting this sink's frames from 0).
    private func checkFailure() throws {
        let count = RecordingSink.frames.withLock { $0[tag]?.count ?? 0 }
        if count == properties.int("fail-at") { throw MediaIOError("recording sink refused frame \(count)") }
    }

    func render(_ frame: VideoFrame) throws {
        try checkFailure()
        let bytes = try frame.packedBytes()
        RecordingSink.frames.withLock { $0[tag, default: []].append((bytes, frame.timestamp, frame.format)) }
    }

    func renderRawData(
        _ bytes: UnsafeRawBufferPointer, format: VideoFrameFormat, timestamp: ClockTime, rotation: VideoRotation
    ) throws {
        try checkFailure()
        RecordingSink.frames.withLock {
            $0[tag, default: []].append((Array(bytes.bindMemory(to: UInt8.self)), timestamp, format))
        }
    }

    static let propertySpecs: [PropertySpec] = [
        tagProperty, PropertySpec("raw", blurb: "Receive raw data", .bool(default: false)),
        PropertySpec(
            "fail-at", blurb: "Frame at which render throws (-1 = never)", .int(range: -1...1_000_000, default: -1))
    ]
}

enum TestElements {
    static let registered: Void = {
        try! MediaIOElements.registerSource(
            name: "patternsrc", longName: "Pattern", description: "Test pattern", formats: [.gray8],
            properties: PatternSource.propertySpecs
        ) { PatternSource(properties: $0) }
        try! MediaIOElements.registerFilter(
            name: "passthrough", longName: "Pass through", description: "Test filter",
            properties: PassThrough.propertySpecs
        ) { PassThrough(properties: $0) }
        try! MediaIOElements.registerSink(
            name: "recordingsink", longName: "Recorder", description: "Test sink", formats: [.gray8],
            properties: RecordingSink.propertySpecs
        ) { RecordingSink(properties: $0) }
    }()

    static func register() { _ = registered }
}

/// Runs a pipeline to end of stream; returns the first error instead of throwing, for assertions.
func runToEnd(_ description: String) async throws -> GStreamerError? {
    TestElements.register()
    let pipeline = try Pipeline(launch: description)
    do {
        try await pipeline.run()
        return nil
    } catch {
        return error
    }
}
