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
    ///     more; it may free the bytes. To free them there, use ``init(wrapping:readOnly:releasing:)``,
    ///     which hands them back: a `@Sendable` closure cannot capture the pointer itself.
    /// - Throws: ``GStreamerError`` (invalid argument) when `bytes` has no address or no bytes (`onRelease`
    ///   is then not called), or when GStreamer cannot be initialized.
    public convenience init(
        wrapping bytes: UnsafeMutableRawBufferPointer, readOnly: Bool = false,
        onRelease: @escaping @Sendable () -> Void
    ) throws(GStreamerError) {
        try self.init(wrapping: bytes, readOnly: readOnly, releasing: { _ in onRelease() })
    }

    /// A buffer over bytes the application owns, without copying them, that hands the bytes back to
    /// `release` once GStreamer is done with them: the place to free them (`{ $0.deallocate() }`).
    /// GStreamer reads (and, unless `readOnly`, writes) them where they are; until `release` runs they
    /// must stay valid.
    ///
    /// The corresponding C functions are `gst_memory_new_wrapped` (with a `GDestroyNotify`),
    /// `gst_buffer_new` and `gst_buffer_append_memory`.
    ///
    /// - Parameters:
    ///   - bytes: The bytes to wrap: their address and count.
    ///   - readOnly: True to let no element write into them (`GST_MEMORY_FLAG_READONLY`): a writer gets a
    ///     copy instead.
    ///   - release: Called exactly once with `bytes`, from whichever thread drops the last reference, when
    ///     neither GStreamer nor any wrapper holds the memory any more.
    /// - Throws: ``GStreamerError`` (invalid argument) when `bytes` has no address or no bytes (`release`
    ///   is then not called), or when GStreamer cannot be initialized.
    public convenience init(
        wrapping bytes: UnsafeMutableRawBufferPointer, readOnly: Bool = false,
        releasing release: @escaping @Sendable (UnsafeMutableRawBufferPointer) -> Void
    ) throws(GStreamerError) {
        try GStreamer.initialize()
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "cannot wrap \(bytes.count) bytes at \(bytes.baseAddress.map { "\($0)" } ?? "no address"): "
                    + "give a buffer pointer with an address and at least one byte")
        }
        final class Release: Sendable {
            // The bytes as an address and a count: a pointer is not Sendable, and the memory is the
            // application's, handed back to it once GStreamer lets go.
            let address: UInt
            let count: Int
            let call: @Sendable (UnsafeMutableRawBufferPointer) -> Void
            init(
                _ bytes: UnsafeMutableRawBufferPointer,
                _ call: @escaping @Sendable (UnsafeMutableRawBufferPointer) -> Void
            ) {
                address = UInt(bitPattern: bytes.baseAddress)
                count = bytes.count
                self.call = call
            }
            func run() {
                call(UnsafeMutableRawBufferPointer(start: UnsafeMutableRawPointer(bitPattern: address), count: count))
            }
        }
        // The box goes with the memory; GStreamer calls the notify once, when the memory is freed.
        let box = Unmanaged.passRetained(Release(bytes, release)).toOpaque()
        let flags = readOnly ? GST_MEMORY_FLAG_READONLY : GstMemoryFlags(rawValue: 0)
        let memory = gst_memory_new_wrapped(flags, base, gsize(bytes.count), 0, gsize(bytes.count), box) { userData in
            guard let userData else { return }
            Unmanaged<Release>.fromOpaque(userData).takeRetainedValue().run()
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
