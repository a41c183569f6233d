/// A video source as an element: the consumer it is handed sends frames out through the element
/// (its appsrc), and the element's need-data is the source's `produceFrame` (pull mode).
struct VideoSourceKind<Source: VideoSource>: SourceKind {
    let consumer: ElementVideoConsumer

    init(element: SwiftElement) {
        consumer = ElementVideoConsumer(element: element)
    }

    func initialize(_ source: Source, element: SwiftElement?) throws {
        guard source.shouldInitialize(consumer: consumer) else {
            throw MediaIOError.refused(Source.self, "shouldInitialize(consumer:)")
        }
    }

    func needData(_ source: Source) { source.produceFrame() }

    /// A filter's output takes the segment of `sample`, and its caps when the output keeps the frame's shape.
    func rendering(_ sample: Sample, of frame: VideoFrame, _ body: () throws -> Void) throws -> FlowResult {
        try consumer.rendering(sample, format: frame.format, body)
    }
}
