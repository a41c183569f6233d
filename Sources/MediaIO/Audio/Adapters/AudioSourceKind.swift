/// An audio source as an element: the consumer it is handed cuts and times what it pushes and sends
/// it out through the element, and the element's need-data is the source's `produceAudio` (pull mode).
struct AudioSourceKind<Source: AudioSource>: SourceKind {
    let consumer: ElementAudioConsumer

    init(element: SwiftElement) {
        consumer = ElementAudioConsumer(element: element)
    }

    /// Starts the sample count again (a new run begins at 0), then asks the source to initialize.
    func initialize(_ source: Source, element: SwiftElement?) throws {
        consumer.reset()
        guard source.shouldInitialize(consumer: consumer) else {
            throw MediaIOError.refused(Source.self, "shouldInitialize(consumer:)")
        }
    }

    func needData(_ source: Source) { consumer.produceRound { source.produceAudio() } }

    /// A filter's output takes the segment of `sample`.
    func rendering(_ sample: Sample, of frame: AudioFrame, _ body: () throws -> Void) throws -> FlowResult {
        try consumer.rendering(sample, body)
    }
}
