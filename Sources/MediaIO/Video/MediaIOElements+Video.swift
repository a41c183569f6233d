extension MediaIOElements {
    /// Registers a source: `make` is called once per element instance with its properties.
    ///
    /// Registering a name twice is a no-op; a name a GStreamer plugin already uses is an error.
    ///
    /// - Parameters:
    ///   - name: The factory name used in launch descriptions (`noise`); instances are named after it.
    ///   - longName: A human-readable name, shown by `gst-inspect-1.0`.
    ///   - description: One sentence on what the element does, shown by `gst-inspect-1.0`.
    ///   - classification: GStreamer's klass string (`Source/Video`), which auto-pluggers such as
    ///     autovideosink match on.
    ///   - formats: The pixel formats the source can produce, most preferred first.
    ///   - properties: The GObject properties the element has; `make` reads their values.
    ///   - plugin: The `GstPlugin` pointer inside a plugin's init function; nil registers the element for this
    ///     process only.
    ///   - make: Makes the source for each element instance, on the thread that creates the element; it gets the
    ///     instance's properties (set from a launch description before the element starts).
    /// - Throws: `GStreamerError` when GStreamer cannot be initialized, the app plugin (appsrc, appsink) is
    ///   missing, or the name is taken by a type that is not this one.
    public static func registerSource<Source: VideoSource>(
        name: String, longName: String, description: String, classification: String = "Source/Video",
        formats: [VideoPixelFormat] = VideoPixelFormat.allCases, properties: [PropertySpec] = [],
        plugin: UnsafeMutableRawPointer? = nil,
        make: @escaping @Sendable (ElementProperties) -> Source
    ) throws(GStreamerError) {
        let type = ElementTypeDescription(
            name: name, longName: longName, classification: classification, description: description,
            kind: .source, srcCaps: VideoPixelFormat.caps(for: formats), properties: properties)
        try register(type, as: VideoSourceKind<Source>.self, plugin: plugin, make: make)
    }

    /// Registers a sink: `make` is called once per element instance with its properties.
    ///
    /// Registering a name twice is a no-op; a name a GStreamer plugin already uses is an error.
    ///
    /// - Parameters:
    ///   - name: The factory name used in launch descriptions (`mysink`); instances are named after it.
    ///   - longName: A human-readable name, shown by `gst-inspect-1.0`.
    ///   - description: One sentence on what the element does, shown by `gst-inspect-1.0`.
    ///   - classification: GStreamer's klass string (`Sink/Video`), which auto-pluggers such as
    ///     autovideosink match on.
    ///   - formats: The pixel formats the sink accepts, most preferred first.
    ///   - properties: The GObject properties the element has; `make` reads their values.
    ///   - plugin: The `GstPlugin` pointer inside a plugin's init function; nil registers the element for this
    ///     process only.
    ///   - make: Makes the sink for each element instance, on the thread that creates the element; it gets the
    ///     instance's properties (set from a launch description before the element starts).
    /// - Throws: `GStreamerError` when GStreamer cannot be initialized, the app plugin (appsrc, appsink) is
    ///   missing, or the name is taken by a type that is not this one.
    public static func registerSink<Sink: VideoSink>(
        name: String, longName: String, description: String, classification: String = "Sink/Video",
        formats: [VideoPixelFormat] = VideoPixelFormat.allCases, properties: [PropertySpec] = [],
        plugin: UnsafeMutableRawPointer? = nil,
        make: @escaping @Sendable (ElementProperties) -> Sink
    ) throws(GStreamerError) {
        let type = ElementTypeDescription(
            name: name, longName: longName, classification: classification, description: description,
            kind: .sink, sinkCaps: VideoPixelFormat.caps(for: formats), properties: properties)
        try register(type, as: VideoSinkKind<Sink>.self, plugin: plugin, make: make)
    }

    /// Registers a filter (a sink that hands frames on): `make` is called once per element instance.
    ///
    /// Registering a name twice is a no-op; a name a GStreamer plugin already uses is an error.
    ///
    /// - Parameters:
    ///   - name: The factory name used in launch descriptions (`gray`); instances are named after it.
    ///   - longName: A human-readable name, shown by `gst-inspect-1.0`.
    ///   - description: One sentence on what the element does, shown by `gst-inspect-1.0`.
    ///   - classification: GStreamer's klass string (`Filter/Effect/Video`), which auto-pluggers such as
    ///     autovideosink match on.
    ///   - sinkFormats: The pixel formats the filter accepts.
    ///   - srcFormats: The pixel formats the filter may hand on.
    ///   - properties: The GObject properties the element has; `make` reads their values.
    ///   - plugin: The `GstPlugin` pointer inside a plugin's init function; nil registers the element for this
    ///     process only.
    ///   - make: Makes the filter for each element instance, on the thread that creates the element; it gets the
    ///     instance's properties (set from a launch description before the element starts).
    /// - Throws: `GStreamerError` when GStreamer cannot be initialized, the app plugin (appsrc, appsink) is
    ///   missing, or the name is taken by a type that is not this one.
    public static func registerFilter<Filter: VideoFilter>(
        name: String, longName: String, description: String, classification: String = "Filter/Effect/Video",
        sinkFormats: [VideoPixelFormat] = VideoPixelFormat.allCases,
        srcFormats: [VideoPixelFormat] = VideoPixelFormat.allCases, properties: [PropertySpec] = [],
        plugin: UnsafeMutableRawPointer? = nil,
        make: @escaping @Sendable (ElementProperties) -> Filter
    ) throws(GStreamerError) {
        let type = ElementTypeDescription(
            name: name, longName: longName, classification: classification, description: description,
            kind: .filter, sinkCaps: VideoPixelFormat.caps(for: sinkFormats),
            srcCaps: VideoPixelFormat.caps(for: srcFormats), properties: properties)
        try register(type, as: VideoFilterKind<Filter>.self, plugin: plugin, make: make)
    }
}
