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
    /// Each plane's length in bytes, checked against the mapped memory when the frame was mapped.
    private let planeLengths: [Int]

    /// The frame `gst_video_frame_map` mapped into `frame`, once every plane is known to lie inside the
    /// mapped memory; throws (the caller unmaps) when one does not.
    init(checking frame: UnsafeMutablePointer<GstVideoFrame>, writable: Bool, bufferSize: Int) throws(GStreamerError) {
        self.frame = frame
        self.isWritable = writable
        let info = VideoInfo(unsafeRaw: frame.pointee.info)
        self.info = info
        var lengths: [Int] = []
        for plane in 0..<info.planeCount {
            let stride = Int(CGStreamerShim_video_frame_plane_stride(frame, guint(plane)))
            guard let length = info.planeLength(plane, stride: stride),
                CGStreamerShim_video_frame_plane_is_mapped(frame, guint(plane), gsize(length)) != 0
            else {
                throw GStreamerError(
                    kind: .invalidArgument,
                    message: "plane \(plane) of a \(bufferSize)-byte \(info.formatName) \(info.width)x\(info.height) "
                        + "buffer (stride \(stride), \(info.planeHeight(plane)) rows of \(info.planeRowBytes(plane)) "
                        + "bytes) lies outside its memory: its layout (GstVideoMeta, or the strides and offsets given) "
                        + "does not fit")
            }
            lengths.append(length)
        }
        self.planeLengths = lengths
    }

    /// The number of planes, as ``info`` gives it.
    public var planeCount: Int { info.planeCount }

    /// Bytes per row of `plane`, padding included.
    ///
    /// - Parameter plane: The plane's index, from 0 to ``planeCount`` - 1.
    /// - Returns: The stride in bytes; 0 for a plane the format does not have.
    public func stride(_ plane: Int) -> Int {
        guard plane >= 0 && plane < planeCount else { return 0 }
        return Int(CGStreamerShim_video_frame_plane_stride(frame, guint(plane)))
    }

    private func checkPlane(_ plane: Int) throws(GStreamerError) {
        guard plane >= 0 && plane < planeCount else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "plane \(plane) of \(info.formatName), which has planes 0 to \(planeCount - 1)")
        }
    }

    /// Reads plane `plane`: its bytes (from the first row to the end of the last row's pixels) and stride.
    ///
    /// - Parameters:
    ///   - plane: The plane's index, from 0 to ``planeCount`` - 1.
    ///   - body: Reads the plane's bytes and gets its stride; the pointer is valid only until it returns.
    /// - Returns: What `body` returns.
    /// - Throws: ``GStreamerError`` (invalid argument) for a plane the format does not have, or what `body`
    ///   throws.
    public func withPlane<R>(_ plane: Int, _ body: (UnsafeRawBufferPointer, _ stride: Int) throws -> R) throws -> R {
        try checkPlane(plane)
        let base = CGStreamerShim_video_frame_plane_data(frame, guint(plane))
        return try body(UnsafeRawBufferPointer(start: base, count: planeLengths[plane]), stride(plane))
    }

    /// Writes plane `plane`. Only for frames mapped writable.
    ///
    /// - Parameters:
    ///   - plane: The plane's index, from 0 to ``planeCount`` - 1.
    ///   - body: Writes the plane's bytes and gets its stride; the pointer is valid only until it returns.
    /// - Returns: What `body` returns.
    /// - Throws: ``GStreamerError`` (invalid argument) when the frame was mapped read-only or has no such plane,
    ///   or what `body` throws.
    public func withMutablePlane<R>(
        _ plane: Int, _ body: (UnsafeMutableRawBufferPointer, _ stride: Int) throws -> R
    ) throws -> R {
        guard isWritable else {
            throw GStreamerError(
                kind: .invalidArgument, message: "the frame was mapped read-only: map it with writable: true")
        }
        try checkPlane(plane)
        let base = CGStreamerShim_video_frame_plane_data(frame, guint(plane))
        return try body(UnsafeMutableRawBufferPointer(start: base, count: planeLengths[plane]), stride(plane))
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
    ///   cannot be mapped as `info` (too small, say), or a plane as laid out (by the buffer's GstVideoMeta, or
    ///   `info`'s strides and offsets) would lie outside the buffer's memory; or what `body` throws.
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
        // Zeroed, so the maps gst_video_frame_map leaves unused read as empty in the plane check.
        frame.initialize(to: GstVideoFrame())
        defer { frame.deallocate() }
        let flags = writable ? GST_MAP_WRITE : GST_MAP_READ
        guard gst_video_frame_map(frame, &layout, pointer, flags) != 0 else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "could not map a \(size)-byte buffer as \(info.formatName) \(info.width)x\(info.height)")
        }
        defer { gst_video_frame_unmap(frame) }
        let mapped = try MappedVideoFrame(checking: frame, writable: writable, bufferSize: size)
        return try body(mapped)
    }
}
