import CGStreamer

extension Buffer {
    /// A buffer over bytes the application owns, without copying them: GStreamer reads (and, unless
    /// `readOnly`, writes) them where they are, and calls `onRelease` once, from whichever thread drops
    /// the last reference, when it is done with them. Until then the bytes must stay valid; free them in
    /// `onRelease`, not before.
    ///
    /// The corresponding C functions are `gst_memory_new_wrapped` (with a `GDestroyNotify`),
    /// `gst_buffer_new` and `gst_buffer_append_memory`.
    ///
    /// - Parameters:
    ///   - bytes: The bytes to wrap: their address and count.
    ///   - readOnly: True to let no element write into them (`GST_MEMORY_FLAG_READONLY`): a writer gets a
    ///     copy instead.
    ///   - onRelease: Called exactly once, when neither GStreamer nor any wrapper holds the memory any
    ///     more; it may free the bytes.
    /// - Throws: ``GStreamerError`` (invalid argument) when `bytes` has no address or no bytes (`onRelease`
    ///   is then not called), or when GStreamer cannot be initialized.
    public convenience init(
        wrapping bytes: UnsafeMutableRawBufferPointer, readOnly: Bool = false,
        onRelease: @escaping @Sendable () -> Void
    ) throws(GStreamerError) {
        try GStreamer.initialize()
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "cannot wrap \(bytes.count) bytes at \(bytes.baseAddress.map { "\($0)" } ?? "no address"): "
                    + "give a buffer pointer with an address and at least one byte")
        }
        final class Release: Sendable {
            let call: @Sendable () -> Void
            init(_ call: @escaping @Sendable () -> Void) { self.call = call }
        }
        // The box goes with the memory; GStreamer calls the notify once, when the memory is freed.
        let box = Unmanaged.passRetained(Release(onRelease)).toOpaque()
        let flags = readOnly ? GST_MEMORY_FLAG_READONLY : GstMemoryFlags(rawValue: 0)
        let memory = gst_memory_new_wrapped(flags, base, gsize(bytes.count), 0, gsize(bytes.count), box) { userData in
            guard let userData else { return }
            let release = Unmanaged<Release>.fromOpaque(userData).takeRetainedValue()
            release.call()
        }
        let buffer = gst_buffer_new()!
        gst_buffer_append_memory(buffer, memory)
        self.init(taking: buffer)
    }

    /// The address of the buffer's bytes when they are one block of memory (as a wrapped buffer's are),
    /// to tell whether they were copied; nil when the buffer holds several blocks or none.
    ///
    /// The corresponding C functions are `gst_buffer_n_memory`, `gst_buffer_peek_memory` and `gst_memory_map`.
    public var memoryAddress: UnsafeRawPointer? {
        withPointer { buffer -> UnsafeRawPointer? in
            guard gst_buffer_n_memory(buffer) == 1, let memory = gst_buffer_peek_memory(buffer, 0) else { return nil }
            var info = GstMapInfo()
            guard gst_memory_map(memory, &info, GST_MAP_READ) != 0 else { return nil }
            defer { gst_memory_unmap(memory, &info) }
            return info.data.map { UnsafeRawPointer($0) }
        }
    }
}
