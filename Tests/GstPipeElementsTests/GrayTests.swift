import GstPipeElements
import MediaIO
import Testing

@Suite("gray renders luminance in every format")
struct GrayTests {
    static let sizes = [(321, 241), (294, 240), (320, 240), (1, 1)]

    @Test("gray's output equals the luminance of its input", arguments: VideoPixelFormat.allCases)
    func luminance(format: VideoPixelFormat) async throws {
        for (width, height) in GrayTests.sizes {
            let source = "noise seed=42 num-buffers=2 ! video/x-raw,format=\(format.gstreamerName),width=\(width),height=\(height)"
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
        #expect(LumaWeights.bt601.luma(red: 255, green: 0, blue: 0) == 76)
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
            #expect(error.message == "gray: unknown matrix \"bt2020\"; use bt601 or bt709")
        }
    }

    /// What gray must output, computed straight from the input pixels.
    static func reference(_ frame: CapturedFrame) -> [[UInt8]] {
        let format = frame.format.pixelFormat
        if let layout = format.rgbLayout {
            var pixels = frame.planes[0]
            for index in stride(from: 0, to: pixels.count, by: layout.pixelBytes) {
                let luma = LumaWeights.bt601.luma(
                    red: pixels[index + layout.red], green: pixels[index + layout.green], blue: pixels[index + layout.blue])
                pixels[index + layout.red] = luma
                pixels[index + layout.green] = luma
                pixels[index + layout.blue] = luma
            }
            return [pixels]
        }
        return [frame.planes[0]] + frame.planes.dropFirst().map { [UInt8](repeating: 128, count: $0.count) }
    }
}
