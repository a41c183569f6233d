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
    /// The default: does nothing.
    public func shouldStart() {}
    /// The default: does nothing.
    public func shouldStop() {}
    /// The default: does nothing.
    public func shouldDispose() {}
}
