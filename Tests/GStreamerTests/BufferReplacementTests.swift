import CGStreamer
import Testing

@testable import GStreamer

/// A setter on a shared buffer gives the wrapper a copy. Before the fix the wrapper
/// kept a reference to every buffer it replaced until it went itself, so a wrapper stamped and pushed in
/// a loop held every buffer it had ever pushed: `replacedBufferGoes` saw a reference count of 2, not 1.
@Suite("Buffer setters release the buffers they replace", .bounded)
struct BufferReplacementTests {
    static func referenceCount(_ buffer: UnsafeMutablePointer<GstBuffer>) -> Int32 {
        buffer.pointee.mini_object.refcount
    }

    @Test("Stamping a shared buffer 100 times leaves each replaced buffer to its other holder alone")
    func replacedBufferGoes() throws {
        let buffer = try Buffer(size: 16)
        for index in 0..<100 {
            // Someone else holds the buffer too (a queue, a sample): the setter must copy.
            let held = buffer.withUnsafePointer { gst_buffer_ref($0)! }
            buffer.pts = ClockTime(index)
            #expect(!buffer.withUnsafePointer { $0 == held }, "the setter copied")
            #expect(Self.referenceCount(held) == 1, "the wrapper let the replaced buffer go")
            #expect(held.pointee.pts == (index == 0 ? GstClockTime.max : GstClockTime(index - 1)))
            gst_buffer_unref(held)
        }
        #expect(buffer.pts == 99)
    }

    @Test("A buffer replaced while a scope still uses it stays valid until the scope ends, then goes")
    func replacedInsideScope() throws {
        let buffer = try Buffer(bytes: [1, 2, 3, 4])
        let held = buffer.withUnsafePointer { gst_buffer_ref($0)! }
        try buffer.withBytes { bytes in
            buffer.pts = 7  // replaces the buffer these bytes belong to
            #expect(Self.referenceCount(held) == 2, "kept for the scope")
            #expect(Array(bytes) == [1, 2, 3, 4])
        }
        #expect(Self.referenceCount(held) == 1, "released when the scope ended")
        gst_buffer_unref(held)
        #expect(buffer.pts == 7)
        #expect(buffer.bytes == [1, 2, 3, 4])
    }
}
