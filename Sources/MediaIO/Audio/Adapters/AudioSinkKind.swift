/// An audio sink as an element: the converters in front of its inner appsink give it the shape its
/// `audioFormat` asks for, and each sample is read as an audio frame and rendered.
struct AudioSinkKind<Sink: AudioSink>: SinkKind {
    let reader = AudioFrameReader()

    init(element: SwiftElement) {}

    func initialize(_ sink: Sink, element: SwiftElement?) throws {
        try accept(sink, on: element)
        guard sink.shouldInitialize() else { throw MediaIOError.refused(Sink.self, "shouldInitialize()") }
    }

    /// Limits the sink pad's inner appsink to what the sink (or filter) asks for.
    func accept(_ sink: Sink, on element: SwiftElement?) throws {
        try element?.restrictSinkCaps(Caps(sink.audioFormat.capsString))
    }

    func frame(from sample: Sample) throws -> AudioFrame { try reader.frame(from: sample) }

    func deliver(_ frame: AudioFrame, to sink: Sink, element: SwiftElement?) throws { try sink.render(frame) }

    func endOfStream(_ sink: Sink) { sink.endOfStream() }

    /// A seek started: the sink drops what it holds, and a `render` waiting for the device returns.
    func flushStarted(_ sink: Sink) { sink.flush() }
}
