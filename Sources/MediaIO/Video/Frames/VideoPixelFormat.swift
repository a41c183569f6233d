import GStreamer

/// Pixel formats a MediaIO source or sink can use, each mapped to a GstVideoFormat.
public enum VideoPixelFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Planar YUV 4:2:0: Y, then U, then V (quarter size).
    case i420
    /// Planar YUV 4:2:0: Y, then V, then U.
    case yv12
    /// Y plane, then interleaved UV at quarter size.
    case nv12
    /// Y plane, then interleaved VU at quarter size.
    case nv21
    /// Planar YUV 4:2:2.
    case y42b
    /// Planar YUV 4:4:4.
    case y444
    /// One 8-bit luma plane.
    case gray8
    /// Packed 32-bit RGB with alpha; the name gives the byte order in memory (`bgra`: blue first, alpha last).
    case bgra, rgba, argb, abgr
    /// Packed 32-bit RGB with an unused padding byte (`x`) where the alpha formats have alpha.
    case bgrx, rgbx, xrgb, xbgr
    /// Packed 24-bit RGB.
    case rgb
    /// Packed 24-bit BGR.
    case bgr

    /// GStreamer's name for the format, as in caps (`format=I420`).
    public var gstreamerName: String {
        switch self {
        case .i420: "I420"
        case .yv12: "YV12"
        case .nv12: "NV12"
        case .nv21: "NV21"
        case .y42b: "Y42B"
        case .y444: "Y444"
        case .gray8: "GRAY8"
        case .bgra: "BGRA"
        case .rgba: "RGBA"
        case .argb: "ARGB"
        case .abgr: "ABGR"
        case .bgrx: "BGRx"
        case .rgbx: "RGBx"
        case .xrgb: "xRGB"
        case .xbgr: "xBGR"
        case .rgb: "RGB"
        case .bgr: "BGR"
        }
    }

    /// The format of a GStreamer name, such as "NV12".
    ///
    /// - Parameter gstreamerName: The name as it appears in caps and in `GST_VIDEO_FORMAT_*`, case-sensitive
    ///   (`"BGRx"`, not `"BGRX"`).
    public init?(gstreamerName: String) {
        guard let format = VideoPixelFormat.allCases.first(where: { $0.gstreamerName == gstreamerName }) else {
            return nil
        }
        self = format
    }

    /// GStreamer's name for the format, as ``gstreamerName`` gives it.
    public var description: String { gstreamerName }

    /// True for the YUV formats (and GRAY8, which is luma only).
    public var isYUV: Bool {
        switch self {
        case .i420, .yv12, .nv12, .nv21, .y42b, .y444, .gray8: true
        default: false
        }
    }

    /// For packed RGB formats: byte offsets of R, G and B within a pixel, and bytes per pixel.
    public var rgbLayout: (red: Int, green: Int, blue: Int, pixelBytes: Int)? {
        switch self {
        case .bgra, .bgrx: (2, 1, 0, 4)
        case .rgba, .rgbx: (0, 1, 2, 4)
        case .argb, .xrgb: (1, 2, 3, 4)
        case .abgr, .xbgr: (3, 2, 1, 4)
        case .rgb: (0, 1, 2, 3)
        case .bgr: (2, 1, 0, 3)
        default: nil
        }
    }

    /// Byte offset of alpha within a pixel, for formats with alpha.
    public var alphaOffset: Int? {
        switch self {
        case .bgra, .rgba: 3
        case .argb, .abgr: 0
        default: nil
        }
    }

    /// Pixel bytes per row and rows of each plane at `width` x `height` (chroma rounded up).
    ///
    /// - Parameters:
    ///   - width: The frame width in pixels.
    ///   - height: The frame height in pixels.
    /// - Returns: One entry per plane, in plane order: the bytes of pixels in a row (no padding) and the number
    ///   of rows. Subsampled chroma planes round odd sizes up, as GStreamer does. A negative size counts as 0,
    ///   and a count too large for `Int` reads as `Int.max`.
    public func planeShapes(width: Int, height: Int) -> [(rowBytes: Int, rows: Int)] {
        checkedPlaneShapes(width: max(width, 0), height: max(height, 0), clamping: true) ?? []
    }

    /// ``planeShapes(width:height:)``, or nil when a size is negative or a count overflows (unless
    /// `clamping`, which gives `Int.max` instead).
    func checkedPlaneShapes(
        width: Int, height: Int, clamping: Bool = false
    ) -> [(rowBytes: Int, rows: Int)]? {
        guard width >= 0, height >= 0 else { return nil }
        // Halves rounded up without overflowing at Int.max.
        let halfWidth = width / 2 + width % 2
        let halfHeight = height / 2 + height % 2
        var overflowed = false
        func times(_ factor: Int, _ value: Int) -> Int {
            let (product, overflow) = value.multipliedReportingOverflow(by: factor)
            overflowed = overflowed || overflow
            return overflow ? Int.max : product
        }
        let shapes: [(rowBytes: Int, rows: Int)] =
            switch self {
            case .i420, .yv12: [(width, height), (halfWidth, halfHeight), (halfWidth, halfHeight)]
            case .nv12, .nv21: [(width, height), (times(2, halfWidth), halfHeight)]
            case .y42b: [(width, height), (halfWidth, height), (halfWidth, height)]
            case .y444: [(width, height), (width, height), (width, height)]
            case .gray8: [(width, height)]
            case .rgb, .bgr: [(times(3, width), height)]
            default: [(times(4, width), height)]
            }
        return overflowed && !clamping ? nil : shapes
    }

    /// Raw-video caps listing `formats` in order, any size and rate.
    ///
    /// - Parameter formats: The pixel formats to accept, most preferred first; caps negotiation tries them in
    ///   this order.
    /// - Returns: A caps string such as `video/x-raw, format=(string){ I420, NV12 }, width=…`, for a pad template
    ///   or `Caps.init(_:)`.
    public static func caps(for formats: [VideoPixelFormat]) -> String {
        "video/x-raw, format=(string){ \(formats.map(\.gstreamerName).joined(separator: ", ")) }, "
            + "width=(int)[ 1, 2147483647 ], height=(int)[ 1, 2147483647 ], framerate=(fraction)[ 0/1, 2147483647/1 ]"
    }
}

/// How a source hands over, or a sink receives, frame memory.
public enum VideoBufferType: Sendable {
    /// Zero-copy access to the GStreamer buffer's planes, with their strides.
    case pixelBuffer
    /// Tightly packed bytes (one copy), for code that wants a plain byte array.
    case rawData
}

/// The colour matrix relating a frame's YUV to RGB, as its caps' colorimetry names it.
public enum VideoColorMatrix: String, Sendable {
    /// A matrix: ITU-R BT.601 (SD), BT.709 (HD), BT.2020 (UHD), `rgb` for RGB frames (no matrix), or `unknown`
    /// when the caps do not say.
    case bt601, bt709, bt2020, rgb, unknown
}

/// Clockwise rotation to apply to a frame for display.
public enum VideoRotation: Int, Sendable {
    /// No rotation.
    case none = 0
    /// A quarter turn clockwise.
    case rotate90 = 90
    /// Upside down.
    case rotate180 = 180
    /// Three quarter turns clockwise (a quarter turn counterclockwise).
    case rotate270 = 270
}

/// A frame rate as a fraction of frames per second; 0/1 means variable.
public struct VideoFrameRate: Sendable, Equatable, CustomStringConvertible {
    /// Frames per ``denominator`` seconds; 0 for a variable rate.
    public var numerator: Int
    /// The seconds that ``numerator`` frames take.
    public var denominator: Int

    /// A rate of `numerator`/`denominator` frames per second, such as `VideoFrameRate(30_000, 1001)` for NTSC.
    ///
    /// - Parameters:
    ///   - numerator: Frames per `denominator` seconds; 0 for a variable rate.
    ///   - denominator: Seconds; 1 unless the rate is fractional.
    public init(_ numerator: Int, _ denominator: Int = 1) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// Duration of one frame in nanoseconds, nil for a variable rate.
    public var frameDuration: ClockTime? {
        guard numerator > 0, denominator > 0 else { return nil }
        return Self.nanoseconds(1, times: UInt64(denominator), over: UInt64(numerator))
    }

    /// Timestamp of frame `index` in nanoseconds (exact, without accumulating rounding).
    ///
    /// Exact for any index: a live source at 30000/1001 runs for years before a timestamp leaves `UInt64`
    /// (where it reads as `ClockTime.max`).
    ///
    /// - Parameter index: The frame's index from the start of the stream, 0 for the first frame; a negative
    ///   index reads as 0.
    /// - Returns: The frame's presentation time in nanoseconds; 0 for every frame when the rate is variable.
    public func timestamp(ofFrame index: Int) -> ClockTime {
        guard numerator > 0, denominator > 0, index > 0 else { return 0 }
        return Self.nanoseconds(UInt64(index), times: UInt64(denominator), over: UInt64(numerator))
    }

    /// `value × multiplier / divisor` seconds in nanoseconds, rounded down, through 128-bit products (a
    /// week at 30000/1001 is already 1.8e19 once multiplied out); `ClockTime.max` when the result overflows.
    private static func nanoseconds(_ value: UInt64, times multiplier: UInt64, over divisor: UInt64) -> ClockTime {
        let product = value.multipliedFullWidth(by: multiplier)
        guard product.high < divisor else { return .max }
        let (seconds, remainder) = divisor.dividingFullWidth(product)
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .max }
        // remainder < divisor, so remainder × 1e9 / divisor < 1e9 and its high half is below divisor.
        let fraction = divisor.dividingFullWidth(remainder.multipliedFullWidth(by: 1_000_000_000)).quotient
        let (sum, overflowAgain) = whole.addingReportingOverflow(fraction)
        return overflowAgain ? .max : sum
    }

    /// The rate as GStreamer writes it in caps, `numerator/denominator` (such as `30/1`).
    public var description: String { "\(numerator)/\(denominator)" }
}
