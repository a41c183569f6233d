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
    /// - Throws: ``GStreamerError`` (invalid argument) when the caps are not fixed raw video, or their width or
    ///   height is below 1.
    public init(caps: Caps) throws(GStreamerError) {
        raw = GstVideoInfo()
        guard gst_video_info_from_caps(&raw, caps.pointer) != 0 else {
            if let tooLarge = Self.tooLarge(caps) { throw tooLarge }
            throw GStreamerError(kind: .invalidArgument, message: "not fixed raw video caps: \(caps)")
        }
        guard raw.width > 0, raw.height > 0 else {
            throw GStreamerError(
                kind: .invalidArgument, message: "raw video caps with a size of \(raw.width)x\(raw.height): \(caps)")
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
    /// - Throws: ``GStreamerError`` (invalid argument) for an unknown format, a width or height outside
    ///   1...2147483647 (as caps allow), a frame too large for memory, or a rate whose numerator is negative
    ///   or whose denominator is not positive (either beyond 2147483647); also when GStreamer cannot be
    ///   initialized.
    public init(format: String, width: Int, height: Int, framerate: (Int, Int) = (0, 1)) throws(GStreamerError) {
        try GStreamer.initialize()
        raw = GstVideoInfo()
        let videoFormat = gst_video_format_from_string(format)
        guard videoFormat != GST_VIDEO_FORMAT_UNKNOWN else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "unknown video format \"\(format)\": give GStreamer's name, such as I420")
        }
        guard let columns = guint(exactly: width), columns > 0, width <= Int(Int32.max),
            let rows = guint(exactly: height), rows > 0, height <= Int(Int32.max)
        else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "a video size of \(width)x\(height) is out of range: width and height go from 1 to 2147483647")
        }
        guard let numerator = gint(exactly: framerate.0), numerator >= 0,
            let denominator = gint(exactly: framerate.1), denominator > 0
        else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "a frame rate of \(framerate.0)/\(framerate.1) is out of range: the numerator goes from 0 "
                    + "(variable) to 2147483647, the denominator from 1 to 2147483647")
        }
        // gst_video_info_set_format refuses a frame whose size overflows.
        guard gst_video_info_set_format(&raw, videoFormat, columns, rows) != 0 else {
            throw GStreamerError(
                kind: .invalidArgument, message: "a \(format) frame of \(width)x\(height) is too large for memory")
        }
        raw.fps_n = numerator
        raw.fps_d = denominator
    }

    /// Fixed raw video caps GStreamer refused for the size of their frame: the error saying so, with the
    /// size (the bytes of a 64x64 frame of the format, scaled), since "not fixed raw video caps" would
    /// send the reader looking at the caps' fields. Nil for caps refused for another reason.
    private static func tooLarge(_ caps: Caps) -> GStreamerError? {
        guard caps.isFixed, caps.mediaType == "video/x-raw", let format = caps.string("format"),
            let width = caps.int("width"), let height = caps.int("height"), width > 0, height > 0
        else { return nil }
        let videoFormat = gst_video_format_from_string(format)
        var small = GstVideoInfo()
        guard videoFormat != GST_VIDEO_FORMAT_UNKNOWN, gst_video_info_set_format(&small, videoFormat, 64, 64) != 0
        else { return nil }
        var full = GstVideoInfo()
        guard gst_video_info_set_format(&full, videoFormat, guint(width), guint(height)) == 0 else { return nil }
        let tenths = Int((Double(small.size) / 4096 * Double(width) * Double(height) / 1e8).rounded())
        return GStreamerError(
            kind: .invalidArgument,
            message: "a \(format) frame of \(width)x\(height) would take \(tenths / 10).\(tenths % 10) GB, more than "
                + "GStreamer can lay out as one frame: ask for a smaller size")
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
    ///
    /// Any value may be set (one beyond a C `gint` is clamped to it): a layout is checked where it is used,
    /// so `Buffer.withVideoFrame(_:writable:_:)` and `Buffer.addVideoMeta(_:)` throw for a stride shorter than
    /// a row's pixels or a plane past the buffer's end. ``checkLayout(fitting:)`` checks it at once.
    public var strides: [Int] {
        get { Self.planes(raw.stride, gint.self, count: planeCount) }
        set { Self.setPlanes(&raw.stride, gint.self, newValue) }
    }

    /// Byte offset of each plane from the start of the buffer.
    ///
    /// Any value may be set (a negative one reads back as 0, one beyond a C `gsize` as the largest): a
    /// layout is checked where it is used, as for ``strides``.
    public var offsets: [Int] {
        get { Self.planes(raw.offset, gsize.self, count: planeCount) }
        set { Self.setPlanes(&raw.offset, gsize.self, newValue) }
    }

    /// Bytes from plane `plane`'s first byte to its last row's last pixel, with `stride`; nil when the
    /// stride is shorter than a row's pixels or the length overflows.
    func planeLength(_ plane: Int, stride: Int) -> Int? {
        let rows = planeHeight(plane)
        let rowBytes = planeRowBytes(plane)
        guard rows > 0 else { return 0 }
        guard rowBytes >= 0, stride >= rowBytes else { return nil }
        let (padded, overflow) = stride.multipliedReportingOverflow(by: rows - 1)
        let (length, overflowAgain) = padded.addingReportingOverflow(rowBytes)
        return overflow || overflowAgain ? nil : length
    }

    /// Checks that every plane, as ``strides`` and ``offsets`` lay it out, lies inside `byteCount` bytes.
    ///
    /// - Parameter byteCount: The size of the memory the layout describes (a buffer's ``Buffer/size``).
    /// - Throws: ``GStreamerError`` (invalid argument) naming the first plane whose stride is shorter than its
    ///   row of pixels or that ends past `byteCount` bytes.
    public func checkLayout(fitting byteCount: Int) throws(GStreamerError) {
        guard width > 0, height > 0 else {
            throw GStreamerError(kind: .invalidArgument, message: "a video size of \(width)x\(height) has no pixels")
        }
        let strides = strides
        let offsets = offsets
        for plane in 0..<planeCount {
            let shape =
                "plane \(plane) of \(formatName) \(width)x\(height) (offset \(offsets[plane]), stride "
                + "\(strides[plane]), \(planeHeight(plane)) rows of \(planeRowBytes(plane)) bytes)"
            guard let length = planeLength(plane, stride: strides[plane]) else {
                throw GStreamerError(
                    kind: .invalidArgument, message: "\(shape): the stride is shorter than a row of pixels")
            }
            let (end, overflow) = offsets[plane].addingReportingOverflow(length)
            guard !overflow, end <= byteCount else {
                throw GStreamerError(
                    kind: .invalidArgument, message: "\(shape) ends past the buffer's \(byteCount) bytes")
            }
        }
    }

    /// The first `count` numbers of one of GstVideoInfo's per-plane C arrays (imported as a tuple of
    /// four `Number`s).
    private static func planes<Planes, Number: BinaryInteger>(_ planes: Planes, _: Number.Type, count: Int) -> [Int] {
        withUnsafeBytes(of: planes) { $0.bindMemory(to: Number.self).prefix(count).map { Int(clamping: $0) } }
    }

    /// Sets the first numbers (four at most) of one of GstVideoInfo's per-plane C arrays, each clamped to
    /// the C type (a layout is checked where it is used, and a setter cannot throw).
    private static func setPlanes<Planes, Number: BinaryInteger>(
        _ planes: inout Planes, _: Number.Type, _ values: [Int]
    ) {
        withUnsafeMutableBytes(of: &planes) { bytes in
            let numbers = bytes.bindMemory(to: Number.self)
            for (index, value) in values.prefix(4).enumerated() { numbers[index] = Number(clamping: value) }
        }
    }

    /// Rows in plane `plane` (half the height, rounded up, for subsampled chroma).
    ///
    /// - Parameter plane: The plane's index, from 0 to ``planeCount`` - 1.
    /// - Returns: The plane's height in rows; 0 for a plane the format does not have.
    public func planeHeight(_ plane: Int) -> Int {
        guard plane >= 0 && plane < planeCount else { return 0 }
        var copy = raw
        return Int(CGStreamerShim_video_info_plane_height(&copy, guint(plane)))
    }

    /// Bytes of pixels in one row of plane `plane`, without padding.
    ///
    /// - Parameter plane: The plane's index, from 0 to ``planeCount`` - 1.
    /// - Returns: The bytes a row's pixels take; ``strides`` for the same plane is this or more. 0 for a plane
    ///   the format does not have.
    public func planeRowBytes(_ plane: Int) -> Int {
        guard plane >= 0 && plane < planeCount else { return 0 }
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
