import GStreamer

/// The shape of a video frame: pixel format, size, frame rate, and the bytes per row of each plane.
public struct VideoFrameFormat: Sendable, Equatable, CustomStringConvertible {
    public var pixelFormat: VideoPixelFormat
    public var width: Int
    public var height: Int
    public var frameRate: VideoFrameRate
    /// Bytes from one row to the next in each plane, padding included.
    public var bytesPerRow: [Int]

    /// A tightly packed format: rows without padding.
    public init(pixelFormat: VideoPixelFormat, width: Int, height: Int, frameRate: VideoFrameRate = VideoFrameRate(0)) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.bytesPerRow = pixelFormat.planeShapes(width: width, height: height).map(\.rowBytes)
    }

    init(info: VideoInfo, pixelFormat: VideoPixelFormat) {
        self.pixelFormat = pixelFormat
        self.width = info.width
        self.height = info.height
        self.frameRate = VideoFrameRate(info.framerate.numerator, info.framerate.denominator)
        self.bytesPerRow = info.strides
    }

    /// The number of planes.
    public var planeCount: Int { bytesPerRow.count }

    /// Rows in plane `plane`.
    public func rows(inPlane plane: Int) -> Int {
        pixelFormat.planeShapes(width: width, height: height)[plane].rows
    }

    /// Bytes of pixels in one row of plane `plane`, without padding.
    public func pixelBytesPerRow(inPlane plane: Int) -> Int {
        pixelFormat.planeShapes(width: width, height: height)[plane].rowBytes
    }

    /// Bytes of one frame in this layout (the last row of each plane without padding counted in full).
    public var byteCount: Int {
        (0..<planeCount).reduce(0) { $0 + bytesPerRow[$1] * rows(inPlane: $1) }
    }

    /// Same pixel format, size and rate, whatever the row padding.
    public func hasSameImageShape(as other: VideoFrameFormat) -> Bool {
        pixelFormat == other.pixelFormat && width == other.width && height == other.height
    }

    /// GStreamer's default layout (rows padded as GStreamer pads them) for this shape.
    func gstreamerInfo() throws(GStreamerError) -> VideoInfo {
        try VideoInfo(
            format: pixelFormat.gstreamerName, width: width, height: height,
            framerate: (frameRate.numerator, frameRate.denominator))
    }

    public var description: String {
        "\(pixelFormat) \(width)x\(height) @ \(frameRate) (bytes per row \(bytesPerRow))"
    }
}
