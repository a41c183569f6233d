/// The lifecycle a MediaIO video source, sink or filter goes through (``MediaIOLifecycle``: one call a
/// state change, in order), and how it wants frame memory.
public protocol VideoLifecycle: MediaIOLifecycle {
    /// How the element wants frame memory. For a sink or filter, which of its two callbacks gets the
    /// frames: ``VideoSink/render(_:)`` (``VideoBufferType/pixelBuffer``) or
    /// ``VideoSink/renderRawData(_:format:timestamp:rotation:)`` (``VideoBufferType/rawData``). A sink
    /// that implements only the other one gets its frames there, with a warning on the bus (see
    /// ``VideoSink``). A source's consumer takes both kinds of frame whatever it says.
    var bufferType: VideoBufferType { get }
}

extension VideoLifecycle {
    /// The default: ``VideoBufferType/pixelBuffer``, zero-copy.
    public var bufferType: VideoBufferType { .pixelBuffer }
}
