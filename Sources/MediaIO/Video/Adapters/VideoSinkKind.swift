/// A video sink as an element: its sink pad takes the formats the sink accepts, and each sample from
/// the inner appsink is read as a frame and rendered.
struct VideoSinkKind<Sink: VideoSink>: MediaIOKind {
    let reader = VideoFrameReader()
    let callbacks = VideoSinkCallbacks<Sink>()

    init(element: SwiftElement) {}

    /// Limits the sink pad to the sink's `acceptedPixelFormats`, read at initialization.
    func accept(_ sink: Sink, on element: SwiftElement?) {
        if let caps = try? Caps(VideoPixelFormat.caps(for: sink.acceptedPixelFormats)) {
            element?.restrictSinkCaps(caps)
        }
    }

    func initialize(_ sink: Sink, element: SwiftElement?) throws {
        accept(sink, on: element)
        guard sink.shouldInitialize() else { throw MediaIOError.refused(Sink.self, "shouldInitialize()") }
    }

    func render(_ sample: Sample, on sink: Sink, element: SwiftElement?) throws -> FlowResult {
        // The callback the sink implements (see VideoSinkCallbacks.swift).
        try callbacks.deliver(reader.frame(from: sample), to: sink, element: element)
        return .ok
    }

    func endOfStream(_ sink: Sink) { sink.endOfStream() }
}
