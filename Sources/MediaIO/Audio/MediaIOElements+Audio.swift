extension MediaIOElements {
    /// Registers an audio source: `make` is called once per element instance with its properties.
    ///
    /// Registering a name twice is a no-op; a name a GStreamer plugin already uses is an error.
    ///
    /// - Parameters:
    ///   - name: The factory name used in launch descriptions (`noise`); instances are named after it.
    ///   - longName: A human-readable name, shown by `gst-inspect-1.0`.
    ///   - description: One sentence on what the element does, shown by `gst-inspect-1.0`.
    ///   - classification: GStreamer's klass string (`Source/Audio`), which auto-pluggers such as
    ///     autoaudiosink match on.
    ///   - properties: The GObject properties the element has; `make` reads their values.
    ///   - pulled: The source makes its samples in `produceAudio` only (pull mode). The element then
    ///     calls it in a loop on a streaming thread of its own and pushes each buffer straight through
    ///     its source pad, with no appsrc queue between (the cheapest way out, as `audionoise` does). A
    ///     source that pushes from a thread or timer of its own leaves it false and gets an appsrc.
    ///   - plugin: The `GstPlugin` pointer inside a plugin's init function; nil registers the element for this
    ///     process only.
    ///   - make: Makes the source for each element instance, on the thread that creates the element; it gets the
    ///     instance's properties (set from a launch description before the element starts).
    /// - Throws: `GStreamerError` when GStreamer cannot be initialized, the app plugin (appsrc, appsink) is
    ///   missing, or the name is taken by a type that is not this one.
    public static func registerAudioSource<Source: AudioSource>(
        name: String, longName: String, description: String, classification: String = "Source/Audio",
        properties: [PropertySpec] = [], pulled: Bool = false, plugin: UnsafeMutableRawPointer? = nil,
        make: @escaping @Sendable (ElementProperties) -> Source
    ) throws(GStreamerError) {
        var type = ElementTypeDescription(
            name: name, longName: longName, classification: classification, description: description,
            kind: .source, srcCaps: AudioFormatRequest.anyCaps, properties: properties)
        type.pulled = pulled
        try register(type, as: AudioSourceKind<Source>.self, plugin: plugin, make: make)
    }

    /// Registers an audio sink: `make` is called once per element instance with its properties. The
    /// element converts any input (audioconvert, audioresample) to the sink's `audioFormat`.
    ///
    /// Registering a name twice is a no-op; a name a GStreamer plugin already uses is an error.
    ///
    /// - Parameters:
    ///   - name: The factory name used in launch descriptions (`mysink`); instances are named after it.
    ///   - longName: A human-readable name, shown by `gst-inspect-1.0`.
    ///   - description: One sentence on what the element does, shown by `gst-inspect-1.0`.
    ///   - classification: GStreamer's klass string (`Sink/Audio`), which auto-pluggers such as
    ///     autoaudiosink match on.
    ///   - properties: The GObject properties the element has; `make` reads their values.
    ///   - plugin: The `GstPlugin` pointer inside a plugin's init function; nil registers the element for this
    ///     process only.
    ///   - make: Makes the sink for each element instance, on the thread that creates the element; it gets the
    ///     instance's properties (set from a launch description before the element starts).
    /// - Throws: `GStreamerError` when GStreamer cannot be initialized, the app plugin (appsrc, appsink) is
    ///   missing, or the name is taken by a type that is not this one.
    public static func registerAudioSink<Sink: AudioSink>(
        name: String, longName: String, description: String, classification: String = "Sink/Audio",
        properties: [PropertySpec] = [], plugin: UnsafeMutableRawPointer? = nil,
        make: @escaping @Sendable (ElementProperties) -> Sink
    ) throws(GStreamerError) {
        var type = ElementTypeDescription(
            name: name, longName: longName, classification: classification, description: description,
            kind: .sink, sinkCaps: "audio/x-raw", properties: properties)
        type.sinkConverters = ["audioconvert", "audioresample"]
        try register(type, as: AudioSinkKind<Sink>.self, plugin: plugin, make: make)
    }

    /// Registers an audio filter (a sink that hands audio on): `make` is called once per element
    /// instance. Like any GStreamer filter it takes the formats its `audioFormat` lists: put
    /// audioconvert before it for others.
    ///
    /// Registering a name twice is a no-op; a name a GStreamer plugin already uses is an error.
    ///
    /// - Parameters:
    ///   - name: The factory name used in launch descriptions (`mono`); instances are named after it.
    ///   - longName: A human-readable name, shown by `gst-inspect-1.0`.
    ///   - description: One sentence on what the element does, shown by `gst-inspect-1.0`.
    ///   - classification: GStreamer's klass string (`Filter/Effect/Audio`), which auto-pluggers such as
    ///     autoaudiosink match on.
    ///   - properties: The GObject properties the element has; `make` reads their values.
    ///   - plugin: The `GstPlugin` pointer inside a plugin's init function; nil registers the element for this
    ///     process only.
    ///   - make: Makes the filter for each element instance, on the thread that creates the element; it gets the
    ///     instance's properties (set from a launch description before the element starts).
    /// - Throws: `GStreamerError` when GStreamer cannot be initialized, the app plugin (appsrc, appsink) is
    ///   missing, or the name is taken by a type that is not this one.
    public static func registerAudioFilter<Filter: AudioFilter>(
        name: String, longName: String, description: String, classification: String = "Filter/Effect/Audio",
        properties: [PropertySpec] = [], plugin: UnsafeMutableRawPointer? = nil,
        make: @escaping @Sendable (ElementProperties) -> Filter
    ) throws(GStreamerError) {
        let type = ElementTypeDescription(
            name: name, longName: longName, classification: classification, description: description,
            kind: .filter, sinkCaps: AudioFormatRequest.anyCaps, srcCaps: AudioFormatRequest.anyCaps,
            properties: properties)
        try register(type, as: AudioFilterKind<Filter>.self, plugin: plugin, make: make)
    }
}
