@_exported import GStreamer

/// What a source asks of downstream when choosing its format: acceptable pixel formats in order of
/// preference, and the size and rate it would like (downstream caps filters win).
public struct VideoFormatRequest: Sendable {
    public var pixelFormats: [VideoPixelFormat]
    public var width: Int
    public var height: Int
    public var frameRate: VideoFrameRate

    public init(pixelFormats: [VideoPixelFormat], width: Int, height: Int, frameRate: VideoFrameRate) {
        self.pixelFormats = pixelFormats
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }
}

/// Where a source's frames go: the element's appsrc, handed to the source at initialization.
public protocol VideoFrameConsumer: AnyObject, Sendable {
    /// Hands a frame on without copying its pixels when they are in a GStreamer buffer (frames from
    /// `makeFrame`, or a filter's input frame passed through). Blocks while downstream is full.
    @discardableResult
    func consume(_ frame: VideoFrame) -> FlowResult

    /// Hands on tightly packed pixels of `format`, copying them once into a pooled buffer.
    @discardableResult
    func consumeRawData(
        _ bytes: UnsafeRawBufferPointer, timestamp: ClockTime, format: VideoFrameFormat, rotation: VideoRotation
    ) -> FlowResult

    /// Ends the stream: no frames follow.
    func endOfStream()

    /// The format downstream accepts that best fits `request`, or nil when it accepts none of them.
    func negotiate(_ request: VideoFormatRequest) -> VideoFrameFormat?

    /// A writable frame of `format` from the element's buffer pool, to fill and hand to `consume`.
    func makeFrame(format: VideoFrameFormat, timestamp: ClockTime, duration: ClockTime?) throws -> VideoFrame

    /// Reports an error on the pipeline's bus, naming the element; the pipeline then stops.
    func reportError(_ message: String)

    /// A frame whose first plane is `frame`'s own first plane, shared (not copied). In `frame`'s format,
    /// its other planes all hold `value`, from one block shared by every such frame; as `.gray8`, it is
    /// that plane alone. Nil when `frame`'s layout does not allow it (then make and fill a frame).
    func makeFrame(sharingFirstPlaneOf frame: VideoFrame, as pixelFormat: VideoPixelFormat, otherPlanesFilledWith value: UInt8)
        -> VideoFrame?
}

extension VideoFrameConsumer {
    public func makeFrame(
        sharingFirstPlaneOf frame: VideoFrame, as pixelFormat: VideoPixelFormat, otherPlanesFilledWith value: UInt8
    ) -> VideoFrame? {
        nil
    }

    /// `makeFrame(sharingFirstPlaneOf:as:otherPlanesFilledWith:)` in `frame`'s own format.
    public func makeFrame(sharingFirstPlaneOf frame: VideoFrame, otherPlanesFilledWith value: UInt8) -> VideoFrame? {
        makeFrame(sharingFirstPlaneOf: frame, as: frame.format.pixelFormat, otherPlanesFilledWith: value)
    }
}

/// The lifecycle a MediaIO source or sink goes through, following the element's GStreamer state.
/// Each call happens once per transition, in order, never two at a time.
public protocol VideoLifecycle: AnyObject, Sendable {
    /// How the element wants frame memory.
    var bufferType: VideoBufferType { get }
    /// PAUSED → PLAYING, or the first data, whichever comes first.
    func shouldStart()
    /// PLAYING → PAUSED, or PAUSED → READY after a start; once per start. Must not wait for a
    /// `consume` in progress: that returns on its own once the element stops.
    func shouldStop()
    /// READY → NULL: release everything; the consumer is released after this.
    func shouldDispose()
}

extension VideoLifecycle {
    public var bufferType: VideoBufferType { .pixelBuffer }
    public func shouldStart() {}
    public func shouldStop() {}
    public func shouldDispose() {}
}

/// A source of video frames, like an SDK's custom capturer: it is handed a consumer at
/// initialization and gives it frames, either from its own thread or timer (push mode) or each time
/// `produceFrame` is called (pull mode).
///
/// Examples: `Examples/CustomCapturer` (push mode, its own timer), `Examples/MediaIOPair` (pull mode),
/// `Examples/PushMode` (an application pushing through a source).
public protocol VideoSource: VideoLifecycle {
    /// NULL → READY. Keep `consumer` to hand frames to. Returning false fails the state change.
    func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool
    /// Pull mode: the pipeline wants the next frame (on GStreamer's streaming thread). Hand one to the
    /// consumer, or end the stream. Push-mode sources leave this alone.
    func produceFrame()
}

extension VideoSource {
    public func produceFrame() {}
}

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
    func shouldInitialize() -> Bool
    /// A frame to render (for `bufferType == .pixelBuffer`), on the streaming thread, synchronously.
    /// Throwing stops the pipeline with the error, naming the element.
    func render(_ frame: VideoFrame) throws
    /// Tightly packed pixels to render (for `bufferType == .rawData`).
    func renderRawData(
        _ bytes: UnsafeRawBufferPointer, format: VideoFrameFormat, timestamp: ClockTime, rotation: VideoRotation
    ) throws
    /// Upstream ended: no frames follow.
    func endOfStream()
}

extension VideoSink {
    public var acceptedPixelFormats: [VideoPixelFormat] { [pixelFormat] }
    public func shouldInitialize() -> Bool { true }
    public func render(_ frame: VideoFrame) throws {}
    public func renderRawData(
        _ bytes: UnsafeRawBufferPointer, format: VideoFrameFormat, timestamp: ClockTime, rotation: VideoRotation
    ) throws {}
    public func endOfStream() {}
}

/// A filter whose output format differs from its input's: `outputPixelFormat` (read during caps
/// negotiation) is what it hands on whatever it receives; nil means "the input's format".
public protocol VideoFormatConverting: VideoFilter {
    var outputPixelFormat: VideoPixelFormat? { get }
}

/// A sink that hands frames on: it renders each frame and gives the result to the consumer it got
/// as a source. Only the source's `shouldInitialize(consumer:)` is called. Example: `Examples/CustomFilter`.
public typealias VideoFilter = VideoSink & VideoSource
