import CGStreamer
import Testing

@testable import GStreamer

/// A video layout that does not fit its buffer is refused where it is used: no plane pointer past the
/// memory, no GstVideoMeta telling downstream elements to read past it. Each case below handed out such
/// a pointer (or trapped) before the checks.
@Suite("Video layouts that do not fit their buffer", .bounded)
struct VideoLayoutSafetyTests {
    @Test("Sizes and rates out of range throw, naming the range, instead of trapping")
    func sizesAndRates() throws {
        let negative = thrown { _ = try VideoInfo(format: "GRAY8", width: -10, height: 10) }
        #expect(negative?.kind == .invalidArgument)
        #expect(negative?.message.contains("-10x10 is out of range: width and height go from 1 to 2147483647") == true)
        #expect(thrown { _ = try VideoInfo(format: "GRAY8", width: Int.max, height: 1) }?.kind == .invalidArgument)
        #expect(thrown { _ = try VideoInfo(format: "GRAY8", width: 8, height: 0) }?.kind == .invalidArgument)
        let rate = thrown { _ = try VideoInfo(format: "GRAY8", width: 8, height: 8, framerate: (-1, 1)) }
        #expect(rate?.message.contains("a frame rate of -1/1 is out of range") == true)
        #expect(thrown { _ = try VideoInfo(format: "GRAY8", width: 8, height: 8, framerate: (30, 0)) } != nil)
        #expect(thrown { _ = try VideoInfo(format: "GRAY8", width: 8, height: 8, framerate: (Int.max, 1)) } != nil)
        // Each dimension fits a gint, the frame does not fit memory: GStreamer's own overflow check answers.
        let huge = thrown { _ = try VideoInfo(format: "BGRA", width: 2_147_483_647, height: 2_147_483_647) }
        #expect(huge?.message.contains("too large for memory") == true)
        let fine = try VideoInfo(format: "GRAY8", width: 5, height: 3, framerate: (30_000, 1001))
        #expect(fine.framerate.numerator == 30_000 && fine.framerate.denominator == 1001)
    }

    @Test("Strides and offsets of any value are kept (clamped to C's types), never a trap; checkLayout judges them")
    func settersNeverTrap() throws {
        var info = try VideoInfo(format: "GRAY8", width: 5, height: 3)
        info.strides = [-5]
        #expect(info.strides == [-5])
        #expect(thrown { try info.checkLayout(fitting: 1000) }?.message.contains("stride is shorter") == true)
        info.strides = [Int.max]
        #expect(info.strides == [Int(Int32.max)])
        info.strides = [8]
        info.offsets = [-1]
        #expect(info.offsets == [0])
        info.offsets = [Int.max]
        let past = thrown { try info.checkLayout(fitting: 24) }
        #expect(past?.message.contains("ends past the buffer's 24 bytes") == true)
        info.offsets = [0]
        // The last row ends at its last pixel: 2 rows of 8, then 5.
        try info.checkLayout(fitting: 21)
        let short = thrown { try info.checkLayout(fitting: 20) }
        #expect(short?.message.contains("ends past the buffer's 20 bytes") == true)
        #expect(info.planeHeight(-1) == 0 && info.planeRowBytes(7) == 0)
    }

    @Test("addVideoMeta refuses a layout past the buffer's end: downstream would read past its memory")
    func addVideoMetaChecks() throws {
        var info = try VideoInfo(format: "GRAY8", width: 5, height: 3)
        info.strides = [1000]
        let buffer = try Buffer(size: 48)
        let refused = thrown { try buffer.addVideoMeta(info) }
        #expect(refused?.kind == .invalidArgument)
        #expect(refused?.message.contains("ends past the buffer's 48 bytes") == true)
        #expect(buffer.videoMetaLayout == nil)
        info.strides = [16]
        try buffer.addVideoMeta(info)
        #expect(buffer.videoMetaLayout?.strides == [16])
    }

    @Test("withVideoFrame with strides past the mapping throws instead of handing out the pointer")
    func strideBeyondMapping() throws {
        var info = try VideoInfo(format: "GRAY8", width: 5, height: 3)
        // GStreamer checks only the info's total size (24 bytes, kept from the defaults) against the buffer.
        info.strides = [1000]
        let buffer = try Buffer(size: 48)
        var planeSeen = false
        let refused = thrown {
            try buffer.withVideoFrame(info) { frame in
                try frame.withPlane(0) { bytes, _ in planeSeen = bytes.count > 48 }
            }
        }
        #expect(!planeSeen)
        #expect(refused?.kind == .invalidArgument)
        #expect(refused?.message.contains("lies outside its memory") == true)
        // Written, which would have been a write 2000 bytes past a 48-byte allocation.
        let written = thrown {
            try buffer.withVideoFrame(info, writable: true) { frame in
                try frame.withMutablePlane(0) { bytes, stride in bytes[2 * stride] = 1 }
            }
        }
        #expect(written?.message.contains("lies outside its memory") == true)
        var offset = try VideoInfo(format: "I420", width: 4, height: 4)
        offset.offsets = [0, 16, 40]
        #expect(thrown { try Buffer(size: 24).withVideoFrame(offset) { _ in } } != nil)
    }

    @Test("A GstVideoMeta from C that describes planes past the memory is refused when mapped")
    func lyingMeta() throws {
        let buffer = try Buffer(size: 24)
        var offsets: (gsize, gsize, gsize, gsize) = (0, 0, 0, 0)
        var strides: (gint, gint, gint, gint) = (4000, 0, 0, 0)
        buffer.withPointer { pointer in
            withUnsafeMutableBytes(of: &offsets) { offsetBytes in
                withUnsafeMutableBytes(of: &strides) { strideBytes in
                    _ = gst_buffer_add_video_meta_full(
                        pointer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_GRAY8, 5, 3, 1,
                        offsetBytes.baseAddress!.assumingMemoryBound(to: gsize.self),
                        strideBytes.baseAddress!.assumingMemoryBound(to: gint.self))
                }
            }
        }
        let defaults = try VideoInfo(format: "GRAY8", width: 5, height: 3)
        let refused = thrown { try buffer.withVideoFrame(defaults) { _ in } }
        #expect(refused?.message.contains("stride 4000") == true)
        #expect(refused?.message.contains("lies outside its memory") == true)
    }

    @Test("A plane the format does not have, or a write to a read-only mapping, throws")
    func planeIndex() throws {
        let info = try VideoInfo(format: "GRAY8", width: 5, height: 3)
        let buffer = try Buffer(size: info.size)
        let (missing, readOnly, stride) = try buffer.withVideoFrame(info) { frame in
            (
                thrown { try frame.withPlane(3) { _, _ in } },
                thrown { try frame.withMutablePlane(0) { _, _ in } },
                frame.stride(-1)
            )
        }
        #expect(missing?.message == "plane 3 of GRAY8, which has planes 0 to 0")
        #expect(readOnly?.message.contains("mapped read-only") == true)
        #expect(stride == 0)
        let rows = try buffer.withVideoFrame(info) { frame in try frame.withPlane(0) { bytes, _ in bytes.count } }
        #expect(rows == 8 * 2 + 5)
    }
}
