import MediaIO
import Testing

@Suite("Frames through appsrc and appsink", .bounded)
struct RoundTripTests {
    /// GRAY8 rows are padded to 4 bytes in GStreamer buffers: a width of 5 has a stride of 8.
    @Test("A source → appsink round trip keeps bytes, strides and timestamps", arguments: [false, true])
    func roundTrip(raw: Bool) async throws {
        TestElements.register()
        let pipeline = try Pipeline(
            launch: "patternsrc frames=4 width=5 height=3 raw=\(raw) ! appsink name=out sync=false")
        let frames = try pipeline.frames(fromAppSink: "out")
        try pipeline.play()
        var index = 0
        for try await frame in frames {
            #expect(frame.format.pixelFormat == .gray8)
            #expect(frame.format.width == 5 && frame.format.height == 3)
            #expect(frame.format.bytesPerRow == [8])
            #expect(frame.timestamp == UInt64(index) * 40_000_000)
            #expect(frame.duration == 40_000_000)
            let expected = (0..<3).flatMap { y in (0..<5).map { x in PatternSource.pixel(x: x, y: y, frame: index) } }
            #expect(try frame.packedBytes() == expected)
            index += 1
        }
        #expect(index == 4)
        pipeline.stop()
    }

    @Test(
        "A filter passes frames through: same bytes and timestamps, for pixel-buffer and raw-data sinks",
        arguments: [false, true])
    func throughFilter(raw: Bool) async throws {
        let tag = "roundtrip-\(raw)"
        let error = try await runToEnd(
            "patternsrc frames=3 width=7 height=5 ! passthrough ! recordingsink tag=\(tag) raw=\(raw)")
        #expect(error == nil)
        let frames = RecordingSink.frames.withLock { $0[tag] ?? [] }
        #expect(frames.count == 3)
        for (index, frame) in frames.enumerated() {
            let expected = (0..<5).flatMap { y in (0..<7).map { x in PatternSource.pixel(x: x, y: y, frame: index) } }
            #expect(frame.bytes == expected)
            #expect(frame.timestamp == UInt64(index) * 40_000_000)
            #expect(frame.format.bytesPerRow == [raw ? 7 : 8])
        }
    }

    @Test("A filter that passes frames on hands downstream the very same buffer (no copy)")
    func passThroughIsZeroCopy() async throws {
        TestElements.register()
        let pipeline = try Pipeline(
            launch: "videotestsrc num-buffers=5 ! video/x-raw,format=I420,width=64,height=48 ! tee name=t "
                + "t. ! queue ! appsink name=before sync=false "
                + "t. ! queue ! passthrough ! appsink name=after sync=false")
        let before = try pipeline.samples(fromAppSink: "before", capacity: 8)
        let after = try pipeline.samples(fromAppSink: "after", capacity: 8)
        try pipeline.play()
        async let beforeSamples = before.reduce(into: [Sample]()) { $0.append($1) }
        async let afterSamples = after.reduce(into: [Sample]()) { $0.append($1) }
        let (first, second) = try await (beforeSamples, afterSamples)
        // basesrc marks the first buffer DISCONT, which takes a new GstBuffer around the same memory.
        let a = first.map { $0.buffer!.memoryRoots }
        let b = second.map { $0.buffer!.memoryRoots }
        #expect(a.count == 5)
        #expect(a == b)
        #expect(first.dropFirst().map { $0.buffer!.identity } == second.dropFirst().map { $0.buffer!.identity })
        pipeline.stop()
    }

    @Test("A resolution switch mid-stream: new caps follow, through a filter too, with the right pixels")
    func resolutionSwitch() async throws {
        TestElements.register()
        let pipeline = try Pipeline(
            launch: "patternsrc frames=4 width=5 height=3 switch-at=2 switch-width=9 ! passthrough "
                + "! appsink name=out sync=false")
        let frames = try pipeline.frames(fromAppSink: "out")
        try pipeline.play()
        var widths: [Int] = []
        for try await frame in frames {
            let index = widths.count
            let width = frame.format.width
            widths.append(width)
            let expected = (0..<3).flatMap { y in (0..<width).map { x in PatternSource.pixel(x: x, y: y, frame: index) }
            }
            #expect(try frame.packedBytes() == expected)
        }
        pipeline.stop()
        #expect(widths == [5, 5, 9, 9])
    }

    @Test("A reader that stops early does not hang stopping the pipeline")
    func earlyBreak() async throws {
        TestElements.register()
        let pipeline = try Pipeline(
            launch: "videotestsrc ! video/x-raw,width=64,height=48 ! appsink name=out sync=false")
        let frames = try pipeline.frames(fromAppSink: "out", capacity: 2)
        try pipeline.play()
        var count = 0
        for try await _ in frames {
            count += 1
            if count == 3 { break }
        }
        pipeline.stop()
        #expect(count == 3)
        #expect(pipeline.state().current == .null)
    }
}

@Suite("Swift elements are released with their pipeline", .bounded)
struct ReleaseTests {
    @Test("Every filter instance is deinitialized once its pipeline is gone")
    func noLeak() async throws {
        TestElements.register()
        for _ in 0..<3 {
            let pipeline = try Pipeline(launch: "videotestsrc num-buffers=2 ! passthrough tag=leak ! fakesink")
            try await pipeline.run()
        }
        #expect(LifecycleLog.shared.calls("leak.deinit").count == 3)
    }
}
