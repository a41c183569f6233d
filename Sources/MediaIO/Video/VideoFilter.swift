/// A sink that hands frames on: it renders each frame and gives the result to the consumer it got
/// as a source. Only the source's `shouldInitialize(consumer:)` is called. Example: `Examples/CustomFilter`.
public typealias VideoFilter = VideoSink & VideoSource

/// A filter whose output format differs from its input's: `outputPixelFormat` (read during caps
/// negotiation) is what it hands on whatever it receives; nil means "the input's format".
public protocol VideoFormatConverting: VideoFilter {
    /// The pixel format of every frame the filter hands on, or nil for the input's own format.
    var outputPixelFormat: VideoPixelFormat? { get }
}
