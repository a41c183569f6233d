import CGStreamer
import CGStreamerShim

/// A buffer mapped as a video frame, valid only inside `Buffer.withVideoFrame`. Plane pointers come
/// from the buffer's GstVideoMeta when it has one, else from the caps' layout.
public struct MappedVideoFrame: ~Copyable {
    let frame: UnsafeMutablePointer<GstVideoFrame>
    /// Whether the planes may be written.
    public let isWritable: Bool
    /// The layout as mapped (strides and offsets of this very buffer).
    public let info: VideoInfo

    init(frame: UnsafeMutablePointer<GstVideoFrame>, writable: Bool) {
        self.frame = frame
        self.isWritable = writable
        self.info = VideoInfo(unsafeRaw: frame.pointee.info)
    }

    /// The number of planes, as ``info`` gives it.
    public var planeCount: Int { info.planeCount }

    /// Bytes per row of `plane`, padding included.
    ///
    /// - Parameter plane: The plane's index, from 0 to ``planeCount`` - 1.
    /// - Returns: The stride in bytes.
    public func stride(_ plane: Int) -> Int {
        Int(CGStreamerShim_video_frame_plane_stride(frame, guint(plane)))
    }

    private func planeLength(_ plane: Int) -> Int {
        let rows = info.planeHeight(plane)
        guard rows > 0 else { return 0 }
        return stride(plane) * (rows - 1) + info.planeRowBytes(plane)
    }

    /// Reads plane `plane`: its bytes (from the first row to the end of the last row's pixels) and stride.
    ///
    /// - Parameters:
    ///   - plane: The plane's index, from 0 to ``planeCount`` - 1 (a precondition).
    ///   - body: Reads the plane's bytes and gets its stride; the pointer is valid only until it returns.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withPlane<R>(_ plane: Int, _ body: (UnsafeRawBufferPointer, _ stride: Int) throws -> R) rethrows -> R {
        precondition(plane >= 0 && plane < planeCount, "plane \(plane) out of range")
        let base = CGStreamerShim_video_frame_plane_data(frame, guint(plane))
        return try body(UnsafeRawBufferPointer(start: base, count: planeLength(plane)), stride(plane))
    }

    /// Writes plane `plane`. Only for frames mapped writable.
    ///
    /// - Parameters:
    ///   - plane: The plane's index, from 0 to ``planeCount`` - 1 (a precondition).
    ///   - body: Writes the plane's bytes and gets its stride; the pointer is valid only until it returns.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withMutablePlane<R>(
        _ plane: Int, _ body: (UnsafeMutableRawBufferPointer, _ stride: Int) throws -> R
    ) rethrows -> R {
        precondition(isWritable, "the frame was mapped read-only")
        precondition(plane >= 0 && plane < planeCount, "plane \(plane) out of range")
        let base = CGStreamerShim_video_frame_plane_data(frame, guint(plane))
        return try body(UnsafeMutableRawBufferPointer(start: base, count: planeLength(plane)), stride(plane))
    }
}

extension VideoInfo {
    init(unsafeRaw: GstVideoInfo) {
        raw = unsafeRaw
    }
}

extension Buffer {
    /// Maps the buffer as one video frame of layout `info` for the duration of `body`; read-only
    /// unless `writable` (which requires a writable buffer: writing never copies behind your back).
    ///
    /// The corresponding C functions are `gst_video_frame_map` and `gst_video_frame_unmap`.
    ///
    /// - Parameters:
    ///   - info: The frame's layout, from its caps (a GstVideoMeta on the buffer overrides strides and
    ///     offsets).
    ///   - writable: True to map for writing.
    ///   - body: Reads (or writes) the frame; it must not keep it.
    /// - Returns: What `body` returns.
    /// - Throws: ``GStreamerError`` (invalid argument) when `writable` and the buffer is shared, or the buffer
    ///   cannot be mapped as `info` (too small, say); or what `body` throws.
    public func withVideoFrame<R>(
        _ info: VideoInfo, writable: Bool = false, _ body: (borrowing MappedVideoFrame) throws -> R
    ) throws -> R {
        if writable && !isWritable {
            throw GStreamerError(kind: .invalidArgument, message: "the buffer is shared and cannot be written")
        }
        let pointer = enterScope()
        defer { leaveScope() }
        var layout = info.raw
        let frame = UnsafeMutablePointer<GstVideoFrame>.allocate(capacity: 1)
        defer { frame.deallocate() }
        let flags = writable ? GST_MAP_WRITE : GST_MAP_READ
        guard gst_video_frame_map(frame, &layout, pointer, flags) != 0 else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "could not map a \(size)-byte buffer as \(info.formatName) \(info.width)x\(info.height)")
        }
        defer { gst_video_frame_unmap(frame) }
        let mapped = MappedVideoFrame(frame: frame, writable: writable)
        return try body(mapped)
    }
}
