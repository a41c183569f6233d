/// What a source asks of downstream when choosing its format: acceptable pixel formats in order of
/// preference, and the size and rate it would like (downstream caps filters win).
public struct VideoFormatRequest: Sendable {
    /// Acceptable pixel formats, most preferred first.
    public var pixelFormats: [VideoPixelFormat]
    /// The width in pixels the source would like; a downstream caps filter may fix another.
    public var width: Int
    /// The height in pixels the source would like; a downstream caps filter may fix another.
    public var height: Int
    /// The frame rate the source would like; 0/1 for variable.
    public var frameRate: VideoFrameRate

    /// A request for one of `pixelFormats`, preferably at `width` x `height` and `frameRate`.
    ///
    /// - Parameters:
    ///   - pixelFormats: Acceptable pixel formats, most preferred first.
    ///   - width: The preferred width in pixels.
    ///   - height: The preferred height in pixels.
    ///   - frameRate: The preferred frame rate; 0/1 for variable.
    public init(pixelFormats: [VideoPixelFormat], width: Int, height: Int, frameRate: VideoFrameRate) {
        self.pixelFormats = pixelFormats
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }
}
