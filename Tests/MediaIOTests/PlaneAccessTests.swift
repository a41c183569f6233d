import GStreamer
import MediaIO
import Testing

@Suite("Plane access: rows without padding, and decoded frames read where the decoder put them")
struct PlaneAccessTests {
    @Test("pixelRows gives each row's pixel bytes, padding skipped, top to bottom (GRAY8 width 5: stride 8)")
    func pixelRows() async throws {
        TestElements.register()
        let pipeline = try Pipeline(launch: "patternsrc frames=2 width=5 height=3 ! appsink name=out sync=false")
        let frames = try pipeline.frames(fromAppSink: "out")
        try pipeline.play()
        var index = 0
        for try await frame in frames {
            let rows = try frame.withPlanes { planes in planes[0].pixelRows.map { Array($0) } }
            #expect(frame.format.bytesPerRow == [8])
            #expect(rows == (0..<3).map { y in (0..<5).map { x in PatternSource.pixel(x: x, y: y, frame: index) } })
            index += 1
        }
        #expect(index == 2)
        pipeline.stop()
    }

    /// avdec_h264 decodes 1080p into 1088 rows with strides of its own (here 180 rows into 192). Without an answer to its
    /// allocation query it copies each frame into GStreamer's default layout; `frames(fromAppSink:)`
    /// answers that frames read GstVideoMeta, so the decoder's frames reach Swift as they are.
    @Test("A decoder's frames reach frames(fromAppSink:) in its own layout (GstVideoMeta), with the same pixels")
    func decoderLayout() async throws {
        try GStreamer.initialize()
        try #require(GStreamer.hasElement(named: "x264enc") && GStreamer.hasElement(named: "avdec_h264"))
        let source =
            "videotestsrc num-buffers=3 pattern=ball ! video/x-raw,format=I420,width=320,height=180 ! x264enc tune=zerolatency "
            + "! avdec_h264 ! video/x-raw,format=I420"
        // The reference: a sink that answers no allocation query gets frames copied into the default layout.
        let reference = try Pipeline(launch: "\(source) ! appsink name=out sync=false")
        let referenceSamples = try reference.samples(fromAppSink: "out")
        try reference.play()
        var expected: [[UInt8]] = []
        for try await sample in referenceSamples {
            let buffer = try #require(sample.buffer)
            #expect(buffer.videoMetaLayout == nil)
            let info = try VideoInfo(caps: try #require(sample.caps))
            expected.append(try buffer.withVideoFrame(info, writable: false) { mapped in
                mapped.withPlane(0) { bytes, stride in (0..<180).flatMap { Array(bytes[($0 * stride)..<($0 * stride + 320)]) } }
            })
        }
        reference.stop()

        let pipeline = try Pipeline(launch: "\(source) ! appsink name=out sync=false")
        let frames = try pipeline.frames(fromAppSink: "out")
        try pipeline.play()
        var lumas: [[UInt8]] = []
        var withMeta = 0
        for try await frame in frames {
            if frame.buffer?.videoMetaLayout != nil { withMeta += 1 }
            lumas.append(try frame.withPlanes { planes in planes[0].pixelRows.flatMap { Array($0) } })
        }
        pipeline.stop()
        #expect(withMeta == 3)
        #expect(lumas.count == 3)
        let same = lumas == expected  // not in #expect: a failure would print every pixel
        #expect(same)
    }
}
