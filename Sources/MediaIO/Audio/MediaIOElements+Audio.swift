extension MediaIOElements {
    /// Registers an audio source: `make` is called once per element instance with its properties.
    ///
    /// `pulled`: the source makes its samples in `produceAudio` only (pull mode). The element then
    /// calls it in a loop on a streaming thread of its own and pushes each buffer straight through its
    /// source pad, with no appsrc queue between (the cheapest way out, as `audionoise` does). A source
    /// that pushes from a thread or timer of its own leaves it false.
    public static func registerAudioSource<Source: AudioSource>(
        name: String, longName: String, description: String, classification: String = "Source/Audio",
        properties: [PropertySpec] = [], pulled: Bool = false, plugin: UnsafeMutableRawPointer? = nil,
        make: @escaping @Sendable (ElementProperties) -> Source
    ) throws(GStreamerError) {
        var type = ElementTypeDescription(
            name: name, longName: longName, classification: classification, description: description,
            kind: .source, srcCaps: AudioFormatRequest.anyCaps, properties: properties)
        type.pulled = pulled
        try ElementType.register(type, plugin: plugin) { bridge in
            AudioSourceAdapter(source: make(bridge.properties), bridge: bridge)
        }
    }

    /// Registers an audio sink: `make` is called once per element instance with its properties. The
    /// element converts any input (audioconvert, audioresample) to the sink's `audioFormat`.
    public static func registerAudioSink<Sink: AudioSink>(
        name: String, longName: String, description: String, classification: String = "Sink/Audio",
        properties: [PropertySpec] = [], plugin: UnsafeMutableRawPointer? = nil,
        make: @escaping @Sendable (ElementProperties) -> Sink
    ) throws(GStreamerError) {
        var type = ElementTypeDescription(
            name: name, longName: longName, classification: classification, description: description,
            kind: .sink, sinkCaps: "audio/x-raw", properties: properties)
        type.sinkConverters = ["audioconvert", "audioresample"]
        try ElementType.register(type, plugin: plugin) { bridge in
            AudioSinkAdapter(sink: make(bridge.properties), bridge: bridge)
        }
    }

    /// Registers an audio filter (a sink that hands audio on): `make` is called once per element
    /// instance. Like any GStreamer filter it takes the formats its `audioFormat` lists: put
    /// audioconvert before it for others.
    public static func registerAudioFilter<Filter: AudioFilter>(
        name: String, longName: String, description: String, classification: String = "Filter/Effect/Audio",
        properties: [PropertySpec] = [], plugin: UnsafeMutableRawPointer? = nil,
        make: @escaping @Sendable (ElementProperties) -> Filter
    ) throws(GStreamerError) {
        let type = ElementTypeDescription(
            name: name, longName: longName, classification: classification, description: description,
            kind: .filter, sinkCaps: AudioFormatRequest.anyCaps, srcCaps: AudioFormatRequest.anyCaps,
            properties: properties)
        try ElementType.register(type, plugin: plugin) { bridge in
            AudioFilterAdapter(filter: make(bridge.properties), bridge: bridge)
        }
    }
}
