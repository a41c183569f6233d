/// A sink of audio, like an SDK's custom audio renderer. It gets exactly the shape `audioFormat`
/// asks for, from any input: the element converts (audioconvert, audioresample) in front of it.
/// Examples: `Examples/CustomAudioSink` (pulled by a device loop), the `mono` element.
public protocol AudioSink: AudioLifecycle {
    /// The shape it wants; nil fields take the input's.
    var audioFormat: AudioFormatRequest { get }
    /// NULL → READY. Returning false fails the state change.
    ///
    /// - Returns: True when the sink is ready; false fails the state change.
    func shouldInitialize() -> Bool
    /// Samples to render, on the streaming thread, synchronously. Throwing stops the pipeline with
    /// the error, naming the element.
    ///
    /// - Parameter frame: The samples, in exactly the shape ``audioFormat`` asked for.
    /// - Throws: Anything; the pipeline then stops with an error naming the element.
    func render(_ frame: AudioFrame) throws
    /// Upstream ended: no samples follow.
    func endOfStream()
    /// A seek flushed the pipeline: drop what is held, and return from a `render` that waits. Called
    /// on the seeking thread, possibly while `render` runs.
    func flush()
}

extension AudioSink {
    /// The default: any sample format MediaIO reads, interleaved, at the input's rate and channel count.
    public var audioFormat: AudioFormatRequest { AudioFormatRequest() }
    /// The default: the sink is ready.
    ///
    /// - Returns: True.
    public func shouldInitialize() -> Bool { true }
    /// The default: does nothing.
    public func endOfStream() {}
    /// The default: does nothing (a sink that holds nothing has nothing to drop).
    public func flush() {}
}
