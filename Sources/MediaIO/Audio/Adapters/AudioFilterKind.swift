/// An audio filter as an element (a ``FilterKind``): an audio sink's input (the formats its
/// `audioFormat` lists, each sample read as a frame) in front of an audio source's output (the consumer
/// it hands audio to, which cuts and times it).
struct AudioFilterKind<Filter: AudioFilter>: FilterKind {
    typealias Object = Filter
    let input: AudioSinkKind<Filter>
    let output: AudioSourceKind<Filter>

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
