/// A sink of video frames, like an SDK's custom renderer.
///
/// Examples: `Examples/CustomRenderer` (`.pixelBuffer`, rows walked by stride) and
/// `Examples/MediaIOPair` (`.rawData`).
public protocol VideoSink: VideoLifecycle {
    /// The pixel format the sink prefers.
    var pixelFormat: VideoPixelFormat { get }
    /// Every pixel format it accepts, preferred first; by default only `pixelFormat`.
    var acceptedPixelFormats: [VideoPixelFormat] { get }
    /// NULL → READY. Returning false fails the state change.
    ///
    /// - Returns: True when the sink is ready; false fails the state change.
    func shouldInitialize() -> Bool
    /// A frame to render (for `bufferType == .pixelBuffer`), on the streaming thread, synchronously.
    /// Throwing stops the pipeline with the error, naming the element.
    ///
    /// - Parameter frame: The frame, read-only, valid for as long as it is kept (it holds its buffer).
    /// - Throws: Anything; the pipeline then stops with an error naming the element and carrying the error's
    ///   description.
    func render(_ frame: VideoFrame) throws
    /// Tightly packed pixels to render (for `bufferType == .rawData`).
    ///
    /// - Parameters:
    ///   - bytes: The pixels, plane after plane, rows without padding; valid only during the call.
    ///   - format: The pixels' shape.
    ///   - timestamp: Presentation timestamp in nanoseconds.
    ///   - rotation: Clockwise rotation to apply for display.
    /// - Throws: Anything; the pipeline then stops with an error naming the element.
    func renderRawData(
        _ bytes: UnsafeRawBufferPointer, format: VideoFrameFormat, timestamp: ClockTime, rotation: VideoRotation
    ) throws
    /// Upstream ended: no frames follow.
    func endOfStream()
}

extension VideoSink {
    /// The default: ``pixelFormat`` alone.
    public var acceptedPixelFormats: [VideoPixelFormat] { [pixelFormat] }
    /// The default: the sink is ready.
    ///
    /// - Returns: True.
    public func shouldInitialize() -> Bool { true }
    /// The default: ignores the frame (a `.rawData` sink implements ``renderRawData(_:format:timestamp:rotation:)``).
    ///
    /// - Parameter frame: The frame, ignored.
    /// - Throws: Never.
    public func render(_ frame: VideoFrame) throws {}
    /// The default: ignores the bytes (a `.pixelBuffer` sink implements ``render(_:)``).
    ///
    /// - Parameters:
    ///   - bytes: The pixels, ignored.
    ///   - format: Their shape.
    ///   - timestamp: Their presentation timestamp in nanoseconds.
    ///   - rotation: Their rotation.
    /// - Throws: Never.
    public func renderRawData(
        _ bytes: UnsafeRawBufferPointer, format: VideoFrameFormat, timestamp: ClockTime, rotation: VideoRotation
    ) throws {}
    /// The default: does nothing.
    public func endOfStream() {}
}
