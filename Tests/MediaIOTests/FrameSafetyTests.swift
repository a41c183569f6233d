import MediaIO
import Testing

/// Frames made from plain arguments: a size out of range is refused before any memory is laid out (a
/// negative width gave planes of negative length, and `withMutablePlanes` wrote outside the allocation),
/// and frame timestamps stay exact for as long as a live source runs.
@Suite("Frames from plain arguments", .bounded)
struct FrameSafetyTests {
    private func error(_ body: () throws -> Void) -> MediaIOError? {
        do {
            try body()
            return nil
        } catch let error as MediaIOError {
            return error
        } catch {
            return nil
        }
    }

    @Test("A negative, zero or oversized frame size throws MediaIOError naming the range")
    func frameSizes() throws {
        var wrote = false
        let negative = error {
            let frame = try VideoFrame(format: .gray8, width: -10, height: 10, timestamp: 0)
            try frame.withMutablePlanes { planes in
                for plane in planes { plane.bytes.initializeMemory(as: UInt8.self, repeating: 0xFF) }
                wrote = true
            }
        }
        #expect(!wrote)
        #expect(
            negative?.description == "a GRAY8 frame of -10x10 is out of range: width and height go from 1 to 2147483647"
        )
        #expect(error { _ = try VideoFrame(format: .i420, width: 10, height: -1, timestamp: 0) } != nil)
        #expect(error { _ = try VideoFrame(format: .bgra, width: 0, height: 10, timestamp: 0) } != nil)
        #expect(error { _ = try VideoFrame(format: .bgra, width: Int.max, height: 1, timestamp: 0) } != nil)
        let format = VideoFrameFormat(pixelFormat: .rgb, width: -4, height: 2)
        #expect(format.byteCount == 0)
        #expect(
            error {
                try [UInt8](repeating: 1, count: 16).withUnsafeBytes {
                    _ = try VideoFrame(copying: $0, format: format, timestamp: 0)
                }
            } != nil)
        // Shapes of sizes no frame can have clamp instead of trapping.
        #expect(VideoPixelFormat.bgra.planeShapes(width: Int.max, height: 1)[0].rowBytes == Int.max)
        #expect(VideoPixelFormat.i420.planeShapes(width: Int.max, height: Int.max)[1].rows == Int.max / 2 + 1)
        #expect(VideoFrameFormat(pixelFormat: .bgra, width: Int.max, height: 2).byteCount == Int.max)
        let frame = try VideoFrame(format: .i420, width: 5, height: 3, timestamp: 0)
        #expect(try frame.withPlanes { $0.map(\.bytes.count) } == [15, 6, 6])
    }

    @Test("Frame timestamps are exact past a week at 30000/1001 (they overflowed UInt64 there), clamped beyond")
    func timestampsForAWeek() {
        let ntsc = VideoFrameRate(30_000, 1001)
        // 21 000 000 frames is 8.1 days: 21e6 × 1e9 × 1001 is past UInt64.max once multiplied out.
        #expect(ntsc.timestamp(ofFrame: 21_000_000) == 700_700_000_000_000)
        #expect(ntsc.timestamp(ofFrame: 18_126_274) == 604_813_342_466_666)
        #expect(ntsc.timestamp(ofFrame: 1) == 33_366_666)
        #expect(ntsc.frameDuration == 33_366_666)
        #expect(ntsc.timestamp(ofFrame: -5) == 0)
        #expect(VideoFrameRate(1, 1_000_000).timestamp(ofFrame: Int.max) == ClockTime.max)
        #expect(VideoFrameRate(1, Int.max).frameDuration == ClockTime.max)
        #expect(VideoFrameRate(0, 1).timestamp(ofFrame: 10) == 0)
        #expect(VideoFrameRate(25).timestamp(ofFrame: Int.max) == ClockTime.max)
    }
}
