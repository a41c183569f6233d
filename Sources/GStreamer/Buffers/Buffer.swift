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
    /// Guards every write to `current`'s metadata, and counts the scopes (`withPointer`) using a pointer
    /// read from `current`: a buffer replaced while one runs stays referenced until the last ends, then
    /// goes. So a replaced buffer is released at once when nobody uses it, not kept for the wrapper's life.
    private let scopes = Locked(Scopes())

    private struct Scopes {
        var active = 0
        /// Buffers replaced by copies while a scope was active, each still referenced.
        var retired: [UInt] = []
    }

    private var currentPointer: UnsafeMutablePointer<GstBuffer> {
        UnsafeMutablePointer(bitPattern: current.load(ordering: .acquiring))!
    }

    init(taking pointer: UnsafeMutablePointer<GstBuffer>) {
        current = Atomic(UInt(bitPattern: pointer))
    }

    init(borrowing pointer: UnsafeMutablePointer<GstBuffer>) {
        current = Atomic(UInt(bitPattern: gst_buffer_ref(pointer)))
    }

    deinit {
        gst_buffer_unref(currentPointer)
        for old in scopes.withLock({ $0.retired }) {
            gst_buffer_unref(UnsafeMutablePointer(bitPattern: old))
        }
    }

    /// Starts a scope using the GstBuffer held now; `leaveScope` ends it. The pointer stays valid until
    /// then, even when a setter on another thread replaces the buffer meanwhile.
    func enterScope() -> UnsafeMutablePointer<GstBuffer> {
        scopes.withLock { scopes in
            scopes.active += 1
            return currentPointer
        }
    }

    /// Ends a scope `enterScope` started; the last one to end releases the buffers replaced meanwhile.
    func leaveScope() {
        let retired = scopes.withLock { scopes -> [UInt] in
            scopes.active -= 1
            guard scopes.active == 0 else { return [] }
            defer { scopes.retired.removeAll() }
            return scopes.retired
        }
        for old in retired { gst_buffer_unref(UnsafeMutablePointer(bitPattern: old)) }
    }

    /// Calls `body` with the GstBuffer held now, valid until it returns (see `enterScope`).
    func withPointer<T, E: Error>(_ body: (UnsafeMutablePointer<GstBuffer>) throws(E) -> T) throws(E) -> T {
        let pointer = enterScope()
        defer { leaveScope() }
        return try body(pointer)
    }

    /// A new reference to the GstBuffer held now, for GStreamer to take (a push).
    func newReference() -> UnsafeMutablePointer<GstBuffer> {
        scopes.withLock { _ in gst_buffer_ref(currentPointer) }
    }

    /// Reads the buffer's metadata (timestamps, flags), in step with `modify` on another thread.
    func read<T>(_ body: (UnsafeMutablePointer<GstBuffer>) -> T) -> T {
        scopes.withLock { _ in
            let buffer = currentPointer
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
        let released = scopes.withLock { scopes -> UnsafeMutablePointer<GstBuffer>? in
            let buffer = currentPointer
            HandOver.received(buffer)
            if CGStreamerShim_buffer_is_writable(buffer) != 0 {
                change(buffer)
                // Another thread reads these fields only after the buffer went through GStreamer (a
                // queue, a pad), whose locks TSan does not see.
                HandOver.published(buffer)
                return nil
            }
            let copy = gst_buffer_copy(buffer)!
            change(copy)
            HandOver.published(copy)
            current.store(UInt(bitPattern: copy), ordering: .releasing)
            // A scope may still use the old buffer: it goes when the last scope ends.
            guard scopes.active == 0 else {
                scopes.retired.append(UInt(bitPattern: buffer))
                return nil
            }
            return buffer
        }
        if let released { gst_buffer_unref(released) }
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
    /// - Parameter size: The size in bytes, 0 or more.
    /// - Throws: ``GStreamerError`` (invalid argument) for a negative size; (core) when the memory cannot be
    ///   allocated, or GStreamer cannot be initialized.
    public convenience init(size: Int) throws(GStreamerError) {
        guard size >= 0 else {
            throw GStreamerError(kind: .invalidArgument, message: "a buffer of \(size) bytes: give a size of 0 or more")
        }
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
            withPointer { _ = gst_buffer_fill($0, 0, base, gsize(bytes.count)) }
        }
    }

    /// A buffer of its own with this one's metadata (timestamps, flags, metas) over the same memory:
    /// no bytes are copied, and setting its timestamps leaves this one alone. For a buffer seen in a
    /// probe that goes on unchanged while a copy is restamped, say for another pipeline.
    ///
    /// The corresponding C function is `gst_buffer_copy` (not deep).
    ///
    /// - Returns: The copy, held by its wrapper alone.
    public func copy() -> Buffer {
        let copy = withPointer { buffer -> UnsafeMutablePointer<GstBuffer> in
            HandOver.received(buffer)
            return gst_buffer_copy(buffer)!
        }
        return Buffer(taking: copy)
    }

    /// Total size in bytes of all its memory.
    ///
    /// The corresponding C function is `gst_buffer_get_size`.
    public var size: Int { withPointer { Int(gst_buffer_get_size($0)) } }

    /// Number of memory blocks.
    ///
    /// The corresponding C function is `gst_buffer_n_memory`.
    public var memoryCount: Int { withPointer { Int(gst_buffer_n_memory($0)) } }

    /// True when nobody else holds the buffer, so writing to it needs no copy.
    ///
    /// The corresponding C macro is `gst_buffer_is_writable`.
    public var isWritable: Bool { withPointer { CGStreamerShim_buffer_is_writable($0) != 0 } }

    /// True when both wrappers hold the very same GstBuffer.
    ///
    /// - Parameter other: Another wrapper.
    /// - Returns: Whether both wrap one GstBuffer (not merely equal bytes).
    public func isSameBuffer(as other: Buffer) -> Bool { identity == other.identity }

    /// The buffer's address, for identity checks in tests and logs only.
    package var identity: UInt { current.load(ordering: .acquiring) }
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
        // A new buffer, held by this wrapper alone: no setter can replace it meanwhile.
        let fill = { [pointer = enterScope()] (storage: UnsafeBufferPointer<UInt8>) in
            _ = gst_buffer_fill(pointer, 0, storage.baseAddress, gsize(storage.count))
        }
        defer { leaveScope() }
        if bytes.withContiguousStorageIfAvailable(fill) == nil {
            Array(bytes).withUnsafeBufferPointer(fill)
        }
        self.pts = pts
        self.duration = duration
    }
}
