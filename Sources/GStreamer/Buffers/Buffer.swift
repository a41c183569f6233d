import CGStreamer
import CGStreamerShim
import GstPipeSupport
import Synchronization

/// A GStreamer buffer: memory plus timestamps. Owns one reference.
///
/// Setting a timestamp or flag on a buffer that others hold too (a pipeline, a sample, another
/// wrapper) first gives this wrapper a copy of its own, as a Swift value would: the metadata is
/// copied, the memory is shared (no bytes are copied), and the others keep seeing the old values.
///
/// GstBuffer is reference counted and immutable while shared, so the wrapper can cross threads: it
/// writes only into a buffer it holds alone, under its lock (the setters, copying first when the
/// buffer is shared) or through `withMutableBytes`, which requires a writable buffer.
public final class Buffer: @unchecked Sendable {
    /// The GstBuffer held now (its address). A setter that finds it shared replaces it with its copy.
    private let current: Atomic<UInt>
    /// Buffers replaced by copies, each still referenced: a pointer another thread read before the
    /// replacement stays valid as long as the wrapper. Guards every write to `current`'s metadata.
    private let replaced = Mutex<[UInt]>([])

    /// The GstBuffer the wrapper holds now; valid as long as the wrapper.
    var pointer: UnsafeMutablePointer<GstBuffer> {
        UnsafeMutablePointer(bitPattern: current.load(ordering: .acquiring))!
    }

    init(taking pointer: UnsafeMutablePointer<GstBuffer>) {
        current = Atomic(UInt(bitPattern: pointer))
    }

    init(borrowing pointer: UnsafeMutablePointer<GstBuffer>) {
        current = Atomic(UInt(bitPattern: gst_buffer_ref(pointer)))
    }

    deinit {
        gst_buffer_unref(pointer)
        for old in replaced.withLock({ $0 }) {
            gst_buffer_unref(UnsafeMutablePointer(bitPattern: old))
        }
    }

    /// Reads the buffer's metadata (timestamps, flags), in step with `modify` on another thread.
    func read<T>(_ body: (UnsafeMutablePointer<GstBuffer>) -> T) -> T {
        replaced.withLock { _ in
            let buffer = pointer
            // What another wrapper wrote before the buffer went through GStreamer (see `modify`).
            HandOver.received(buffer)
            return body(buffer)
        }
    }

    /// Changes the buffer's metadata in place when the wrapper holds it alone, else in a copy (same
    /// memory, new metadata) that the wrapper holds from then on.
    ///
    /// The corresponding C function is `gst_buffer_make_writable` (a macro).
    func modify(_ change: (UnsafeMutablePointer<GstBuffer>) -> Void) {
        replaced.withLock { replaced in
            let buffer = pointer
            HandOver.received(buffer)
            if CGStreamerShim_buffer_is_writable(buffer) != 0 {
                change(buffer)
                // Another thread reads these fields only after the buffer went through GStreamer (a
                // queue, a pad), whose locks TSan does not see.
                HandOver.published(buffer)
                return
            }
            let copy = gst_buffer_copy(buffer)!
            change(copy)
            HandOver.published(copy)
            replaced.append(UInt(bitPattern: buffer))
            current.store(UInt(bitPattern: copy), ordering: .releasing)
        }
    }

    /// Changes the buffer's flags as `modify` changes its metadata: in place when the wrapper holds it
    /// alone, else in a copy.
    func modifyFlags(_ change: (inout guint) -> Void) {
        modify { change(&$0.pointee.mini_object.flags) }
    }

    /// A new buffer of `size` bytes (uninitialized).
    ///
    /// The corresponding C function is `gst_buffer_new_allocate`.
    ///
    /// - Parameter size: The size in bytes.
    /// - Throws: ``GStreamerError`` (core) when the memory cannot be allocated, or GStreamer cannot be
    ///   initialized.
    public convenience init(size: Int) throws(GStreamerError) {
        try GStreamer.initialize()
        guard let buffer = gst_buffer_new_allocate(nil, gsize(size), nil) else {
            throw GStreamerError(kind: .core, message: "could not allocate a buffer of \(size) bytes")
        }
        self.init(taking: buffer)
    }

    /// A new buffer holding a copy of `bytes`.
    ///
    /// The corresponding C functions are `gst_buffer_new_allocate` and `gst_buffer_fill`.
    ///
    /// - Parameter bytes: The bytes to copy; the buffer's size is their count.
    /// - Throws: ``GStreamerError`` (core) when the memory cannot be allocated, or GStreamer cannot be
    ///   initialized.
    public convenience init(copying bytes: UnsafeRawBufferPointer) throws(GStreamerError) {
        try self.init(size: bytes.count)
        if let base = bytes.baseAddress, !bytes.isEmpty {
            gst_buffer_fill(pointer, 0, base, gsize(bytes.count))
        }
    }

    /// Total size in bytes of all its memory.
    ///
    /// The corresponding C function is `gst_buffer_get_size`.
    public var size: Int { Int(gst_buffer_get_size(pointer)) }

    /// Number of memory blocks.
    ///
    /// The corresponding C function is `gst_buffer_n_memory`.
    public var memoryCount: Int { Int(gst_buffer_n_memory(pointer)) }

    /// True when nobody else holds the buffer, so writing to it needs no copy.
    ///
    /// The corresponding C macro is `gst_buffer_is_writable`.
    public var isWritable: Bool { CGStreamerShim_buffer_is_writable(pointer) != 0 }

    /// True when both wrappers hold the very same GstBuffer.
    ///
    /// - Parameter other: Another wrapper.
    /// - Returns: Whether both wrap one GstBuffer (not merely equal bytes).
    public func isSameBuffer(as other: Buffer) -> Bool { pointer == other.pointer }

    /// The buffer's address, for identity checks in tests and logs only.
    package var identity: UInt { UInt(bitPattern: pointer) }
}

extension Buffer {
    /// A new buffer holding a copy of `bytes`, stamped with `pts` and `duration`.
    ///
    /// The corresponding C functions are `gst_buffer_new_allocate` and `gst_buffer_fill`.
    ///
    /// - Parameters:
    ///   - bytes: The content, copied.
    ///   - pts: The presentation timestamp in nanoseconds; nil for none.
    ///   - duration: The duration in nanoseconds; nil for none.
    /// - Throws: ``GStreamerError`` (core) when the buffer cannot be allocated.
    public convenience init(
        bytes: some Collection<UInt8>, pts: ClockTime? = nil, duration: ClockTime? = nil
    ) throws(GStreamerError) {
        try self.init(size: bytes.count)
        let fill = { [pointer] (storage: UnsafeBufferPointer<UInt8>) in
            _ = gst_buffer_fill(pointer, 0, storage.baseAddress, gsize(storage.count))
        }
        if bytes.withContiguousStorageIfAvailable(fill) == nil {
            Array(bytes).withUnsafeBufferPointer(fill)
        }
        self.pts = pts
        self.duration = duration
    }
}
