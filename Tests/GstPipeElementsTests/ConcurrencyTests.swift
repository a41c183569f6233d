import GstPipeElements
import MediaIO
import Testing

@Suite("Many pipelines with Swift elements at once", .bounded)
struct ConcurrencyTests {
    @Test("Eight noise ! gray pipelines run at once in one process, each with correct output")
    func eightAtOnce() async throws {
        let formats: [VideoPixelFormat] = [.i420, .nv12, .bgra, .rgb, .y444, .xrgb, .gray8, .abgr]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, format) in formats.enumerated() {
                group.addTask {
                    let source =
                        "noise seed=\(index) num-buffers=5 ! video/x-raw,format=\(format.gstreamerName),width=97,height=33"
                    let input = try await captureFrames("\(source) ! appsink name=out sync=false")
                    let output = try await captureFrames("\(source) ! gray ! appsink name=out sync=false")
                    #expect(input.count == 5 && output.count == 5, "\(format)")
                    for (before, after) in zip(input, output) {
                        #expect(after.planes == GrayTests.reference(before), "\(format)")
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
