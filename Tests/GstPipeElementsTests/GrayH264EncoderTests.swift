import Foundation
import GstPipeElements
import MediaIO
import Testing

@Suite("x264grayenc writes gray video as monochrome H.264", .bounded)
struct GrayH264EncoderTests {
    /// The caps h264parse gives the stream in `file` (MP4): they carry the SPS's chroma format.
    static func parsedCaps(_ file: URL) async throws -> Caps {
        let pipeline = try Pipeline(
            launch: "filesrc location=\(file.path) ! qtdemux ! h264parse ! appsink name=out sync=false")
        let samples = try pipeline.samples(fromAppSink: "out")
        try pipeline.play()
        defer { pipeline.stop() }
        var iterator = samples.makeAsyncIterator()
        let first = try #require(await iterator.next())
        return try #require(first.caps)
    }

    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-\(name)-\(UUID()).mp4")
    }

    @Test(
        "crf=0 is lossless: every frame decodes to the input's luma, with its timestamp, at sizes x264 pads",
        arguments: [(320, 240, "I420"), (294, 240, "I420"), (161, 121, "GRAY8"), (98, 66, "NV12")])
    func lossless(width: Int, height: Int, format: String) async throws {
        let file = Self.temporary("lossless")
        defer { try? FileManager.default.removeItem(at: file) }
        let source =
            "noise seed=5 num-buffers=12 ! video/x-raw,format=\(format),width=\(width),height=\(height),framerate=30/1"
        try GstPipeElements.register()
        try await Pipeline(
            launch: "\(source) ! gray ! x264grayenc crf=0 ! h264parse ! mp4mux ! filesink location=\(file.path)"
        ).run()
        let input = try await captureFrames("\(source) ! gray ! appsink name=out sync=false")
        let decoded = try await captureFrames(
            "filesrc location=\(file.path) ! qtdemux ! h264parse ! avdec_h264 ! appsink name=out sync=false")
        try #require(decoded.count == 12, "\(width)x\(height) \(format)")
        for (before, after) in zip(input, decoded) {
            #expect(after.format.width == width && after.format.height == height)
            #expect(after.timestamp == before.timestamp)
            #expect(after.planes[0] == before.planes[0], "luma at \(before.timestamp) ns, \(width)x\(height)")
        }
        let caps = try await Self.parsedCaps(file)
        #expect(caps.string("chroma-format") == "4:0:0", "\(caps)")
    }

    @Test("Defaults (crf 23, medium, B-frames): High profile 4:0:0, every frame of a demuxed file, close to the input")
    func defaults() async throws {
        let input = Self.temporary("input")
        let output = Self.temporary("output")
        defer { [input, output].forEach { try? FileManager.default.removeItem(at: $0) } }
        try GstPipeElements.register()
        try await Pipeline(
            launch:
                "videotestsrc num-buffers=50 pattern=ball ! video/x-raw,format=I420,width=320,height=240,framerate=25/1 "
                + "! x264enc speed-preset=ultrafast ! mp4mux ! filesink location=\(input.path)"
        ).run()
        // qtdemux's segment stops at the clip's end, and the last frames leave the encoder in decoding
        // order, after frames shown later: all must still reach the file.
        try await Pipeline(
            launch: "filesrc location=\(input.path) ! qtdemux ! h264parse ! avdec_h264 ! gray ! x264grayenc "
                + "! h264parse ! mp4mux ! filesink location=\(output.path)"
        ).run()
        let before = try await captureFrames(
            "filesrc location=\(input.path) ! qtdemux ! h264parse ! avdec_h264 ! appsink name=out sync=false")
        let after = try await captureFrames(
            "filesrc location=\(output.path) ! qtdemux ! h264parse ! avdec_h264 ! appsink name=out sync=false")
        #expect(after.count == 50)
        // qtdemux shows the first frame at the B-frame delay (two frames here), for x264enc's files as
        // for these: mp4mux keeps decoding times from zero. Every frame moves by the same amount.
        let shifts = Set(zip(after, before).map { Int64($0.timestamp) - Int64($1.timestamp) })
        #expect(shifts.count == 1 && shifts.first.map { (0...200_000_000).contains($0) } == true, "\(shifts)")
        for (original, encoded) in zip(before, after) {
            let error = zip(original.planes[0], encoded.planes[0]).map { abs(Int($0) - Int($1)) }
            let mean = Double(error.reduce(0, +)) / Double(error.count)
            #expect(mean < 2, "mean luma error \(mean) at \(original.timestamp) ns")
        }
        let caps = try await Self.parsedCaps(output)
        #expect(caps.string("chroma-format") == "4:0:0")
        #expect(caps.string("profile") == "high")
    }

    @Test("Stream format by what downstream takes: a byte stream where it can, avc with codec_data for a muxer")
    func streamFormat() async throws {
        try GstPipeElements.register()
        for (downstream, format) in [("", "byte-stream"), ("video/x-h264,stream-format=avc ! ", "avc")] {
            let pipeline = try Pipeline(
                launch: "videotestsrc num-buffers=3 ! video/x-raw,format=I420,width=64,height=48 ! x264grayenc ! "
                    + "\(downstream)appsink name=out sync=false")
            let samples = try pipeline.samples(fromAppSink: "out")
            try pipeline.play()
            var iterator = samples.makeAsyncIterator()
            let caps = try #require(await iterator.next()?.caps)
            pipeline.stop()
            #expect(caps.string("stream-format") == format)
            #expect(caps.description.contains("codec_data=(buffer)01640") == (format == "avc"), "\(caps)")
        }
    }

    /// Without a frame rate in the caps, h264parse would give every frame the SPS's 1 ns tick as its
    /// duration; the muxer's last sample would then last nothing, and players drop it.
    @Test("Variable frame rate into MP4: the file lasts to the end of its last frame")
    func lastFrameDuration() async throws {
        let file = Self.temporary("vfr")
        defer { try? FileManager.default.removeItem(at: file) }
        try GstPipeElements.register()
        try await Pipeline(
            launch: "videotestsrc num-buffers=20 ! video/x-raw,format=I420,width=64,height=48,framerate=25/1 "
                + "! capssetter caps=video/x-raw,framerate=(fraction)0/1 ! gray ! x264grayenc ! mp4mux "
                + "! filesink location=\(file.path)"
        ).run()
        let info = try MediaInfo.discover(uri: file.absoluteString)
        let duration = try #require(info.duration)
        #expect((799_000_000...801_000_000).contains(duration), "\(duration) ns for 20 frames of 40 ms")
    }

    @Test("A resolution switch mid-stream starts a new stream at the new size, every frame kept")
    func resolutionSwitch() async throws {
        let segments = [(64, 48, 2), (97, 33, 3), (32, 24, 2)].enumerated().map { index, size in
            "noise seed=\(index + 1) num-buffers=\(size.2) ! video/x-raw,format=I420,width=\(size.0),height=\(size.1) ! c."
        }.joined(separator: " ")
        let frames = try await captureFrames(
            "concat name=c ! gray ! x264grayenc ! h264parse ! avdec_h264 ! appsink name=out sync=false \(segments)")
        #expect(frames.map(\.format.width) == [64, 64, 97, 97, 97, 32, 32])
        #expect(frames.map(\.format.height) == [48, 48, 33, 33, 33, 24, 24])
    }

    /// concat gives each input a segment of its own, with timestamps from zero again: x264 takes only
    /// increasing ones, so the frames it holds go out before a new stream starts.
    @Test("Inputs of one size one after the other (time going back): every frame of each, in order")
    func timeGoingBack() async throws {
        let segments = (1...2).map { seed in
            "noise seed=\(seed) num-buffers=10 ! video/x-raw,format=I420,width=64,height=48,framerate=30/1 ! c."
        }.joined(separator: " ")
        let frames = try await captureFrames(
            "concat name=c ! gray ! x264grayenc crf=0 ! h264parse ! avdec_h264 ! appsink name=out sync=false \(segments)"
        )
        let inputs = try await captureFrames("concat name=c ! gray ! appsink name=out sync=false \(segments)")
        try #require(frames.count == 20)
        // Each segment's timestamps from zero (x264grayenc's are 1000 hours on), at 30 frames a second.
        let frameTimes = frames.map { ($0.timestamp % 3_600_000_000_000) / 33_333_333 }
        #expect(frameTimes == Array(0..<10) + Array(0..<10))
        for (index, (input, output)) in zip(inputs, frames).enumerated() {
            #expect(output.planes[0] == input.planes[0], "frame \(index)")
        }
    }

    @Test(
        "Live, the pipeline's latency includes the frames x264 holds (none with tune=zerolatency)",
        arguments: [("", 1_600_000_000...4_000_000_000), ("tune=zerolatency", 40_000_000...40_000_000)]
            as [(String, ClosedRange<ClockTime>)])
    func latency(tune: String, expected: ClosedRange<ClockTime>) async throws {
        try GstPipeElements.register()
        let pipeline = try Pipeline(
            launch: "videotestsrc is-live=true ! video/x-raw,format=I420,width=160,height=120,framerate=25/1 ! gray "
                + "! x264grayenc \(tune) ! appsink name=out")
        let samples = try pipeline.samples(fromAppSink: "out")
        try pipeline.play()
        defer { pipeline.stop() }
        // The delay is known once the caps are: by the first output frame.
        var iterator = samples.makeAsyncIterator()
        _ = try #require(await iterator.next())
        let latency = try #require(pipeline.element(named: "out")?.pad(named: "sink")?.peerLatency)
        #expect(latency.live)
        // videotestsrc adds one frame (40 ms); x264 at the medium preset holds its 40-frame lookahead
        // and more; zerolatency holds none.
        #expect(expected.contains(latency.minimum), "\(latency.minimum) ns")
    }

    /// GStreamer's encoders start a new stream when they go to READY; frames x264 held from before must
    /// not come out in the next run, even when its timestamps carry on upwards.
    @Test("Down to READY mid-stream and up again: only the new run's frames come out, from a key frame")
    func restartFromReady() async throws {
        try GstPipeElements.register()
        // The valve keeps the first run's output from the appsink: GStreamer 1.22's appsink keeps samples
        // queued across READY, and they would come out first in the second run.
        let pipeline = try Pipeline(
            launch: "videotestsrc name=src ! video/x-raw,format=I420,width=64,height=48,framerate=25/1 "
                + "! identity name=counter sleep-time=20000 ! x264grayenc ! valve name=gate drop=true "
                + "! appsink name=out sync=false")
        defer { pipeline.stop() }
        let counted = try #require(pipeline.element(named: "counter")?.pad(named: "src")).countBuffers()
        try pipeline.play()
        // x264 holds the frames that went in (its lookahead at the medium preset is 40 frames); past 40
        // some have come out too.
        let deadline = Date().addingTimeInterval(5)
        while counted.count < 60 && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try #require(counted.count >= 8)
        _ = try pipeline.setState(.ready)
        // The next run starts 10 s later in stream time and has 5 frames.
        let source = try #require(pipeline.element(named: "src"))
        try source.set("timestamp-offset", fromString: "10000000000")
        try source.set("num-buffers", 5)
        try #require(pipeline.element(named: "gate")).set("drop", false)
        let samples = try pipeline.samples(fromAppSink: "out")
        try pipeline.play()
        var outputs: [Buffer] = []
        for try await sample in samples { outputs.append(try #require(sample.buffer)) }
        // Output timestamps are 1000 hours on, as x264enc's (room for B-frames' earlier decoding times).
        let times = outputs.compactMap(\.pts).map { Double($0) / 1e9 - 3_600_000 }
        #expect(times.count == 5 && times.allSatisfy { $0 >= 10 }, "\(times) s")
        #expect(outputs.first?.isDeltaUnit == false)
    }

    @Test("A timestamp past what x264 counts (gint64 less the output's offset) is an error naming it, not a trap")
    func timestampPastGInt64() async throws {
        try GstPipeElements.register()
        let pipeline = try Pipeline(
            launch: "videotestsrc timestamp-offset=9223372036854775000 num-buffers=3 ! video/x-raw,format=GRAY8 "
                + "! x264grayenc name=enc ! fakesink")
        let error = try await #require(throws: GStreamerError.self) { try await pipeline.run() }
        pipeline.stop()
        #expect(
            error.message.hasPrefix("enc: a frame at 9223372036854775000 ns is past the latest time x264 counts ("),
            "\(error.message)")
    }

    @Test("An unknown preset fails the start with a message naming the presets there are")
    func unknownPreset() async throws {
        try GstPipeElements.register()
        let pipeline = try Pipeline(
            launch: "videotestsrc num-buffers=1 ! x264grayenc name=enc speed-preset=fastest ! fakesink")
        let error = try #require(throws: GStreamerError.self) { try pipeline.play() }
        pipeline.stop()
        #expect(
            error.message == "enc: unknown speed-preset \"fastest\"; use one of ultrafast, superfast, veryfast, "
                + "faster, fast, medium, slow, slower, veryslow, placebo")
    }
}
