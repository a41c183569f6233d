/// A video sink as an element: its sink pad takes the formats the sink accepts, and each sample from
/// the inner appsink is read as a frame and handed to the callback the sink implements.
struct VideoSinkKind<Sink: VideoSink>: SinkKind {
    let reader = VideoFrameReader()
    let callbacks = VideoSinkCallbacks<Sink>()

    init(element: SwiftElement) {}

    func initialize(_ sink: Sink, element: SwiftElement?) throws {
        accept(sink, on: element)
        guard sink.shouldInitialize() else { throw MediaIOError.refused(Sink.self, "shouldInitialize()") }
    }

    /// Limits the sink pad to the sink's `acceptedPixelFormats`, read at initialization.
    func accept(_ sink: Sink, on element: SwiftElement?) {
        if let caps = try? Caps(VideoPixelFormat.caps(for: sink.acceptedPixelFormats)) {
            element?.restrictSinkCaps(caps)
        }
    }

    func frame(from sample: Sample) throws -> VideoFrame { try reader.frame(from: sample) }

    /// `render(frame)` or `renderRawData` with a packed copy, whichever the sink implements (see
    /// VideoSinkCallbacks.swift).
    func deliver(_ frame: VideoFrame, to sink: Sink, element: SwiftElement?) throws {
        try callbacks.deliver(frame, to: sink, element: element)
    }

    func endOfStream(_ sink: Sink) { sink.endOfStream() }
}
