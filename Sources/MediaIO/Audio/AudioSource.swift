/// A source of audio, like an SDK's custom audio capturer: handed a consumer at initialization, it
/// pushes samples from its own thread or timer (push mode) or each time `produceAudio` is called
/// (pull mode). Examples: `Examples/CustomAudioSource`, the `audionoise` element.
public protocol AudioSource: AudioLifecycle {
    /// NULL → READY. Keep `consumer`, and negotiate the format. Returning false fails the state change.
    /// Called on the thread that changes the pipeline's state.
    ///
    /// - Parameter consumer: Where samples go; keep it for as long as the source produces audio.
    /// - Returns: True when the source is ready; false fails the state change.
    func shouldInitialize(consumer: any AudioFrameConsumer) -> Bool
    /// Pull mode: the pipeline wants more (on GStreamer's streaming thread). Hand samples to the
    /// consumer, or end the stream. Push-mode sources leave this alone.
    func produceAudio()
}

extension AudioSource {
    /// The default, for push-mode sources: does nothing.
    public func produceAudio() {}
}
