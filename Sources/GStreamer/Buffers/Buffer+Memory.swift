import CGStreamer

// A buffer's bytes: mapping them for reading or writing, and buffers that share memory blocks with
// others instead of copying them.

extension Buffer {
    /// Reads the whole buffer's bytes (mapped read-only for the duration of `body`).
    ///
    /// The corresponding C functions are `gst_buffer_map` and `gst_buffer_unmap`.
    ///
    /// - Parameter body: Reads the bytes; the pointer is valid only until it returns.
    /// - Returns: What `body` returns.
    /// - Throws: ``GStreamerError`` (core) when the buffer cannot be mapped, or what `body` throws.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        let pointer = enterScope()
        defer { leaveScope() }
        var map = GstMapInfo()
        guard gst_buffer_map(pointer, &map, GST_MAP_READ) != 0 else {
            throw GStreamerError(kind: .core, message: "could not map a buffer for reading")
        }
        defer { gst_buffer_unmap(pointer, &map) }
        return try body(UnsafeRawBufferPointer(start: map.data, count: Int(map.size)))
    }

    /// Writes the buffer's bytes. When others hold the buffer too (see ``isWritable``), the wrapper first
    /// takes a copy of its own, as the timestamp setters do: the others keep seeing the old bytes, and
    /// only the memory blocks that are shared get copied. In a pad probe the copy is what goes downstream.
    ///
    /// The corresponding C functions are `gst_buffer_make_writable`, `gst_buffer_map` (with
    /// `GST_MAP_WRITE`) and `gst_buffer_unmap`.
    ///
    /// - Parameter body: Writes the bytes; the pointer is valid only until it returns.
    /// - Returns: What `body` returns.
    /// - Throws: ``GStreamerError`` (core) when the buffer cannot be mapped, or what `body` throws.
    public func withMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) throws -> R {
        // gst_buffer_make_writable: a copy of the metadata when shared; the map then copies shared memory.
        modify { _ in }
        let pointer = enterScope()
        defer { leaveScope() }
        var map = GstMapInfo()
        guard gst_buffer_map(pointer, &map, GST_MAP_WRITE) != 0 else {
            throw GStreamerError(kind: .core, message: "could not map a buffer for writing")
        }
        defer { gst_buffer_unmap(pointer, &map) }
        return try body(UnsafeMutableRawBufferPointer(start: map.data, count: Int(map.size)))
    }

    /// A new buffer over `size` bytes from `offset` of this one, sharing its memory (no copy).
    ///
    /// The corresponding C function is `gst_buffer_copy_region` (with GST_BUFFER_COPY_MEMORY only).
    ///
    /// - Parameters:
    ///   - offset: The first byte, from the start of this buffer.
    ///   - size: The number of bytes, at least 1.
    /// - Returns: The new buffer, or nil when the range is empty or runs past the end.
    public func region(offset: Int, size: Int) -> Buffer? {
        guard offset >= 0, size > 0, case let (end, overflow) = offset.addingReportingOverflow(size), !overflow,
            end <= self.size,
            let copy = withPointer({ gst_buffer_copy_region($0, GST_BUFFER_COPY_MEMORY, gsize(offset), gsize(size)) })
        else { return nil }
        return Buffer(taking: copy)
    }

    /// A new buffer made of the memory blocks of `parts`, in order, shared (no copy).
    ///
    /// The corresponding C function is `gst_buffer_append_memory`.
    ///
    /// - Parameter parts: The buffers whose memory to take, in order; they are not changed.
    /// - Returns: A buffer whose size is the sum of the parts' sizes, without timestamps.
    /// - Throws: ``GStreamerError`` when GStreamer cannot be initialized.
    public static func concatenating(_ parts: [Buffer]) throws(GStreamerError) -> Buffer {
        try GStreamer.initialize()
        let buffer = gst_buffer_new()!
        for part in parts {
            part.withPointer { pointer in
                for index in 0..<gst_buffer_n_memory(pointer) {
                    gst_buffer_append_memory(buffer, gst_memory_ref(gst_buffer_peek_memory(pointer, index)))
                }
            }
        }
        return Buffer(taking: buffer)
    }

    /// For each memory block, the address of the memory it was shared from (itself when not shared):
    /// equal roots mean the same bytes, so no copy was made.
    package var memoryRoots: [UInt] {
        withPointer { pointer in
            (0..<gst_buffer_n_memory(pointer)).map { index in
                var memory = gst_buffer_peek_memory(pointer, index)!
                while let parent = memory.pointee.parent { memory = parent }
                return UInt(bitPattern: memory)
            }
        }
    }

    /// True when the buffer came from a buffer pool (and goes back to it when released).
    package var isFromPool: Bool { withPointer { $0.pointee.pool != nil } }

    /// The bytes as an array (a copy).
    public var bytes: [UInt8] {
        (try? withBytes { Array($0.bindMemory(to: UInt8.self)) }) ?? []
    }
}
