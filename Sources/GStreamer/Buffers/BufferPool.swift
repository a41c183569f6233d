import CGStreamer

/// A pool of buffers of one size, reused instead of allocated for each frame: a buffer acquired from
/// it goes back to it when its last reference is dropped. Owns one reference to the GstBufferPool;
/// `deinit` deactivates it (buffers still out return and are freed).
///
/// The corresponding C type is `GstBufferPool`.
public final class BufferPool: @unchecked Sendable {
    // GstBufferPool is thread-safe: acquire, release and (de)activation take its own lock.
    let pointer: UnsafeMutablePointer<GstBufferPool>

    /// The buffers' size in bytes, as configured.
    public let size: Int

    /// A pool of buffers of `size` bytes for media of `caps`, active and ready to hand out buffers.
    ///
    /// The corresponding C functions are `gst_buffer_pool_new`, `gst_buffer_pool_config_set_params`,
    /// `gst_buffer_pool_set_config` and `gst_buffer_pool_set_active`.
    ///
    /// - Parameters:
    ///   - caps: What the buffers will hold; nil for bytes of no particular kind.
    ///   - size: Each buffer's size in bytes.
    ///   - minBuffers: How many buffers the pool allocates when activated, and keeps.
    ///   - maxBuffers: How many buffers can be out at once; 0 for no limit. ``acquire(wait:)`` waits (or
    ///     fails) when they all are.
    /// - Throws: ``GStreamerError`` (invalid argument) when the size is not positive, the counts are negative
    ///   or `minBuffers` exceeds a nonzero `maxBuffers`; (core) when GStreamer refuses the configuration or
    ///   cannot allocate the buffers.
    public init(caps: Caps? = nil, size: Int, minBuffers: Int = 0, maxBuffers: Int = 0) throws(GStreamerError) {
        try GStreamer.initialize()
        guard size > 0, minBuffers >= 0, maxBuffers >= 0, maxBuffers == 0 || minBuffers <= maxBuffers,
            let size32 = guint(exactly: size), let min32 = guint(exactly: minBuffers),
            let max32 = guint(exactly: maxBuffers)
        else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "a buffer pool of \(size) bytes with \(minBuffers) to \(maxBuffers) buffers is not possible: "
                    + "give a positive size (below 4 GiB) and 0 <= minBuffers <= maxBuffers (or maxBuffers 0)")
        }
        pointer = gst_buffer_pool_new()
        self.size = size
        let config = gst_buffer_pool_get_config(pointer)
        gst_buffer_pool_config_set_params(config, caps?.pointer, size32, min32, max32)
        guard gst_buffer_pool_set_config(pointer, config) != 0 else {
            throw GStreamerError(kind: .core, message: "the buffer pool refused its configuration")
        }
        guard gst_buffer_pool_set_active(pointer, 1) != 0 else {
            throw GStreamerError(kind: .core, message: "the buffer pool could not allocate its \(minBuffers) buffers")
        }
    }

    deinit {
        gst_buffer_pool_set_active(pointer, 0)
        gst_object_unref(UnsafeMutableRawPointer(pointer))
    }

    /// Takes a buffer from the pool, allocating one while fewer than `maxBuffers` are out. When all are
    /// out, waits for one to come back if `wait`; this blocks the calling thread, so call it from a
    /// streaming or dedicated thread, not from Swift's cooperative pool.
    ///
    /// The corresponding C function is `gst_buffer_pool_acquire_buffer` (with
    /// `GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT` when not waiting).
    ///
    /// - Parameter wait: True to wait for a buffer to come back; false to return nil at once.
    /// - Returns: A buffer of ``size`` bytes, going back to the pool when released; nil when none was free
    ///   and `wait` is false.
    /// - Throws: ``GStreamerError`` (core) when the pool is flushing or fails to allocate.
    public func acquire(wait: Bool = true) throws(GStreamerError) -> Buffer? {
        var params = GstBufferPoolAcquireParams()
        params.flags = wait ? GstBufferPoolAcquireFlags(rawValue: 0) : GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT
        var buffer: UnsafeMutablePointer<GstBuffer>?
        let result = gst_buffer_pool_acquire_buffer(pointer, &buffer, &params)
        if result == GST_FLOW_EOS && !wait { return nil }
        guard result == GST_FLOW_OK, let buffer else {
            throw GStreamerError(
                kind: .core, message: "the buffer pool gave no buffer: \(String(cString: gst_flow_get_name(result)))")
        }
        return Buffer(taking: buffer)
    }

    /// True while the pool hands out buffers (from `init` until it is released).
    ///
    /// The corresponding C function is `gst_buffer_pool_is_active`.
    public var isActive: Bool { gst_buffer_pool_is_active(pointer) != 0 }
}
