/// Where an audio source's samples go: the element's appsrc, handed to the source at initialization.
///
/// Pushes of any size are cut into buffers of the `samplesPerBuffer` the source asked for, and
/// timestamps come from a count of the samples sent (never the wall clock), so hours of pushes do
/// not drift. A push whose shape differs from the stream's (another rate or channel count) starts
/// a new format downstream instead of playing at the wrong speed.
public protocol AudioFrameConsumer: AnyObject, Sendable {
    /// The shape downstream accepts that best fits `request`, which the stream then has; nil when
    /// downstream accepts none of it.
    /// Call it in `shouldInitialize(consumer:)`, before the first push.
    ///
    /// - Parameter request: The sample formats the source can produce, and the rate and channels it needs or
    ///   prefers.
    /// - Returns: The fixed shape (sample format, rate, channels, layout), or nil.
    func negotiate(_ request: AudioFormatRequest) -> AudioInfo?

    /// The stream's shape once negotiated (or set by a push).
    var format: AudioInfo? { get }

    /// Hands on interleaved samples of the negotiated format, any count (whole instants: a multiple
    /// of the channel count), copying them once. `timestamp` nil continues the count; a timestamp
    /// more than a millisecond away from it starts the count there and flags a discontinuity.
    ///
    /// May be called from any thread; blocks while downstream is full.
    ///
    /// - Parameters:
    ///   - samples: Interleaved samples of the negotiated format (`T` must be its Swift type).
    ///   - timestamp: Presentation time in nanoseconds of the first sample, or nil to follow on from the last push.
    /// - Returns: How the push went: `FlowResult.ok`, `FlowResult.flushing` while the
    ///   element is stopping or seeking (not an error), or an error that has been reported on the bus.
    @discardableResult
    func consumeSamples<T: AudioSample>(_ samples: UnsafeBufferPointer<T>, timestamp: ClockTime?) -> FlowResult

    /// Hands on interleaved samples of shape `format` as bytes (the SDKs' raw-data push), copying them.
    ///
    /// - Parameters:
    ///   - bytes: Interleaved samples, whole instants (`format.bytesPerFrame` bytes each).
    ///   - format: The samples' shape; when it differs from the stream's, a new format starts downstream.
    ///   - timestamp: Presentation time in nanoseconds of the first sample, or nil to follow on from the last push.
    /// - Returns: How the push went, as for `consumeSamples(_:timestamp:)`.
    @discardableResult
    func consumeRawData(_ bytes: UnsafeRawBufferPointer, format: AudioInfo, timestamp: ClockTime?) -> FlowResult

    /// Hands on a frame without copying its samples (from `makeFrame`, or a filter's input frame
    /// passed through). Not cut: it goes out as it is.
    ///
    /// - Parameter frame: The frame to hand on, with its own timestamp and duration (nanoseconds).
    /// - Returns: How the push went: `FlowResult.ok`, `FlowResult.flushing` while the
    ///   element is stopping or seeking (not an error), or an error that has been reported on the bus.
    @discardableResult
    func consume(_ frame: AudioFrame) -> FlowResult

    /// A writable frame of `sampleCount` samples per channel in the negotiated format (or `format`),
    /// timed at `timestamp`, or at the count's next sample when nil.
    ///
    /// - Parameters:
    ///   - sampleCount: Samples per channel.
    ///   - format: The frame's shape, or nil for the negotiated one.
    ///   - timestamp: Presentation time in nanoseconds, or nil for the next sample of the count.
    /// - Returns: A writable frame whose samples are uninitialized: write every one before ``consume(_:)``.
    /// - Throws: ``MediaIOError`` when no format was negotiated and none is given; `GStreamerError`
    ///   when no buffer can be allocated.
    func makeFrame(sampleCount: Int, format: AudioInfo?, timestamp: ClockTime?) throws -> AudioFrame

    /// Ends the stream: what is pending goes out, then no samples follow.
    func endOfStream()

    /// Reports an error on the pipeline's bus, naming the element; the pipeline then stops.
    ///
    /// - Parameter message: What went wrong, in words for the user; GStreamer adds the element's name.
    func reportError(_ message: String)
}

extension AudioFrameConsumer {
    /// Interleaved samples from an array or any contiguous collection.
    ///
    /// - Parameters:
    ///   - samples: Interleaved samples of the negotiated format, whole instants.
    ///   - timestamp: Presentation time in nanoseconds of the first sample, or nil to follow on from the last push.
    /// - Returns: How the push went, as for the buffer-pointer variant.
    @discardableResult
    public func consumeSamples<T: AudioSample>(_ samples: [T], timestamp: ClockTime? = nil) -> FlowResult {
        samples.withUnsafeBufferPointer { consumeSamples($0, timestamp: timestamp) }
    }

    /// A writable frame of `sampleCount` samples per channel in the negotiated format, timed at the count's
    /// next sample.
    ///
    /// - Parameter sampleCount: Samples per channel.
    /// - Returns: A writable frame to fill and hand to ``AudioFrameConsumer/consume(_:)``.
    /// - Throws: ``MediaIOError`` when no format was negotiated yet; `GStreamerError` when no buffer
    ///   can be allocated.
    public func makeFrame(sampleCount: Int) throws -> AudioFrame {
        try makeFrame(sampleCount: sampleCount, format: nil, timestamp: nil)
    }
}
