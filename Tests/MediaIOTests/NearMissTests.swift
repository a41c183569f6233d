import Foundation
import MediaIO
import Testing

/// Runs `description` to its end; returns the error it ended with (nil at end of stream) and every
/// warning posted before.
private func runCollectingWarnings(_ description: String) async throws -> (
    error: GStreamerError?, warnings: [GStreamerError]
) {
    NearMissElements.register()
    let pipeline = try Pipeline(launch: description)
    defer { pipeline.stop() }
    let messages = pipeline.messages
    try pipeline.play()
    var warnings: [GStreamerError] = []
    for await message in messages {
        switch message {
        case .warning(let warning): warnings.append(warning)
        case .error(let error): return (error, warnings)
        case .endOfStream: return (nil, warnings)
        default: continue
        }
    }
    return (nil, warnings)
}

/// Five GRAY8 frames, 6x4 (rows padded to 8 bytes in GStreamer's buffers, 24 bytes packed), of a
/// pattern whose bytes differ from frame to frame.
private let input = "videotestsrc num-buffers=5 pattern=ball ! video/x-raw,format=GRAY8,width=6,height=4,framerate=25/1"

/// The bytes every frame of `input` has, packed, in order.
private func inputFrames() async throws -> [[UInt8]] {
    let pipeline = try Pipeline(launch: input + " ! appsink name=out sync=false")
    defer { pipeline.stop() }
    let frames = try pipeline.frames(fromAppSink: "out")
    try pipeline.play()
    var bytes: [[UInt8]] = []
    for try await frame in frames { bytes.append(try frame.packedBytes()) }
    return bytes
}

@Suite(
    "Near misses: a bufferType naming a callback the type does not implement is served and said; no callback fails",
    .bounded)
struct NearMissTests {
    /// A sink or filter that implements only the callback its bufferType does not name, the callback it
    /// implements, and the warning its element posts.
    static let servedByTheOther: [(factory: String, callback: String, warning: String)] = [
        (
            "rawtypedframesink", "render",
            "RawTypedFrameSink implements render(_:) but not renderRawData(_:format:timestamp:rotation:), the "
                + "callback its bufferType .rawData names: its frames go to render(_:). Set its bufferType to "
                + ".pixelBuffer to say so."
        ),
        (
            "packedonlysink", "renderRawData",
            "PackedOnlySink implements renderRawData(_:format:timestamp:rotation:) but not render(_:), the callback "
                + "its bufferType .pixelBuffer names: its frames go to renderRawData(_:format:timestamp:rotation:). "
                + "Set its bufferType to .rawData to say so."
        ),
        (
            "rawtypedframefilter", "render",
            "RawTypedFrameFilter implements render(_:) but not renderRawData(_:format:timestamp:rotation:), the "
                + "callback its bufferType .rawData names: its frames go to render(_:). Set its bufferType to "
                + ".pixelBuffer to say so."
        ),
        (
            "packedonlyfilter", "renderRawData",
            "PackedOnlyFilter implements renderRawData(_:format:timestamp:rotation:) but not render(_:), the "
                + "callback its bufferType .pixelBuffer names: its frames go to "
                + "renderRawData(_:format:timestamp:rotation:). Set its bufferType to .rawData to say so."
        )
    ]

    @Test(
        "A bufferType naming the callback a sink or filter lacks: every frame goes to the one it has, one warning",
        arguments: servedByTheOther)
    func servedByTheOtherCallback(factory: String, callback: String, warning: String) async throws {
        // A filter hands each frame on (as a frame, or as the bytes it got) to a recording sink.
        let downstream = factory.hasSuffix("filter") ? " ! recordingsink tag=nm-\(factory)-out" : ""
        let (error, warnings) = try await runCollectingWarnings(
            input + " ! \(factory) name=near-\(factory) tag=nm-\(factory)\(downstream) sync=false")
        #expect(error == nil)
        let expected = try await inputFrames()
        let calls = NearMissLog.calls("nm-\(factory)")
        #expect(calls.map(\.callback) == Array(repeating: callback, count: 5))
        #expect(calls.map(\.bytes) == expected)
        #expect(warnings.map(\.source) == ["near-\(factory)"])
        #expect(warnings.map(\.message) == [warning])
        if !downstream.isEmpty {
            let output = RecordingSink.frames.withLock { $0["nm-\(factory)-out"] ?? [] }
            #expect(output.map(\.bytes) == expected)
            #expect(output.map(\.timestamp) == (0..<5).map { $0 * 40_000_000 })
        }
    }

    /// A sink or filter that implements neither callback, whether its bufferType says `.rawData`, and the
    /// error its element fails with.
    static let neitherImplemented: [(factory: String, raw: Bool, error: String)] = [
        (
            "misspeltsink", false,
            "MisspeltSink implements neither render(_:) nor renderRawData(_:format:timestamp:rotation:), so its frames "
                + "have nowhere to go: write `func render(_ frame: VideoFrame) throws`, the callback its bufferType "
                + ".pixelBuffer names (a method whose labels or parameter types differ is not it)."
        ),
        (
            "misspeltsink", true,
            "MisspeltSink implements neither render(_:) nor renderRawData(_:format:timestamp:rotation:), so its frames "
                + "have nowhere to go: write `func renderRawData(_ bytes: UnsafeRawBufferPointer, format: "
                + "VideoFrameFormat, timestamp: ClockTime, rotation: VideoRotation) throws`, the callback its bufferType "
                + ".rawData names (a method whose labels or parameter types differ is not it)."
        ),
        (
            "callbacklessfilter", false,
            "CallbacklessFilter implements neither render(_:) nor renderRawData(_:format:timestamp:rotation:), so its "
                + "frames have nowhere to go: write `func render(_ frame: VideoFrame) throws`, the callback its "
                + "bufferType .pixelBuffer names (a method whose labels or parameter types differ is not it)."
        )
    ]

    @Test(
        "A sink or filter with neither callback (a misspelt label) fails on its first frame, naming the one to write",
        arguments: neitherImplemented)
    func neitherCallback(factory: String, raw: Bool, error expected: String) async throws {
        let tag = "nm-\(factory)-\(raw)"
        let downstream = factory.hasSuffix("filter") ? " ! recordingsink tag=\(tag)-out" : ""
        let (error, _) = try await runCollectingWarnings(
            input + " ! \(factory) name=\(factory) tag=\(tag) raw=\(raw)\(downstream) sync=false")
        let failure = try #require(error)
        #expect(failure.source == factory)
        #expect(failure.message == expected)
        #expect(NearMissLog.calls(tag).isEmpty)
        #expect(RecordingSink.frames.withLock { $0[tag + "-out"] } == nil)
    }

    @Test(
        "A sink that implements both callbacks gets frames only through the one its bufferType names, with no warning")
    func sinkWithBoth() async throws {
        let (error, warnings) = try await runCollectingWarnings(input + " ! bothcallbackssink tag=nm-both sync=false")
        #expect(error == nil)
        #expect(warnings.isEmpty)
        let calls = NearMissLog.calls("nm-both")
        #expect(calls.map(\.callback) == Array(repeating: "renderRawData", count: 5))
        #expect(calls.map(\.bytes) == (try await inputFrames()))
    }

    @Test("A render(_:) that calls another sink's default render(_:) still counts as implemented")
    func delegatingSink() async throws {
        let (error, warnings) = try await runCollectingWarnings(input + " ! delegatingsink tag=nm-delegate sync=false")
        #expect(error == nil)
        #expect(warnings.isEmpty)
        // Only its own render(_:): the inner sink's default render(_:) does nothing when called directly.
        #expect(NearMissLog.calls("nm-delegate").map(\.callback) == Array(repeating: "render", count: 5))
    }

    @Test(
        "A source's consumer takes frames either way, whatever its bufferType says: every frame arrives, no warning",
        arguments: [true, false])
    func mismatchedSource(pooled: Bool) async throws {
        let (error, warnings) = try await runCollectingWarnings(
            "mismatchedsrc pooled=\(pooled) frames=4 ! recordingsink tag=nm-source-\(pooled) sync=false")
        #expect(error == nil)
        #expect(warnings.isEmpty)
        let frames = RecordingSink.frames.withLock { $0["nm-source-\(pooled)"] ?? [] }
        #expect(frames.map(\.bytes) == (0..<4).map { [UInt8](repeating: UInt8($0), count: 8) })
        #expect(frames.map(\.timestamp) == (0..<4).map { $0 * 40_000_000 })
    }

    @Test("Called directly, outside an element, the default callbacks still do nothing and throw nothing")
    func defaultsCalledDirectly() throws {
        final class Bare: VideoSink {
            var pixelFormat: VideoPixelFormat { .gray8 }
        }
        let sink = Bare()
        let frame = try VideoFrame(format: .gray8, width: 2, height: 2, timestamp: 0)
        #expect(throws: Never.self) { try sink.render(frame) }
        #expect(throws: Never.self) {
            try [UInt8](repeating: 0, count: 4).withUnsafeBytes {
                try sink.renderRawData($0, format: frame.format, timestamp: 0, rotation: .none)
            }
        }
    }
}
