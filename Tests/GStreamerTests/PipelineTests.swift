import Foundation
import GStreamer
import Testing

@Suite("Swift core over GStreamer", .bounded)
struct PipelineTests {
    @Test("Initialization is idempotent and reports the library version")
    func initialize() throws {
        try GStreamer.initialize()
        try GStreamer.initialize()
        #expect(GStreamer.version.hasPrefix("1."))
        #expect(GStreamer.hasElement(named: "videotestsrc"))
        #expect(!GStreamer.hasElement(named: "nosuchelement"))
    }

    @Test("A description GStreamer cannot construct throws GStreamer's own message")
    func syntaxErrors() throws {
        #expect(
            throws: GStreamerError(
                kind: .syntax, message: "no element \"nosuchelement\"", domain: "gst_parse_error", code: 1)
        ) {
            _ = try Pipeline(launch: "videotestsrc ! nosuchelement")
        }
        do {
            _ = try Pipeline(launch: "videotestsrc ! ! fakesink")
            Issue.record("a syntax error was accepted")
        } catch {
            #expect(error.message == "syntax error")
            #expect(error.kind == .syntax)
        }
    }

    @Test("Arguments are joined the way gst-launch-1.0 joins them: one argument, one token")
    func launchArguments() async throws {
        let pipeline = try Pipeline(arguments: ["videotestsrc", "num-buffers=3", "!", "fakesink", "name=my sink"])
        #expect(pipeline.element(named: "my sink") != nil)
        try await pipeline.run()
    }

    @Test("Typed properties: get and set ints, bools, strings, enums and caps")
    func properties() throws {
        let pipeline = try Pipeline(launch: "videotestsrc name=src ! capsfilter name=filter ! fakesink name=sink")
        let source = try #require(pipeline.element(named: "src"))
        try source.set("num-buffers", 12)
        #expect(try source.get("num-buffers") == .int(12))
        try source.set("pattern", fromString: "snow")
        #expect(try source.get("pattern").stringValue == "snow")
        try source.set("is-live", true)
        #expect(try source.get("is-live") == .bool(true))
        let filter = try #require(pipeline.element(named: "filter"))
        try filter.set("caps", PropertyValue.caps("video/x-raw, width=(int)8"))
        #expect(try filter.get("caps") == .caps("video/x-raw, width=(int)8"))
        #expect(throws: GStreamerError.self) { try source.set("no-such-property", 1) }
        #expect(throws: GStreamerError.self) { try source.set("num-buffers", "many") }
        #expect(source.factoryName == "videotestsrc")
    }

    @Test("Bus messages arrive as an AsyncSequence: state changes, then end of stream")
    func busMessages() async throws {
        let pipeline = try Pipeline(launch: "videotestsrc num-buffers=2 ! fakesink")
        let messages = pipeline.messages
        try pipeline.play()
        var sawPlaying = false
        for await message in messages {
            if case .stateChanged(let source, _, .playing, _) = message, source == pipeline.name { sawPlaying = true }
            if case .endOfStream = message { break }
        }
        #expect(sawPlaying)
        pipeline.stop()
        #expect(pipeline.state().current == .null)
    }

    @Test("A runtime error names the element and carries GStreamer's message")
    func runtimeError() async throws {
        let pipeline = try Pipeline(launch: "filesrc name=reader location=/nonexistent/file ! fakesink")
        do {
            try await pipeline.run()
            Issue.record("reading a missing file succeeded")
        } catch {
            #expect(error.source == "reader")
            #expect(error.message.contains("not found") || error.message.contains("Could not open"))
        }
    }

    @Test("Caps: parse, read fields, intersect, fixate")
    func caps() throws {
        let caps = try Caps("video/x-raw, format=(string){ I420, NV12 }, width=(int)[ 1, 100 ], height=(int)50")
        #expect(caps.mediaType == "video/x-raw")
        #expect(!caps.isFixed)
        let fixed = try caps.fixated(preferring: ["width": .int(64)])
        #expect(fixed.isFixed)
        #expect(fixed.string("format") == "I420")
        #expect(fixed.int("width") == 64)
        #expect(fixed.int("height") == 50)
        #expect(caps.intersect(try Caps("video/x-raw, format=NV12")).string("format") == "NV12")
        #expect(throws: GStreamerError.self) { try Caps("not caps at all ((") }
    }

    @Test("VideoInfo: GStreamer strides pad rows to 4 bytes; odd sizes round chroma up")
    func videoInfo() throws {
        let info = try VideoInfo(format: "I420", width: 321, height: 241)
        #expect(info.planeCount == 3)
        #expect(info.strides == [324, 164, 164])
        #expect(info.planeHeight(1) == 121)
        #expect(info.planeRowBytes(1) == 161)
        let gray = try VideoInfo(format: "GRAY8", width: 5, height: 3)
        #expect(gray.strides == [8])
        #expect(gray.size == 24)
        let rgb = try VideoInfo(format: "RGB", width: 5, height: 2)
        #expect(rgb.strides == [16])
        #expect(try VideoInfo(caps: rgb.caps).strides == [16])
    }

    @Test("A mapped frame follows the buffer's GstVideoMeta strides, not the caps' defaults")
    func videoMeta() throws {
        var padded = try VideoInfo(format: "GRAY8", width: 5, height: 3)
        padded.strides = [16]
        let buffer = try Buffer(size: 16 * 3)
        try buffer.withMutableBytes { bytes in
            for index in 0..<bytes.count { bytes[index] = UInt8(index) }
        }
        try buffer.addVideoMeta(padded)
        buffer.pts = 40
        let defaults = try VideoInfo(format: "GRAY8", width: 5, height: 3)
        let rows = try buffer.withVideoFrame(defaults) { frame in
            try frame.withPlane(0) { bytes, stride in
                (0..<3).map { row in Array(bytes[row * stride..<row * stride + 5]) }
            }
        }
        #expect(rows == [[0, 1, 2, 3, 4], [16, 17, 18, 19, 20], [32, 33, 34, 35, 36]])
        #expect(buffer.pts == 40)
        #expect(buffer.duration == nil)
    }

    /// GStreamer 1.22's appsink keeps unread samples across READY; the sequence made for the next run takes
    /// them first and does not wait for announcements that never come (it hung when they filled it).
    @Test(
        "Samples left in an appsink by an earlier run (down to READY, up again) come first, then the new run's",
        .timeLimit(.minutes(1)))
    func samplesAfterReady() async throws {
        let pipeline = try Pipeline(
            launch: "videotestsrc name=src num-buffers=12 ! video/x-raw,width=16,height=16,framerate=25/1 "
                + "! appsink name=out sync=false")
        defer { pipeline.stop() }
        // The first run: 12 frames that nobody reads. (Its end of stream waits inside appsink for them to be
        // read, so it never reaches the bus: watch for it at the pad.)
        let ended = try #require(pipeline.element(named: "out")?.pad(named: "sink")).watchEndOfStream()
        try pipeline.play()
        try #require(await ended.wait(timeout: .seconds(20)))
        _ = try pipeline.setState(.ready)
        let source = try #require(pipeline.element(named: "src"))
        try source.set("timestamp-offset", fromString: "10000000000")
        try source.set("num-buffers", 5)
        let samples = try pipeline.samples(fromAppSink: "out", capacity: 4)
        try pipeline.play()
        var times: [ClockTime] = []
        for try await sample in samples { times.append(try #require(sample.buffer?.pts)) }
        // The first run's frames (from 0 s, 25 a second), then the second run's 5 (from 10 s).
        let frame: ClockTime = 40_000_000
        let first: [ClockTime] = (0..<12).map { $0 * frame }
        let second: [ClockTime] = (0..<5).map { 10_000_000_000 + $0 * frame }
        #expect(times == first + second, "\(times)")
    }
}
