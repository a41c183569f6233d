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
