/// What one kind of MediaIO element (a video source, a video sink, a video filter, and the same for
/// audio) does that the others do not. ``MediaIOAdapter`` does what they all do and asks its kind for
/// the rest, so each kind is a small type holding its own parts (a consumer for what goes out, a
/// reader for what comes in), not a branch in a shared function.
///
/// A filter's kind is a sink's input and a source's output put together (`VideoFilterKind`).
protocol MediaIOKind: Sendable {
    /// The application's object this kind drives: a `VideoSource`, an `AudioSink`, ...
    associatedtype Object: MediaIOLifecycle

    /// The kind's parts for one element instance, made when GStreamer makes the element.
    ///
    /// - Parameter element: The element; kept weakly by whatever part keeps it.
    init(element: SwiftElement)

    /// NULL → READY: limit the sink pad to what the object takes, and ask it to initialize.
    ///
    /// - Throws: ``MediaIOError`` when the object refuses (`shouldInitialize` returned false), or
    ///   `GStreamerError` when the caps it asks for do not parse.
    func initialize(_ object: Object, element: SwiftElement?) throws

    /// A sample from upstream (sinks and filters), on the streaming thread.
    ///
    /// - Returns: How the push of what the object handed on went (filters), or `.ok`.
    /// - Throws: What the object throws, or an error about the sample; the adapter posts it.
    func render(_ sample: Sample, on object: Object, element: SwiftElement?) throws -> FlowResult

    /// The element wants more (sources).
    func needData(_ object: Object)

    /// Upstream ended (sinks and filters).
    func endOfStream(_ object: Object)

    /// Caps on one side of a filter for caps on the other.
    func transformCaps(_ caps: Caps, towardsSink: Bool, for object: Object) -> Caps

    /// A flush started: a `render` waiting for room must return (sinks).
    func flushStarted(_ object: Object)

    /// A flush went through: data held from before is stale (filters).
    func flushed(_ object: Object)
}

extension MediaIOKind {
    // What a kind leaves out is what an element of its kind never gets, or takes as it comes.
    func render(_ sample: Sample, on object: Object, element: SwiftElement?) throws -> FlowResult { .ok }
    func needData(_ object: Object) {}
    func endOfStream(_ object: Object) {}
    func transformCaps(_ caps: Caps, towardsSink: Bool, for object: Object) -> Caps { caps }
    func flushStarted(_ object: Object) {}
    func flushed(_ object: Object) {}
}

extension MediaIOError {
    /// The error that fails NULL → READY when the `call` of a `type` object returned false.
    static func refused(_ type: Any.Type, _ call: String) -> MediaIOError {
        MediaIOError("\(type).\(call) returned false")
    }
}
