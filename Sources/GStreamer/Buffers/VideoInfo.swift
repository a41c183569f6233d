import CGStreamer
import CGStreamerShim

/// The layout of raw video: format, size, frame rate, and per-plane stride and offset.
/// Built from caps (GstVideoInfo) and, for a given buffer, corrected by its GstVideoMeta.
public struct VideoInfo: @unchecked Sendable, Equatable {
    // GstVideoInfo is a plain struct; its only pointer, `finfo`, points into GStreamer's static,
    // immutable format table, so copies can cross threads.
    var raw: GstVideoInfo

    /// The layout GStreamer derives from raw-video caps. Throws when the caps are not fixed raw video.
    ///
    /// The corresponding C function is `gst_video_info_from_caps`.
    ///
    /// - Parameter caps: Fixed `video/x-raw` caps.
    /// - Throws: ``GStreamerError`` (invalid argument) when the caps are not fixed raw video.
    public init(caps: Caps) throws(GStreamerError) {
        raw = GstVideoInfo()
        guard gst_video_info_from_caps(&raw, caps.pointer) != 0 else {
            throw GStreamerError(kind: .invalidArgument, message: "not fixed raw video caps: \(caps)")
        }
    }

    /// The default layout (GStreamer's strides, rows padded to 4 bytes) of a format by its GStreamer name,
    /// such as "I420".
    ///
    /// The corresponding C function is `gst_video_info_set_format`.
    ///
    /// - Parameters:
    ///   - format: GStreamer's name of the pixel format, such as "I420" or "BGRx".
    ///   - width: Width in pixels.
    ///   - height: Height in pixels.
    ///   - framerate: Frames per second as numerator and denominator; (0, 1) for variable.
    /// - Throws: ``GStreamerError`` (invalid argument) for an unknown format or a size GStreamer refuses;
    ///   also when GStreamer cannot be initialized.
    public init(format: String, width: Int, height: Int, framerate: (Int, Int) = (0, 1)) throws(GStreamerError) {
        try GStreamer.initialize()
        raw = GstVideoInfo()
        let videoFormat = gst_video_format_from_string(format)
        guard videoFormat != GST_VIDEO_FORMAT_UNKNOWN,
            gst_video_info_set_format(&raw, videoFormat, guint(width), guint(height)) != 0
        else {
            throw GStreamerError(kind: .invalidArgument, message: "unknown video format \(format) \(width)x\(height)")
        }
        raw.fps_n = gint(framerate.0)
        raw.fps_d = gint(framerate.1)
    }

    /// Same format, size, rate and colorimetry, and the same strides and offsets.
    ///
    /// The corresponding C function is `gst_video_info_is_equal`.
    ///
    /// - Parameters:
    ///   - lhs: A layout.
    ///   - rhs: Another layout.
    /// - Returns: Whether a frame of one is laid out exactly as a frame of the other.
    public static func == (lhs: VideoInfo, rhs: VideoInfo) -> Bool {
        var left = lhs.raw
        var right = rhs.raw
        return gst_video_info_is_equal(&left, &right) != 0
            && lhs.strides == rhs.strides && lhs.offsets == rhs.offsets
    }

    /// GStreamer's name of the pixel format, such as "I420" or "BGRA".
    ///
    /// The corresponding C function is `gst_video_format_to_string`.
    public var formatName: String {
        String(cString: gst_video_format_to_string(raw.finfo.pointee.format))
    }

    /// Width in pixels.
    public var width: Int { Int(raw.width) }
    /// Height in pixels.
    public var height: Int { Int(raw.height) }
    /// The number of planes: 1 for packed RGB and GRAY8, 2 for NV12, 3 for I420.
    public var planeCount: Int {
        var copy = raw
        return Int(CGStreamerShim_video_info_n_planes(&copy))
    }
    /// Total bytes of one frame in this layout.
    public var size: Int { Int(raw.size) }
    /// Frame rate as a fraction; 0/1 for variable.
    public var framerate: (numerator: Int, denominator: Int) { (Int(raw.fps_n), Int(raw.fps_d)) }
    /// True for YUV formats (GStreamer's `GST_VIDEO_FORMAT_INFO_IS_YUV`).
    public var isYUV: Bool {
        var copy = raw
        return CGStreamerShim_video_info_is_yuv(&copy) != 0
    }
    /// True for RGB formats (GStreamer's `GST_VIDEO_FORMAT_INFO_IS_RGB`).
    public var isRGB: Bool {
        var copy = raw
        return CGStreamerShim_video_info_is_rgb(&copy) != 0
    }
    /// The caps' colour matrix, such as "bt601" or "bt709".
    public var colorMatrix: String {
        switch raw.colorimetry.matrix {
        case GST_VIDEO_COLOR_MATRIX_BT709: "bt709"
        case GST_VIDEO_COLOR_MATRIX_BT601: "bt601"
        case GST_VIDEO_COLOR_MATRIX_BT2020: "bt2020"
        case GST_VIDEO_COLOR_MATRIX_RGB: "rgb"
        default: "unknown"
        }
    }

    /// True when the samples use the whole 0–255 range (as GRAY8 and RGB do by default), false for the
    /// 16–235 video range of most YUV.
    public var isFullRange: Bool { raw.colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255 }

    /// Bytes per row of each plane (including padding).
    public var strides: [Int] {
        get { Self.planes(raw.stride, gint.self, count: planeCount) }
        set { Self.setPlanes(&raw.stride, gint.self, newValue) }
    }

    /// Byte offset of each plane from the start of the buffer.
    public var offsets: [Int] {
        get { Self.planes(raw.offset, gsize.self, count: planeCount) }
        set { Self.setPlanes(&raw.offset, gsize.self, newValue) }
    }

    /// The first `count` numbers of one of GstVideoInfo's per-plane C arrays (imported as a tuple of
    /// four `Number`s).
    private static func planes<Planes, Number: BinaryInteger>(_ planes: Planes, _: Number.Type, count: Int) -> [Int] {
        withUnsafeBytes(of: planes) { $0.bindMemory(to: Number.self).prefix(count).map { Int($0) } }
    }

    /// Sets the first numbers (four at most) of one of GstVideoInfo's per-plane C arrays.
    private static func setPlanes<Planes, Number: BinaryInteger>(
        _ planes: inout Planes, _: Number.Type, _ values: [Int]
    ) {
        withUnsafeMutableBytes(of: &planes) { bytes in
            let numbers = bytes.bindMemory(to: Number.self)
            for (index, value) in values.prefix(4).enumerated() { numbers[index] = Number(value) }
        }
    }

    /// Rows in plane `plane` (half the height, rounded up, for subsampled chroma).
    ///
    /// - Parameter plane: The plane's index, from 0 to ``planeCount`` - 1.
    /// - Returns: The plane's height in rows.
    public func planeHeight(_ plane: Int) -> Int {
        var copy = raw
        return Int(CGStreamerShim_video_info_plane_height(&copy, guint(plane)))
    }

    /// Bytes of pixels in one row of plane `plane`, without padding.
    ///
    /// - Parameter plane: The plane's index, from 0 to ``planeCount`` - 1.
    /// - Returns: The bytes a row's pixels take; ``strides`` for the same plane is this or more.
    public func planeRowBytes(_ plane: Int) -> Int {
        var copy = raw
        return Int(CGStreamerShim_video_info_plane_row_bytes(&copy, guint(plane)))
    }

    /// Raw-video caps for this layout.
    ///
    /// The corresponding C function is `gst_video_info_to_caps`.
    public var caps: Caps {
        var copy = raw
        return Caps(taking: gst_video_info_to_caps(&copy))
    }

    /// This layout with the plane layout of `buffer`'s GstVideoMeta, when it has one.
    ///
    /// - Parameter buffer: A buffer of this format, possibly with a GstVideoMeta (from a pool or an upstream
    ///   element that pads rows its own way).
    /// - Returns: This layout with the buffer's strides and offsets, or this layout itself when it has no
    ///   meta.
    public func adjusted(for buffer: Buffer) -> VideoInfo {
        guard let layout = buffer.videoMetaLayout else { return self }
        var copy = self
        copy.strides = layout.strides
        copy.offsets = layout.offsets
        return copy
    }
}
