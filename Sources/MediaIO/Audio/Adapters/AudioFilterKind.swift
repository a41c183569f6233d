/// An audio filter as an element: a sink's input (the formats its `audioFormat` lists, each sample
/// read as a frame) in front of a source's output (the consumer it hands audio to). Only the source's
/// `shouldInitialize(consumer:)` is called.
struct AudioFilterKind<Filter: AudioFilter>: MediaIOKind {
    let input: AudioSinkKind<Filter>
    let output: AudioSourceKind<Filter>

    init(element: SwiftElement) {
        input = AudioSinkKind(element: element)
        output = AudioSourceKind(element: element)
    }

    func initialize(_ filter: Filter, element: SwiftElement?) throws {
        try input.accept(filter, on: element)
        try output.initialize(filter, element: element)
    }

    /// Renders the frame while the consumer knows the sample its output belongs to (its segment).
    func render(_ sample: Sample, on filter: Filter, element: SwiftElement?) throws -> FlowResult {
        let frame = try input.reader.frame(from: sample)
        return try output.consumer.rendering(sample) { try filter.render(frame) }
    }

    func endOfStream(_ filter: Filter) { filter.endOfStream() }

    /// A seek went through: the count starts again at the new segment, and the filter drops what it holds.
    func flushed(_ filter: Filter) {
        output.consumer.reset()
        filter.flush()
    }

    /// Caps on one side for caps on the other: the same, except the channel count of a filter that
    /// converts it (any count in gives `outputChannels` out).
    func transformCaps(_ caps: Caps, towardsSink: Bool, for filter: Filter) -> Caps {
        guard let converting = filter as? any AudioChannelConverting else { return caps }
        if towardsSink { return caps.removing("channels").removing("channel-mask") }
        let channels = converting.outputChannels
        let result = caps.setting("channels", .int(channels)).removing("channel-mask")
        return channels <= 2 ? result : result.setting("channel-mask", .string("0x0"))
    }
}
