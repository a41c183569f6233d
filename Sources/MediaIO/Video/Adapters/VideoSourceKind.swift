/// A video source as an element: the consumer it is handed sends frames out through the element
/// (its appsrc), and the element's need-data is the source's `produceFrame` (pull mode).
struct VideoSourceKind<Source: VideoSource>: MediaIOKind {
    let consumer: ElementVideoConsumer

    init(element: SwiftElement) {
        consumer = ElementVideoConsumer(bridge: element)
    }

    func initialize(_ source: Source, element: SwiftElement?) throws {
        guard source.shouldInitialize(consumer: consumer) else {
            throw MediaIOError.refused(Source.self, "shouldInitialize(consumer:)")
        }
    }

    func needData(_ source: Source) { source.produceFrame() }
}
