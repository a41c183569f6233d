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
    func makeFrame(
        sharingFirstPlaneOf frame: VideoFrame, as pixelFormat: VideoPixelFormat, otherPlanesFilledWith value: UInt8
    )
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
