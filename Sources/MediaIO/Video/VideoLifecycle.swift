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
