/// A sink of video frames, like an SDK's custom renderer.
///
/// A sink implements one of two callbacks: ``render(_:)``, which gets each frame as it is (zero-copy,
/// ``VideoBufferType/pixelBuffer``, the default), or ``renderRawData(_:format:timestamp:rotation:)``,
/// which gets tightly packed bytes (one copy, ``VideoBufferType/rawData``). ``VideoLifecycle/bufferType``
/// picks between them when it implements both. One that implements only the callback its
/// `bufferType` does not name gets its frames there all the same, and the element posts a warning
/// once, naming the sink and the callback; one that implements neither (a misspelt signature is the
/// usual cause) fails on its first frame with an error naming the callback to write.
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
    /// A frame to render (for `bufferType == .pixelBuffer`, or for a sink that implements no
    /// ``renderRawData(_:format:timestamp:rotation:)``), on the streaming thread, synchronously.
    /// Throwing stops the pipeline with the error, naming the element.
    ///
    /// - Parameter frame: The frame, read-only, valid for as long as it is kept (it holds its buffer).
    /// - Throws: Anything; the pipeline then stops with an error naming the element and carrying the error's
    ///   description.
    func render(_ frame: VideoFrame) throws
    /// Tightly packed pixels to render (for `bufferType == .rawData`, or for a sink that implements
    /// no ``render(_:)``), on the streaming thread, synchronously.
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
    /// The default, for a sink that renders raw data: not implemented. The element then hands the
    /// frame, packed, to ``renderRawData(_:format:timestamp:rotation:)`` instead; called directly, it
    /// does nothing.
    ///
    /// - Parameter frame: The frame, ignored.
    /// - Throws: Never.
    public func render(_ frame: VideoFrame) throws {
        DefaultCallbackProbe.ran(.render, of: self)
    }
    /// The default, for a sink that renders frames: not implemented. The element then hands the
    /// frame to ``render(_:)`` instead; called directly, it does nothing.
    ///
    /// - Parameters:
    ///   - bytes: The pixels, ignored.
    ///   - format: Their shape.
    ///   - timestamp: Their presentation timestamp in nanoseconds.
    ///   - rotation: Their rotation.
    /// - Throws: Never.
    public func renderRawData(
        _ bytes: UnsafeRawBufferPointer, format: VideoFrameFormat, timestamp: ClockTime, rotation: VideoRotation
    ) throws {
        DefaultCallbackProbe.ran(.renderRawData, of: self)
    }
    /// The default: does nothing.
    public func endOfStream() {}
}
