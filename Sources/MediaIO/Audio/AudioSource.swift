/// Where an audio source's samples go: the element's appsrc, handed to the source at initialization.
///
/// Pushes of any size are cut into buffers of the `samplesPerBuffer` the source asked for, and
/// timestamps come from a count of the samples sent (never the wall clock), so hours of pushes do
/// not drift. A push whose shape differs from the stream's (another rate or channel count) starts
/// a new format downstream instead of playing at the wrong speed.
public protocol AudioFrameConsumer: AnyObject, Sendable {
    /// The shape downstream accepts that best fits `request`, which the stream then has; nil when
    /// downstream accepts none of it.
    func negotiate(_ request: AudioFormatRequest) -> AudioInfo?

    /// The stream's shape once negotiated (or set by a push).
    var format: AudioInfo? { get }

    /// Hands on interleaved samples of the negotiated format, any count (whole instants: a multiple
    /// of the channel count), copying them once. `timestamp` nil continues the count; a timestamp
    /// more than a millisecond away from it starts the count there and flags a discontinuity.
    @discardableResult
    func consumeSamples<T: AudioSample>(_ samples: UnsafeBufferPointer<T>, timestamp: ClockTime?) -> FlowResult

    /// Hands on interleaved samples of shape `format` as bytes (the SDKs' raw-data push), copying them.
    @discardableResult
    func consumeRawData(_ bytes: UnsafeRawBufferPointer, format: AudioInfo, timestamp: ClockTime?) -> FlowResult

    /// Hands on a frame without copying its samples (from `makeFrame`, or a filter's input frame
    /// passed through). Not cut: it goes out as it is.
    @discardableResult
    func consume(_ frame: AudioFrame) -> FlowResult

    /// A writable frame of `sampleCount` samples per channel in the negotiated format (or `format`),
    /// timed at `timestamp`, or at the count's next sample when nil.
    func makeFrame(sampleCount: Int, format: AudioInfo?, timestamp: ClockTime?) throws -> AudioFrame

    /// Ends the stream: what is pending goes out, then no samples follow.
    func endOfStream()

    /// Reports an error on the pipeline's bus, naming the element; the pipeline then stops.
    func reportError(_ message: String)
}

extension AudioFrameConsumer {
    /// Interleaved samples from an array or any contiguous collection.
    @discardableResult
    public func consumeSamples<T: AudioSample>(_ samples: [T], timestamp: ClockTime? = nil) -> FlowResult {
        samples.withUnsafeBufferPointer { consumeSamples($0, timestamp: timestamp) }
    }

    public func makeFrame(sampleCount: Int) throws -> AudioFrame {
        try makeFrame(sampleCount: sampleCount, format: nil, timestamp: nil)
    }
}

/// The lifecycle a MediaIO audio source or sink goes through, following the element's GStreamer
/// state: the same calls, in the same order, as for video (`VideoLifecycle`).
public protocol AudioLifecycle: AnyObject, Sendable {
    /// PAUSED → PLAYING, or the first data, whichever comes first.
    func shouldStart()
    /// PLAYING → PAUSED, or PAUSED → READY after a start; once per start.
    func shouldStop()
    /// READY → NULL: release everything; the consumer is released after this.
    func shouldDispose()
}

extension AudioLifecycle {
    public func shouldStart() {}
    public func shouldStop() {}
    public func shouldDispose() {}
}

/// A source of audio, like an SDK's custom audio capturer: handed a consumer at initialization, it
/// pushes samples from its own thread or timer (push mode) or each time `produceAudio` is called
/// (pull mode). Examples: `Examples/CustomAudioSource`, the `audionoise` element.
public protocol AudioSource: AudioLifecycle {
    /// NULL → READY. Keep `consumer`, and negotiate the format. Returning false fails the state change.
    func shouldInitialize(consumer: any AudioFrameConsumer) -> Bool
    /// Pull mode: the pipeline wants more (on GStreamer's streaming thread). Hand samples to the
    /// consumer, or end the stream. Push-mode sources leave this alone.
    func produceAudio()
}

extension AudioSource {
    public func produceAudio() {}
}

/// A sink of audio, like an SDK's custom audio renderer. It gets exactly the shape `audioFormat`
/// asks for, from any input: the element converts (audioconvert, audioresample) in front of it.
/// Examples: `Examples/CustomAudioSink` (pulled by a device loop), the `mono` element.
public protocol AudioSink: AudioLifecycle {
    /// The shape it wants; nil fields take the input's.
    var audioFormat: AudioFormatRequest { get }
    /// NULL → READY. Returning false fails the state change.
    func shouldInitialize() -> Bool
    /// Samples to render, on the streaming thread, synchronously. Throwing stops the pipeline with
    /// the error, naming the element.
    func render(_ frame: AudioFrame) throws
    /// Upstream ended: no samples follow.
    func endOfStream()
    /// A seek flushed the pipeline: drop what is held, and return from a `render` that waits. Called
    /// on the seeking thread, possibly while `render` runs.
    func flush()
}

extension AudioSink {
    public var audioFormat: AudioFormatRequest { AudioFormatRequest() }
    public func shouldInitialize() -> Bool { true }
    public func endOfStream() {}
    public func flush() {}
}

/// A sink that hands audio on: it renders each frame and gives the result to the consumer it got
/// as a source. Only the source's `shouldInitialize(consumer:)` is called.
public typealias AudioFilter = AudioSink & AudioSource

/// A filter whose output has another channel count than its input (the `mono` mixer): read during
/// caps negotiation. Rate and sample format stay the input's.
public protocol AudioChannelConverting: AudioFilter {
    var outputChannels: Int { get }
}
