import GStreamer

/// The shape of a video frame: pixel format, size, frame rate, and the bytes per row of each plane.
public struct VideoFrameFormat: Sendable, Equatable, CustomStringConvertible {
    /// The layout of the pixels (planar YUV, packed RGB…).
    public var pixelFormat: VideoPixelFormat
    /// Width in pixels.
    public var width: Int
    /// Height in pixels (rows of the first plane).
    public var height: Int
    /// Frames per second, 0/1 when the rate is variable or unknown.
    public var frameRate: VideoFrameRate
    /// Bytes from one row to the next in each plane, padding included.
    public var bytesPerRow: [Int]

    /// A tightly packed format: rows without padding.
    ///
    /// - Parameters:
    ///   - pixelFormat: The pixel layout.
    ///   - width: Width in pixels.
    ///   - height: Height in pixels.
    ///   - frameRate: Frames per second; 0/1 (the default) for a variable rate.
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
    ///
    /// - Parameter plane: The plane's index, from 0 to ``planeCount`` - 1.
    /// - Returns: The plane's height in rows: ``height``, or half of it rounded up for a vertically subsampled
    ///   chroma plane.
    public func rows(inPlane plane: Int) -> Int {
        pixelFormat.planeShapes(width: width, height: height)[plane].rows
    }

    /// Bytes of pixels in one row of plane `plane`, without padding.
    ///
    /// - Parameter plane: The plane's index, from 0 to ``planeCount`` - 1.
    /// - Returns: The bytes a row's pixels take; ``bytesPerRow`` for the same plane is this or more.
    public func pixelBytesPerRow(inPlane plane: Int) -> Int {
        pixelFormat.planeShapes(width: width, height: height)[plane].rowBytes
    }

    /// Bytes of one frame in this layout (the last row of each plane without padding counted in full);
    /// `Int.max` when the count overflows.
    public var byteCount: Int { checkedByteCount ?? Int.max }

    /// ``byteCount``, or nil when it overflows (an enormous size, or a negative row padding); a negative
    /// size counts as 0.
    var checkedByteCount: Int? {
        let shapes = pixelFormat.checkedPlaneShapes(width: max(width, 0), height: max(height, 0))
        guard let shapes, bytesPerRow.count == shapes.count else { return nil }
        var total = 0
        for (rowBytes, shape) in zip(bytesPerRow, shapes) {
            guard rowBytes >= 0 else { return nil }
            let (plane, overflow) = rowBytes.multipliedReportingOverflow(by: shape.rows)
            let (sum, overflowAgain) = total.addingReportingOverflow(plane)
            guard !overflow, !overflowAgain else { return nil }
            total = sum
        }
        return total
    }

    /// Same pixel format and size, whatever the row padding and the frame rate.
    ///
    /// - Parameter other: The format to compare with.
    /// - Returns: Whether a frame of one format can be copied row by row into a frame of the other.
    public func hasSameImageShape(as other: VideoFrameFormat) -> Bool {
        pixelFormat == other.pixelFormat && width == other.width && height == other.height
    }

    /// GStreamer's default layout (rows padded as GStreamer pads them) for this shape.
    func gstreamerInfo() throws(GStreamerError) -> VideoInfo {
        try VideoInfo(
            format: pixelFormat.gstreamerName, width: width, height: height,
            framerate: (frameRate.numerator, frameRate.denominator))
    }

    /// The format for logs, such as `I420 640x480 @ 30/1 (bytes per row [640, 320, 320])`.
    public var description: String {
        "\(pixelFormat) \(width)x\(height) @ \(frameRate) (bytes per row \(bytesPerRow))"
    }
}
