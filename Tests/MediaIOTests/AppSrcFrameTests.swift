import GStreamer
import MediaIO
import Testing

@Suite("Frames pushed into an application's own appsrc", .bounded)
struct AppSrcFrameTests {
    @Test(
        "Raw GRAY8 frames 5x3 (rows padded to 8 in GStreamer) come out of the appsink pixel for pixel, with their timestamps"
    )
    func rawVideoFrames() async throws {
        let pipeline = try Pipeline(launch: "appsrc name=src format=time ! queue ! appsink name=out sync=false")
        let source = try pipeline.appSrc(named: "src")
        let frames = try pipeline.frames(fromAppSink: "out")
        try pipeline.play()
        defer { pipeline.stop() }
        let format = VideoFrameFormat(pixelFormat: .gray8, width: 5, height: 3, frameRate: VideoFrameRate(25))
        func pixels(_ index: Int) -> [UInt8] { (0..<15).map { UInt8(index * 20 + $0) } }
        for index in 0..<3 {
            let frame = try pixels(index).withUnsafeBytes {
                try VideoFrame(
                    copying: $0, format: format, timestamp: ClockTime(index) * 40_000_000, duration: 40_000_000)
            }
            #expect(try source.push(frame) == .ok)
        }
        source.endOfStream()
        var index = 0
        for try await frame in frames {
            #expect(frame.timestamp == ClockTime(index) * 40_000_000)
            #expect(frame.format.width == 5 && frame.format.height == 3)
            #expect(frame.format.bytesPerRow == [8])
            #expect(try frame.packedBytes() == pixels(index))
            index += 1
        }
        #expect(index == 3)
    }

    @Test("A frame from one pipeline's appsink goes into another's appsrc as the same buffer (no copy)")
    func bufferFramePassesUntouched() async throws {
        let upstream = try Pipeline(
            launch:
                "videotestsrc num-buffers=1 ! video/x-raw,format=I420,width=33,height=17 ! appsink name=out sync=false")
        let received = try upstream.frames(fromAppSink: "out")
        try upstream.play()
        var iterator = received.makeAsyncIterator()
        let frame = try #require(try await iterator.next())
        upstream.stop()
        let downstream = try Pipeline(launch: "appsrc name=src format=time ! appsink name=sink sync=false")
        let source = try downstream.appSrc(named: "src")
        let sink = try downstream.appSink(named: "sink")
        try downstream.play()
        defer { downstream.stop() }
        #expect(try source.push(frame) == .ok)
        let sample = try #require(await sink.nextSample(timeout: .seconds(5)))
        #expect(sample.buffer?.memoryRoots == frame.buffer?.memoryRoots)
        #expect(sample.caps?.int("width") == 33 && sample.caps?.string("format") == "I420")
    }

    @Test("Audio frames pushed come out sample for sample, at their timestamps")
    func audioFrames() async throws {
        let info = try AudioInfo(format: .s16, rate: 16000, channels: 2)
        let pipeline = try Pipeline(launch: "appsrc name=src format=time ! appsink name=sink sync=false")
        let source = try pipeline.appSrc(named: "src")
        let sink = try pipeline.appSink(named: "sink")
        try pipeline.play()
        defer { pipeline.stop() }
        let samples: [Int16] = (0..<320).map { Int16($0 * 3 - 400) }
        let frame = try samples.withUnsafeBufferPointer {
            try AudioFrame(copying: $0, info: info, timestamp: 10_000_000)
        }
        #expect(source.push(frame) == .ok)
        let sample = try #require(await sink.nextSample(timeout: .seconds(5)))
        #expect(sample.buffer?.pts == 10_000_000)
        #expect(sample.buffer?.duration == 10_000_000)
        let back = try AudioFrame(buffer: try #require(sample.buffer), info: AudioInfo(caps: try #require(sample.caps)))
        #expect(try back.interleavedSamples(as: Int16.self) == samples)
    }
}
