/// A video sink as an element: its sink pad takes the formats the sink accepts, and each sample from
/// the inner appsink is read as a frame and rendered.
struct VideoSinkKind<Sink: VideoSink>: MediaIOKind {
    let reader = VideoFrameReader()

    init(element: SwiftElement) {}

    /// Limits the sink pad to the sink's `acceptedPixelFormats`, read at initialization.
    func accept(_ sink: Sink, on element: SwiftElement?) {
        if let caps = try? Caps(VideoPixelFormat.caps(for: sink.acceptedPixelFormats)) {
            element?.restrictSinkCaps(caps)
        }
    }

    /// Calls `render` or, for raw-data sinks, `renderRawData` with a packed copy.
    func deliver(_ frame: VideoFrame, to sink: Sink, element: SwiftElement?) throws {
        switch sink.bufferType {
        case .pixelBuffer:
            try sink.render(frame)
        case .rawData:
            let bytes = try frame.packedBytes()
            var format = frame.format
            format.bytesPerRow = (0..<format.planeCount).map { format.pixelBytesPerRow(inPlane: $0) }
            try bytes.withUnsafeBytes { raw in
                try sink.renderRawData(raw, format: format, timestamp: frame.timestamp, rotation: frame.rotation)
            }
        }
    }

    func initialize(_ sink: Sink, element: SwiftElement?) throws {
        accept(sink, on: element)
        guard sink.shouldInitialize() else { throw MediaIOError.refused(Sink.self, "shouldInitialize()") }
    }

    func render(_ sample: Sample, on sink: Sink, element: SwiftElement?) throws -> FlowResult {
        try deliver(reader.frame(from: sample), to: sink, element: element)
        return .ok
    }

    func endOfStream(_ sink: Sink) { sink.endOfStream() }
}
