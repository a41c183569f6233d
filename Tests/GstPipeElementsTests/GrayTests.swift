import GstPipeElements
import MediaIO
import Testing

@Suite("gray renders luminance in every format", .bounded)
struct GrayTests {
    static let sizes = [(321, 241), (294, 240), (320, 240), (1, 1)]

    @Test("gray's output equals the luminance of its input", arguments: VideoPixelFormat.allCases)
    func luminance(format: VideoPixelFormat) async throws {
        for (width, height) in GrayTests.sizes {
            let source =
                "noise seed=42 num-buffers=2 ! video/x-raw,format=\(format.gstreamerName),width=\(width),height=\(height)"
            let input = try await captureFrames("\(source) ! appsink name=out sync=false")
            let output = try await captureFrames("\(source) ! gray ! appsink name=out sync=false")
            try #require(input.count == 2 && output.count == 2, "\(format) \(width)x\(height)")
            for (before, after) in zip(input, output) {
                #expect(after.format.hasSameImageShape(as: before.format))
                #expect(after.timestamp == before.timestamp)
                #expect(after.planes == GrayTests.reference(before), "\(format) \(width)x\(height)")
            }
        }
    }

    @Test(
        "Large 4-byte frames, split into bands of rows across cores, are exact too",
        arguments: [VideoPixelFormat.bgra, .xrgb, .rgba])
    func largeFrames(format: VideoPixelFormat) async throws {
        let source = "noise seed=11 num-buffers=1 ! video/x-raw,format=\(format.gstreamerName),width=1281,height=721"
        let input = try await captureFrames("\(source) ! appsink name=out sync=false")
        let output = try await captureFrames("\(source) ! gray ! appsink name=out sync=false")
        let before = try #require(input.first)
        #expect(output.first?.planes == GrayTests.reference(before))
    }

    /// RoundTripTests covers a resolution switch through a pass-through filter; this one puts gray
    /// after it, where its pool (RGB) and its shared chroma block (YUV) must follow the new size.
    @Test(
        "Caps that change mid-stream (a resolution switch, up then down) give correct gray frames",
        arguments: [VideoPixelFormat.i420, .nv12, .y444, .bgra, .rgb, .gray8])
    func resolutionSwitch(format: VideoPixelFormat) async throws {
        // concat plays its inputs one after the other, sending each one's caps before its frames.
        let segments = [(64, 48, 2), (97, 33, 3), (32, 24, 2)].enumerated().map { index, size in
            "noise seed=\(index + 1) num-buffers=\(size.2) "
                + "! video/x-raw,format=\(format.gstreamerName),width=\(size.0),height=\(size.1) ! c."
        }.joined(separator: " ")
        let input = try await captureFrames("concat name=c ! appsink name=out sync=false \(segments)")
        let output = try await captureFrames("concat name=c ! gray ! appsink name=out sync=false \(segments)")
        #expect(output.map(\.format.width) == [64, 64, 97, 97, 97, 32, 32], "\(format)")
        #expect(input.map(\.format.width) == output.map(\.format.width), "\(format)")
        for (before, after) in zip(input, output) {
            #expect(after.format.hasSameImageShape(as: before.format))
            #expect(
                after.planes == GrayTests.reference(before), "\(format) \(after.format.width)x\(after.format.height)")
        }
    }

    @Test("Odd sizes really have padded rows (so the tests above cover padding)")
    func paddedStrides() async throws {
        let frames = try await captureFrames(
            "noise num-buffers=1 ! video/x-raw,format=I420,width=321,height=241 ! gray ! appsink name=out sync=false")
        #expect(frames.first?.bytesPerRow == [324, 164, 164])
    }

    @Test("matrix=bt709 uses BT.709 weights for RGB")
    func bt709() async throws {
        let source = "noise seed=3 num-buffers=1 ! video/x-raw,format=RGB,width=33,height=7"
        let input = try await captureFrames("\(source) ! appsink name=out sync=false")
        let output = try await captureFrames("\(source) ! gray matrix=bt709 ! appsink name=out sync=false")
        let pixels = input[0].planes[0]
        let expected = stride(from: 0, to: pixels.count, by: 3).flatMap { index -> [UInt8] in
            let luma = LumaWeights.bt709.luma(red: pixels[index], green: pixels[index + 1], blue: pixels[index + 2])
            return [luma, luma, luma]
        }
        #expect(output[0].planes[0] == expected)
        #expect(LumaWeights.bt709.luma(red: 255, green: 255, blue: 255) == 255)
        #expect(LumaWeights.bt601.luma(red: 255, green: 0, blue: 0) == 77)
        #expect(LumaWeights.bt601.luma(red: 0, green: 0, blue: 255) == 29)
    }

    @Test("An unknown matrix fails with a message that says what to use")
    func unknownMatrix() async throws {
        try GstPipeElements.register()
        let pipeline = try Pipeline(launch: "videotestsrc num-buffers=1 ! gray name=g matrix=bt2020 ! fakesink")
        do {
            try await pipeline.run()
            Issue.record("the pipeline ran although gray's matrix is unknown")
        } catch {
            #expect(error.source == "g")
            #expect(error.message == "gray: unknown matrix \"bt2020\"; use auto, bt601 or bt709")
        }
    }

    @Test(
        "gray8=true emits one GRAY8 plane: the input's luma, or computed luma for RGB",
        arguments: VideoPixelFormat.allCases)
    func gray8Output(format: VideoPixelFormat) async throws {
        let source = "noise seed=5 num-buffers=2 ! video/x-raw,format=\(format.gstreamerName),width=321,height=241"
        let input = try await captureFrames("\(source) ! appsink name=out sync=false")
        let output = try await captureFrames("\(source) ! gray gray8=true ! appsink name=out sync=false")
        try #require(input.count == 2 && output.count == 2)
        for (before, after) in zip(input, output) {
            #expect(after.format.pixelFormat == .gray8)
            #expect(after.format.width == 321 && after.format.height == 241)
            #expect(after.planes.count == 1)
            let expected: [UInt8]
            if let layout = format.rgbLayout {
                let pixels = before.planes[0]
                expected = stride(from: 0, to: pixels.count, by: layout.pixelBytes).map { index in
                    LumaWeights.bt601.luma(
                        red: pixels[index + layout.red], green: pixels[index + layout.green],
                        blue: pixels[index + layout.blue])
                }
            } else {
                expected = before.planes[0]
            }
            #expect(after.planes[0] == expected, "\(format)")
        }
    }

    @Test("matrix=auto follows the caps: colorimetry=bt709 on RGB caps gives BT.709 weights")
    func autoMatrix() async throws {
        let source = "noise seed=9 num-buffers=1 ! video/x-raw,format=BGRx,width=16,height=4,colorimetry=bt709"
        let input = try await captureFrames("\(source) ! appsink name=out sync=false")
        let output = try await captureFrames("\(source) ! gray ! appsink name=out sync=false")
        let pixels = try #require(input.first).planes[0]
        try #require(output.count == 1)
        let luma = stride(from: 0, to: pixels.count, by: 4).map {
            LumaWeights.bt709.luma(red: pixels[$0 + 2], green: pixels[$0 + 1], blue: pixels[$0])
        }
        #expect(stride(from: 0, to: pixels.count, by: 4).map { output[0].planes[0][$0] } == luma)
        #expect(LumaWeights.bt709 != LumaWeights.bt601)
    }

    /// Runs `source ! tee` into gray and into an appsink; returns (input, output) buffer pairs.
    func inputOutputPairs(_ source: String, gray: String = "gray") async throws -> [(Buffer, Buffer)] {
        try GstPipeElements.register()
        let pipeline = try Pipeline(
            launch: "\(source) ! tee name=t t. ! queue ! appsink name=in sync=false "
                + "t. ! queue ! \(gray) ! appsink name=out sync=false")
        let inputs = try pipeline.samples(fromAppSink: "in", capacity: 16)
        let outputs = try pipeline.samples(fromAppSink: "out", capacity: 16)
        try pipeline.play()
        async let before = inputs.reduce(into: [Buffer]()) { $0.append($1.buffer!) }
        async let after = outputs.reduce(into: [Buffer]()) { $0.append($1.buffer!) }
        let (a, b) = try await (before, after)
        pipeline.stop()
        return Array(zip(a, b))
    }

    @Test(
        "Planar YUV: the output's luma is the input's memory (no copy), for buffers from a source, a decoder and a pool",
        arguments: [
            "videotestsrc num-buffers=4 ! video/x-raw,format=I420,width=320,height=240",
            "videotestsrc num-buffers=4 ! video/x-raw,format=I420,width=320,height=240 ! jpegenc ! jpegdec",
            "noise num-buffers=4 ! video/x-raw,format=NV12,width=322,height=240"
        ])
    func zeroCopyLuma(source: String) async throws {
        let pairs = try await inputOutputPairs(source)
        #expect(pairs.count == 4)
        for (input, output) in pairs {
            #expect(output.memoryCount == 2)
            #expect(output.memoryRoots.first == input.memoryRoots.first)
        }
        // Every frame shares one neutral chroma block.
        #expect(Set(pairs.map { $0.1.memoryRoots.last! }).count == 1)
        let gray8 = try await inputOutputPairs(source, gray: "gray gray8=true")
        for (input, output) in gray8 {
            #expect(output.memoryRoots == [input.memoryRoots[0]])
        }
    }

    @Test("RGB: each output frame is written once into a buffer from gray's own pool")
    func rgbFromPool() async throws {
        let pairs = try await inputOutputPairs(
            "videotestsrc num-buffers=4 ! video/x-raw,format=BGRA,width=64,height=48")
        #expect(pairs.count == 4)
        for (input, output) in pairs {
            #expect(Set(output.memoryRoots).isDisjoint(with: input.memoryRoots))
        }
        // appsrc marks the first buffer DISCONT, which may wrap it in a new GstBuffer (same memory).
        #expect(pairs.dropFirst().allSatisfy { $0.1.isFromPool })
    }

    /// What gray must output, computed straight from the input pixels.
    static func reference(_ frame: CapturedFrame) -> [[UInt8]] {
        let format = frame.format.pixelFormat
        if let layout = format.rgbLayout {
            var pixels = frame.planes[0]
            for index in stride(from: 0, to: pixels.count, by: layout.pixelBytes) {
                let luma = LumaWeights.bt601.luma(
                    red: pixels[index + layout.red], green: pixels[index + layout.green],
                    blue: pixels[index + layout.blue])
                pixels[index + layout.red] = luma
                pixels[index + layout.green] = luma
                pixels[index + layout.blue] = luma
            }
            return [pixels]
        }
        return [frame.planes[0]] + frame.planes.dropFirst().map { [UInt8](repeating: 128, count: $0.count) }
    }
}
