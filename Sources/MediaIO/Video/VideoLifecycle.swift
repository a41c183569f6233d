/// The lifecycle a MediaIO video source, sink or filter goes through (``MediaIOLifecycle``: one call a
/// state change, in order), and how it wants frame memory.
public protocol VideoLifecycle: MediaIOLifecycle {
    /// How the element wants frame memory.
    var bufferType: VideoBufferType { get }
}

extension VideoLifecycle {
    /// The default: ``VideoBufferType/pixelBuffer``, zero-copy.
    public var bufferType: VideoBufferType { .pixelBuffer }
}
