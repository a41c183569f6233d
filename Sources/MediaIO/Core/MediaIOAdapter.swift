/// The Swift half of every MediaIO element: it drives the application's object through GStreamer's
/// lifecycle, the same for video and audio, sources, sinks and filters, and hands the rest to its
/// kind (`VideoSinkKind`, `AudioSourceKind`, ...).
final class MediaIOAdapter<Kind: MediaIOKind>: ElementImplementation {
    /// The application's source, sink or filter.
    let object: Kind.Object
    let kind: Kind
    // The element owns this adapter: holding it strongly would keep both alive forever. Weak, not
    // unowned: an adapter kept after its element is gone (`SwiftElement.implementation`) does nothing.
    weak let element: SwiftElement?

    init(_ object: Kind.Object, element: SwiftElement) {
        self.object = object
        self.kind = Kind(element: element)
        self.element = element
    }

    func initialize() throws { try kind.initialize(object, element: element) }
    func start() { object.shouldStart() }
    func stop() { object.shouldStop() }
    func dispose() { object.shouldDispose() }
    func needData() { kind.needData(object) }
    func endOfStream() { kind.endOfStream(object) }
    func flushStarted() { kind.flushStarted(object) }
    func flushed() { kind.flushed(object) }

    func transformCaps(_ caps: Caps, towardsSink: Bool) -> Caps {
        kind.transformCaps(caps, towardsSink: towardsSink, for: object)
    }

    /// A sample for the object; what it throws stops the stream, posted on the bus naming the element.
    func render(_ sample: Sample) -> FlowResult {
        do {
            return try kind.render(sample, on: object, element: element)
        } catch {
            element?.postError("\(error)")
            return .error
        }
    }
}

/// Any ``MediaIOAdapter``, whatever its kind: how `Pipeline.mediaIOElement(named:as:)` finds the object.
protocol AnyMediaIOAdapter {
    var mediaIOObject: AnyObject { get }
}

extension MediaIOAdapter: AnyMediaIOAdapter {
    var mediaIOObject: AnyObject { object }
}

extension MediaIOElements {
    /// Registers `type`, each instance of which drives the object `make` returns as a `Kind`.
    static func register<Kind: MediaIOKind>(
        _ type: ElementTypeDescription, as kind: Kind.Type, plugin: UnsafeMutableRawPointer?,
        make: @escaping @Sendable (ElementProperties) -> Kind.Object
    ) throws(GStreamerError) {
        try ElementType.register(type, plugin: plugin) { element in
            MediaIOAdapter<Kind>(make(element.properties), element: element)
        }
    }
}
