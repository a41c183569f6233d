/// A video filter as an element (a ``FilterKind``): a video sink's input (the formats it accepts,
/// each sample read and delivered) in front of a video source's output (the consumer it hands frames to).
struct VideoFilterKind<Filter: VideoFilter>: FilterKind {
    typealias Object = Filter
    let input: VideoSinkKind<Filter>
    let output: VideoSourceKind<Filter>

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
