/// An audio sink as an element: the converters in front of its inner appsink give it the shape its
/// `audioFormat` asks for, and each sample is read as an audio frame and rendered.
struct AudioSinkKind<Sink: AudioSink>: MediaIOKind {
    let reader = AudioFrameReader()

    init(element: SwiftElement) {}

    /// Limits the sink pad's inner appsink to what the sink (or filter) asks for.
    func accept(_ sink: Sink, on element: SwiftElement?) throws {
        try element?.restrictSinkCaps(Caps(sink.audioFormat.capsString))
    }

    func initialize(_ sink: Sink, element: SwiftElement?) throws {
        try accept(sink, on: element)
        guard sink.shouldInitialize() else { throw MediaIOError.refused(Sink.self, "shouldInitialize()") }
    }

    func render(_ sample: Sample, on sink: Sink, element: SwiftElement?) throws -> FlowResult {
        try sink.render(reader.frame(from: sample))
        return .ok
    }

    func endOfStream(_ sink: Sink) { sink.endOfStream() }

    /// A seek started: the sink drops what it holds, and a `render` waiting for the device returns.
    func flushStarted(_ sink: Sink) { sink.flush() }
}
