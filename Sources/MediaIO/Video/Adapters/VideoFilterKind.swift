/// A video filter as an element: a sink's input (the formats it accepts, each sample read and
/// delivered) in front of a source's output (the consumer it hands frames to). Only the source's
/// `shouldInitialize(consumer:)` is called.
struct VideoFilterKind<Filter: VideoFilter>: MediaIOKind {
    let input: VideoSinkKind<Filter>
    let output: VideoSourceKind<Filter>

    init(element: SwiftElement) {
        input = VideoSinkKind(element: element)
        output = VideoSourceKind(element: element)
    }

    func initialize(_ filter: Filter, element: SwiftElement?) throws {
        input.accept(filter, on: element)
        try output.initialize(filter, element: element)
    }

    /// Renders the frame while the consumer knows the sample its output belongs to (its segment and caps).
    func render(_ sample: Sample, on filter: Filter, element: SwiftElement?) throws -> FlowResult {
        let frame = try input.reader.frame(from: sample)
        return try output.consumer.rendering(sample, format: frame.format) {
            try input.callbacks.deliver(frame, to: filter, element: element)
        }
    }

    func endOfStream(_ filter: Filter) { filter.endOfStream() }

    /// Caps on one side for caps on the other: the same, unless the filter converts to one format.
    func transformCaps(_ caps: Caps, towardsSink: Bool, for filter: Filter) -> Caps {
        guard let converting = filter as? any VideoFormatConverting, let output = converting.outputPixelFormat
        else { return caps }
        if towardsSink {
            // Any accepted input format gives `output`, so only size and rate come from downstream.
            return caps.removing("format").removing("colorimetry").removing("chroma-site")
        }
        return caps.setting("format", .string(output.gstreamerName)).removing("colorimetry").removing("chroma-site")
    }
}
