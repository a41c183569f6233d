/// Registers MediaIO sources, sinks and filters as GStreamer element factories, so that launch
/// descriptions (`noise ! gray ! autovideosink`) and applications can use them like any element.
public enum MediaIOElements {
    /// Registers a source: `make` is called once per element instance with its properties.
    public static func registerSource<Source: VideoSource>(
        name: String, longName: String, description: String, classification: String = "Source/Video",
        formats: [VideoPixelFormat] = VideoPixelFormat.allCases, properties: [PropertySpec] = [],
        plugin: UnsafeMutableRawPointer? = nil,
        make: @escaping @Sendable (ElementProperties) -> Source
    ) throws(GStreamerError) {
        let type = ElementTypeDescription(
            name: name, longName: longName, classification: classification, description: description,
            kind: .source, srcCaps: VideoPixelFormat.caps(for: formats), properties: properties)
        try ElementType.register(type, plugin: plugin) { bridge in
            SourceAdapter(source: make(bridge.properties), bridge: bridge)
        }
    }

    /// Registers a sink: `make` is called once per element instance with its properties.
    public static func registerSink<Sink: VideoSink>(
        name: String, longName: String, description: String, classification: String = "Sink/Video",
        formats: [VideoPixelFormat] = VideoPixelFormat.allCases, properties: [PropertySpec] = [],
        plugin: UnsafeMutableRawPointer? = nil,
        make: @escaping @Sendable (ElementProperties) -> Sink
    ) throws(GStreamerError) {
        let type = ElementTypeDescription(
            name: name, longName: longName, classification: classification, description: description,
            kind: .sink, sinkCaps: VideoPixelFormat.caps(for: formats), properties: properties)
        try ElementType.register(type, plugin: plugin) { bridge in
            SinkAdapter(sink: make(bridge.properties), bridge: bridge)
        }
    }

    /// Registers a filter (a sink that hands frames on): `make` is called once per element instance.
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
        try ElementType.register(type, plugin: plugin) { bridge in
            FilterAdapter(filter: make(bridge.properties), bridge: bridge)
        }
    }
}
