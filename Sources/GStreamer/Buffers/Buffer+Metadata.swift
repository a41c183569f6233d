import CGStreamer

// What a buffer says about its data beside the bytes and the timestamps: its flags, and the plane
// layout of a video frame (GstVideoMeta).

extension Buffer {
    /// True when the buffer cannot be decoded on its own (an encoded frame that is not a key frame).
    ///
    /// The corresponding C flag is `GST_BUFFER_FLAG_DELTA_UNIT`.
    public var isDeltaUnit: Bool {
        get { read { $0.pointee.mini_object.flags & GST_BUFFER_FLAG_DELTA_UNIT.rawValue != 0 } }
        set {
            modify { buffer in
                if newValue {
                    buffer.pointee.mini_object.flags |= GST_BUFFER_FLAG_DELTA_UNIT.rawValue
                } else {
                    buffer.pointee.mini_object.flags &= ~GST_BUFFER_FLAG_DELTA_UNIT.rawValue
                }
            }
        }
    }

    /// True when the buffer follows a gap or a flush (a seek): what came before it is not its past.
    ///
    /// The corresponding C flag is `GST_BUFFER_FLAG_DISCONT`.
    public var isDiscontinuity: Bool { read { $0.pointee.mini_object.flags & GST_BUFFER_FLAG_DISCONT.rawValue != 0 } }

    /// Adds a GstVideoMeta describing per-plane offsets and strides.
    ///
    /// The corresponding C function is `gst_buffer_add_video_meta_full`.
    ///
    /// - Parameter info: The layout to describe: format, size, and each plane's offset and stride in bytes.
    /// - Throws: ``GStreamerError`` (invalid argument) when a plane of `info` does not fit in this buffer
    ///   (``VideoInfo/checkLayout(fitting:)``): downstream elements would read past its memory.
    public func addVideoMeta(_ info: VideoInfo) throws(GStreamerError) {
        try info.checkLayout(fitting: size)
        let pointer = enterScope()
        defer { leaveScope() }
        var offsets = info.raw.offset
        var strides = info.raw.stride
        withUnsafeMutableBytes(of: &offsets) { offsetBytes in
            withUnsafeMutableBytes(of: &strides) { strideBytes in
                _ = gst_buffer_add_video_meta_full(
                    pointer, GST_VIDEO_FRAME_FLAG_NONE, info.raw.finfo.pointee.format, guint(info.width),
                    guint(info.height), guint(info.planeCount),
                    offsetBytes.baseAddress!.assumingMemoryBound(to: gsize.self),
                    strideBytes.baseAddress!.assumingMemoryBound(to: gint.self))
            }
        }
    }

    /// The plane layout from the buffer's GstVideoMeta, when it has one.
    ///
    /// The corresponding C function is `gst_buffer_get_video_meta`.
    public var videoMetaLayout: (offsets: [Int], strides: [Int])? {
        let pointer = enterScope()
        defer { leaveScope() }
        guard let meta = gst_buffer_get_video_meta(pointer) else { return nil }
        let planes = min(Int(meta.pointee.n_planes), Int(GST_VIDEO_MAX_PLANES))
        let offsets = withUnsafeBytes(of: meta.pointee.offset) { Array($0.bindMemory(to: gsize.self).prefix(planes)) }
        let strides = withUnsafeBytes(of: meta.pointee.stride) { Array($0.bindMemory(to: gint.self).prefix(planes)) }
        return (offsets.map { Int(clamping: $0) }, strides.map { Int($0) })
    }
}
