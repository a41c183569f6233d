/// The lifecycle every MediaIO source, sink and filter goes through, video and audio alike, following
/// its element's GStreamer state. Each call happens once per transition, in order, never two at a time.
///
/// | GStreamer transition | call |
/// |---|---|
/// | NULL → READY | `shouldInitialize` (of the source, sink or filter protocol) |
/// | PAUSED → PLAYING, or the first data | ``shouldStart()`` |
/// | PLAYING → PAUSED, or PAUSED → READY after a start | ``shouldStop()`` |
/// | READY → NULL | ``shouldDispose()`` |
///
/// ``VideoLifecycle`` and ``AudioLifecycle`` refine it; a type conforms to those (through
/// ``VideoSource``, ``VideoSink``, ``AudioSource``, ...), not to this protocol alone.
public protocol MediaIOLifecycle: AnyObject, Sendable {
    /// PAUSED → PLAYING, or the first data, whichever comes first.
    func shouldStart()
    /// PLAYING → PAUSED, or PAUSED → READY after a start; once per start. Must not wait for a
    /// `consume` in progress: that returns on its own once the element stops.
    func shouldStop()
    /// READY → NULL: release everything; the consumer is released after this.
    func shouldDispose()
}

extension MediaIOLifecycle {
    /// The default: does nothing.
    public func shouldStart() {}
    /// The default: does nothing.
    public func shouldStop() {}
    /// The default: does nothing.
    public func shouldDispose() {}
}
