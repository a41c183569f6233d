import CGStreamer
import CGStreamerShim
import GstPipeSupport
import Synchronization

/// The buffers a Swift element writes its output into (`makeBuffer`, `makeVideoBuffer`): one GstBufferPool
/// the element owns, of video frames of one layout or of plain buffers of one size, made on first use and
/// again when that changes. The pool has no maximum, so acquiring never waits for frames held downstream.
///
/// The last few plain buffers pushed through a pad of the element's own are kept as spares and handed
/// out again once downstream lets go of them, which skips the pool's queue and reset (a sixth of a
/// small audio buffer's cost).
struct ElementBufferPool: ~Copyable, Sendable {
    // Not private: Swift 6.3 fails to compile (a broken module) when another file lays out a
    // ~Copyable struct whose stored property has a private type.
    struct State {
        var pool: UnsafeMutablePointer<GstBufferPool>?
        /// What the pool makes: video frames of `info`, or plain buffers of `size` bytes.
        var info: VideoInfo?
        var size: Int?
        /// `info != nil`, read by every buffer without copying a GstVideoInfo (hundreds of bytes).
        var isVideo = false
        /// The last plain buffers of the pool pushed downstream, oldest first, with a reference of ours
        /// each: made again once downstream is done with them. More than one, since a sink keeps the
        /// last buffer it rendered until the next arrives (basesink's last-sample).
        var spares: [UnsafeMutablePointer<GstBuffer>] = []
        static let maximumSpares = 3

        /// Lets go of the pool and the spare buffers.
        mutating func drop() {
            spares.forEach { gst_buffer_unref($0) }
            spares.removeAll()
            if let pool {
                gst_buffer_pool_set_active(pool, 0)
                gst_object_unref(UnsafeMutableRawPointer(pool))
            }
            pool = nil
            info = nil
            size = nil
            isVideo = false
        }
    }
    private let state = Locked(State())

    /// A writable buffer from the pool of video frames of `video` or, with `video` nil, of plain
    /// buffers of `size` bytes; the pool is made again when that changes.
    ///
    /// - Parameters:
    ///   - size: The buffer's size in bytes.
    ///   - video: The frame layout, or nil for plain buffers.
    ///   - owner: The element's name, for an error.
    /// - Throws: ``GStreamerError`` (core) when the pool cannot be set up, or is shutting down.
    func buffer(size: Int, video: VideoInfo?, owner: @Sendable () -> String) throws(GStreamerError) -> Buffer {
        // The buffer is taken under the lock, so no other thread can drop the pool meanwhile (and no
        // reference is taken and dropped per buffer).
        let buffer = try state.withLock { state throws(GStreamerError) -> UnsafeMutablePointer<GstBuffer> in
            // Sizes first: comparing the (large) video layouts only when they may match.
            if let pool = state.pool, state.size == size, video == nil ? !state.isVideo : state.info == video {
                // A spare buffer downstream let go of: no trip through the pool's queue and reset.
                if let index = state.spares.firstIndex(where: { CGStreamerShim_buffer_recycle($0, gsize(size)) != 0 }) {
                    return state.spares.remove(at: index)
                }
                return try Self.acquire(from: pool, owner: owner)
            }
            state.drop()
            let pool = try Self.makePool(size: size, video: video, owner: owner)
            state.pool = pool
            state.info = video
            state.size = size
            state.isVideo = video != nil
            return try Self.acquire(from: pool, owner: owner)
        }
        return Buffer(taking: buffer)
    }

    private static func makePool(
        size: Int, video: VideoInfo?, owner: @Sendable () -> String
    ) throws(GStreamerError) -> UnsafeMutablePointer<GstBufferPool> {
        let pool: UnsafeMutablePointer<GstBufferPool>
        let config: UnsafeMutablePointer<GstStructure>
        let description: String
        if let info = video {
            pool = gst_video_buffer_pool_new()!
            config = gst_buffer_pool_get_config(pool)
            let caps = info.caps
            withExtendedLifetime(caps) {
                gst_buffer_pool_config_set_params(config, caps.pointer, guint(info.size), 2, 0)
            }
            gst_buffer_pool_config_add_option(config, "GstBufferPoolOptionVideoMeta")
            description = "\(caps)"
        } else {
            pool = gst_buffer_pool_new()!
            config = gst_buffer_pool_get_config(pool)
            gst_buffer_pool_config_set_params(config, nil, guint(size), 2, 0)
            description = "buffers of \(size) bytes"
        }
        guard gst_buffer_pool_set_config(pool, config) != 0, gst_buffer_pool_set_active(pool, 1) != 0 else {
            gst_object_unref(UnsafeMutableRawPointer(pool))
            throw GStreamerError(
                kind: .core, message: "could not set up a buffer pool for \(description)", source: owner())
        }
        return pool
    }

    private static func acquire(
        from pool: UnsafeMutablePointer<GstBufferPool>, owner: @Sendable () -> String
    ) throws(GStreamerError) -> UnsafeMutablePointer<GstBuffer> {
        var buffer: UnsafeMutablePointer<GstBuffer>?
        guard gst_buffer_pool_acquire_buffer(pool, &buffer, nil) == GST_FLOW_OK, let buffer else {
            throw GStreamerError(kind: .core, message: "the buffer pool is shutting down", source: owner())
        }
        return buffer
    }

    /// Keeps `buffer`, just pushed, as a spare when it is one of the pool's plain buffers, for
    /// `buffer(size:video:owner:)` to use again once downstream is done with it (in a pipeline that
    /// drops each buffer soon, the same few buffers go round).
    func keepSpare(_ buffer: Buffer) {
        guard let pool = buffer.withPointer({ $0.pointee.pool }) else { return }
        // Addresses, not pointers, go into the lock's closure (pointers are not Sendable).
        let (poolAddress, bufferAddress) = (UInt(bitPattern: pool), buffer.identity)
        state.withLock { state in
            guard let spare = UnsafeMutablePointer<GstBuffer>(bitPattern: bufferAddress),
                state.pool.map({ UInt(bitPattern: $0) }) == poolAddress, !state.isVideo, !state.spares.contains(spare)
            else { return }
            if state.spares.count == State.maximumSpares { gst_buffer_unref(state.spares.removeFirst()) }
            state.spares.append(gst_buffer_ref(spare))
        }
    }

    /// Lets go of the pool and the spares: the run ended (PAUSED → READY), or the element is going.
    func drop() {
        state.withLock { $0.drop() }
    }
}
