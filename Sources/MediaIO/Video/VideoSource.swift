@_exported import GStreamer

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

/// Where a source's frames go: the element's appsrc, handed to the source at initialization.
public protocol VideoFrameConsumer: AnyObject, Sendable {
    /// Hands a frame on without copying its pixels when they are in a GStreamer buffer (frames from
    /// `makeFrame`, or a filter's input frame passed through). Blocks while downstream is full.
    ///
    /// A frame in memory of its own (``VideoBufferType/rawData``) is copied once into a pooled buffer.
    /// May be called from any thread; a filter calls it from `render`, on the streaming thread.
    ///
    /// - Parameter frame: The frame to hand on; its timestamp and duration (nanoseconds) become the buffer's.
    /// - Returns: How the push went: `FlowResult.ok`, `FlowResult.flushing` while the
    ///   element is stopping or seeking (drop the frame, it is not an error), or an error that has been
    ///   reported on the bus.
    @discardableResult
    func consume(_ frame: VideoFrame) -> FlowResult

    /// Hands on tightly packed pixels of `format`, copying them once into a pooled buffer.
    ///
    /// - Parameters:
    ///   - bytes: The pixels, plane after plane, rows without padding; copied before the call returns.
    ///   - timestamp: Presentation timestamp in nanoseconds; the duration is one frame at `format`'s rate.
    ///   - format: The pixels' shape (its `bytesPerRow` is ignored: the bytes are tightly packed).
    ///   - rotation: Clockwise rotation to apply for display.
    /// - Returns: How the push went, as for ``consume(_:)``.
    @discardableResult
    func consumeRawData(
        _ bytes: UnsafeRawBufferPointer, timestamp: ClockTime, format: VideoFrameFormat, rotation: VideoRotation
    ) -> FlowResult

    /// Ends the stream: no frames follow.
    func endOfStream()

    /// The format downstream accepts that best fits `request`, or nil when it accepts none of them.
    /// Call it in `shouldInitialize(consumer:)` or later, before making frames; the caps it settles on are
    /// those the first frame is sent with.
    ///
    /// - Parameter request: The pixel formats the source can produce, and the size and rate it prefers.
    /// - Returns: The fixed format, with GStreamer's bytes per row for each plane, or nil.
    func negotiate(_ request: VideoFormatRequest) -> VideoFrameFormat?

    /// A writable frame of `format` from the element's buffer pool, to fill and hand to `consume`.
    ///
    /// - Parameters:
    ///   - format: The frame's shape; its `bytesPerRow` is replaced by the pool's strides.
    ///   - timestamp: Presentation timestamp in nanoseconds.
    ///   - duration: Duration in nanoseconds, or nil when unknown.
    /// - Returns: A writable frame in a GStreamer buffer, zero-copy to ``consume(_:)``.
    /// - Throws: `GStreamerError` when `format` has no GStreamer layout or the element's buffer pool
    ///   cannot be set up for it.
    func makeFrame(format: VideoFrameFormat, timestamp: ClockTime, duration: ClockTime?) throws -> VideoFrame

    /// Reports an error on the pipeline's bus, naming the element; the pipeline then stops.
    ///
    /// - Parameter message: What went wrong, in words for the user; GStreamer adds the element's name.
    func reportError(_ message: String)

    /// A frame whose first plane is `frame`'s own first plane, shared (not copied). In `frame`'s format,
    /// its other planes all hold `value`, from one block shared by every such frame; as `.gray8`, it is
    /// that plane alone. Nil when `frame`'s layout does not allow it (then make and fill a frame).
    ///
    /// - Parameters:
    ///   - frame: The frame whose first (luma) plane is shared.
    ///   - pixelFormat: The new frame's format: `frame`'s own, or ``VideoPixelFormat/gray8``.
    ///   - value: The byte the other planes hold (128 makes YUV chroma neutral gray).
    /// - Returns: The new frame, read-only, with `frame`'s timestamps and rotation, or nil.
    func makeFrame(sharingFirstPlaneOf frame: VideoFrame, as pixelFormat: VideoPixelFormat, otherPlanesFilledWith value: UInt8)
        -> VideoFrame?
}

extension VideoFrameConsumer {
    /// The default: nil, the consumer cannot share planes (make and fill a frame instead).
    ///
    /// - Parameters:
    ///   - frame: The frame whose first plane would be shared.
    ///   - pixelFormat: The new frame's pixel format.
    ///   - value: The byte the other planes would hold.
    /// - Returns: nil.
    public func makeFrame(
        sharingFirstPlaneOf frame: VideoFrame, as pixelFormat: VideoPixelFormat, otherPlanesFilledWith value: UInt8
    ) -> VideoFrame? {
        nil
    }

    /// `makeFrame(sharingFirstPlaneOf:as:otherPlanesFilledWith:)` in `frame`'s own format.
    ///
    /// - Parameters:
    ///   - frame: The frame whose first (luma) plane is shared.
    ///   - value: The byte the other planes hold (128 makes YUV chroma neutral gray).
    /// - Returns: The new frame, read-only, or nil when `frame`'s layout does not allow sharing.
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
    /// The default: ``VideoBufferType/pixelBuffer``, zero-copy.
    public var bufferType: VideoBufferType { .pixelBuffer }
    /// The default: does nothing.
    public func shouldStart() {}
    /// The default: does nothing.
    public func shouldStop() {}
    /// The default: does nothing.
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
    /// Called on the thread that changes the pipeline's state.
    ///
    /// - Parameter consumer: Where frames go; keep it for as long as the source produces frames.
    /// - Returns: True when the source is ready; false fails the state change.
    func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool
    /// Pull mode: the pipeline wants the next frame (on GStreamer's streaming thread). Hand one to the
    /// consumer, or end the stream. Push-mode sources leave this alone.
    func produceFrame()
}

extension VideoSource {
    /// The default, for push-mode sources: does nothing.
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

/// A filter whose output format differs from its input's: `outputPixelFormat` (read during caps
/// negotiation) is what it hands on whatever it receives; nil means "the input's format".
public protocol VideoFormatConverting: VideoFilter {
    /// The pixel format of every frame the filter hands on, or nil for the input's own format.
    var outputPixelFormat: VideoPixelFormat? { get }
}

/// A sink that hands frames on: it renders each frame and gives the result to the consumer it got
/// as a source. Only the source's `shouldInitialize(consumer:)` is called. Example: `Examples/CustomFilter`.
public typealias VideoFilter = VideoSink & VideoSource
