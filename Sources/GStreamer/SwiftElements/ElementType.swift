import CGStreamer
import CGStreamerShim
import GstPipeSupport
import Synchronization

/// How an element written in Swift meets the pipeline: through an appsrc (a source), an appsink
/// (a sink), or pads of its own (a filter: Swift code between its sink and source pads, on the
/// upstream streaming thread).
public enum SwiftElementKind: Sendable {
    /// A source: the Swift code pushes data through an inner appsrc.
    case source
    /// A sink: the Swift code gets data from an inner appsink.
    case sink
    /// A filter: the Swift code gets each buffer from the sink pad and pushes on the source pad.
    case filter
}

/// Everything GStreamer needs to know about an element type written in Swift: its factory name,
/// metadata, pad templates and properties.
public struct ElementTypeDescription: Sendable {
    /// The factory name used in launch descriptions, such as "gray".
    public var name: String
    /// A human-readable name, shown by `gst-inspect-1.0` (`GST_ELEMENT_METADATA_LONGNAME`).
    public var longName: String
    /// GStreamer's classification, such as "Filter/Effect/Video".
    public var classification: String
    /// One sentence on what the element does, shown by `gst-inspect-1.0`.
    public var description: String
    /// The author, shown by `gst-inspect-1.0`.
    public var author: String
    /// Whether the element is a source, a sink or a filter.
    public var kind: SwiftElementKind
    /// Caps of the sink pad template (sinks and filters).
    public var sinkCaps: String
    /// Caps of the source pad template (sources and filters).
    public var srcCaps: String
    /// The element's GObject properties; sinks also get ``syncProperty``.
    public var properties: [PropertySpec]
    /// Sinks: elements put in front of the inner appsink, such as `["audioconvert", "audioresample"]`,
    /// so that the sink gets the format it asks for from any input.
    public var sinkConverters: [String] = []
    /// Sources: whether the source makes its data when asked (`needData`, pull mode). Such a source
    /// is a plain element that calls `needData` in a loop on a streaming thread of its own and pushes
    /// through a source pad of its own, with no appsrc and no queue in between (see
    /// PadSource.swift). A source that pushes from threads of its own (push mode) leaves it false
    /// and gets an appsrc, whose queue takes its pushes.
    public var pulled = false

    /// The property every sink has, as GStreamer sinks do: whether to render each frame at its time on
    /// the pipeline clock (true) or as soon as it arrives (false).
    public static let syncProperty = PropertySpec(
        "sync", blurb: "Render each frame at its time on the clock (false: as soon as it arrives)", .bool(default: true)
    )

    ///
    /// - Parameters:
    ///   - name: The factory name used in launch descriptions.
    ///   - longName: A human-readable name.
    ///   - classification: GStreamer's classification, such as "Filter/Effect/Video".
    ///   - description: One sentence on what the element does.
    ///   - author: The author.
    ///   - kind: Source, sink or filter.
    ///   - sinkCaps: The sink pad template's caps, as a caps string (sinks and filters).
    ///   - srcCaps: The source pad template's caps, as a caps string (sources and filters).
    ///   - properties: The element's properties.
    public init(
        name: String, longName: String, classification: String, description: String,
        author: String = "gstpipe developers", kind: SwiftElementKind, sinkCaps: String = "video/x-raw",
        srcCaps: String = "video/x-raw", properties: [PropertySpec] = []
    ) {
        self.name = name
        self.longName = longName
        self.classification = classification
        self.description = description
        self.author = author
        self.kind = kind
        self.sinkCaps = sinkCaps
        self.srcCaps = srcCaps
        self.properties =
            kind == .sink && !properties.contains(where: { $0.name == "sync" })
            ? properties + [ElementTypeDescription.syncProperty] : properties
    }
}

/// What `ElementType.register` keeps for a type: its description and how to make the Swift half of
/// each instance.
final class ElementTypeBox: Sendable {
    let description: ElementTypeDescription
    let makeDelegate: @Sendable (SwiftElement) -> any ElementImplementation

    init(
        description: ElementTypeDescription,
        makeDelegate: @escaping @Sendable (SwiftElement) -> any ElementImplementation
    ) {
        self.description = description
        self.makeDelegate = makeDelegate
    }
}

/// Registration of element types written in Swift with GStreamer, so that launch descriptions, bins
/// and applications can make them like any other element.
public enum ElementType {
    private static let registered = Locked<[String: ElementTypeDescription]>([:])

    /// Registers `description` as an element factory. `makeDelegate` is called once per element
    /// instance, when GStreamer creates it. Registering a name twice is a no-op; a name that a
    /// GStreamer plugin already uses is an error.
    ///
    /// With `plugin` nil the factory is registered for this process only; inside a plugin's init
    /// function, pass the GstPlugin pointer it was given.
    ///
    /// The corresponding C functions are `g_type_register_static` and `gst_element_register`.
    ///
    /// - Parameters:
    ///   - description: The type's name, metadata, pad templates and properties.
    ///   - plugin: The `GstPlugin` pointer a plugin's init function was given, or nil.
    ///   - makeDelegate: Makes the Swift half of each instance, given its ``SwiftElement``, on the thread that
    ///     creates the element.
    /// - Throws: ``GStreamerError`` when GStreamer cannot be initialized, the app plugin is missing, the GType
    ///   name is taken, or GStreamer refuses the registration.
    public static func register(
        _ description: ElementTypeDescription, plugin: UnsafeMutableRawPointer? = nil,
        makeDelegate: @escaping @Sendable (SwiftElement) -> any ElementImplementation
    ) throws(GStreamerError) {
        // Inside a plugin's init, GStreamer is being initialized already (possibly by this very call
        // chain): calling gst_init again there could deadlock.
        if plugin == nil { try GStreamer.initialize() }
        installCallbacksOnce
        // Inside a plugin's init the app plugin may not be loaded yet; its elements check again when
        // they are made.
        if plugin == nil, let missing = missingAppFactories(for: description).first {
            var error = ElementFactory.missing(missing)
            error.message = "the Swift element \"\(description.name)\" cannot be registered: \(error.message)"
            throw error
        }
        try validateProperties(of: description)
        let result: Result<Void, GStreamerError> = registered.withLock { registered in
            if registered[description.name] != nil { return .success(()) }
            let typeName = Self.typeName(of: description.name)
            // Two names that differ only in - and _ (or other punctuation) make one type name: say so, naming
            // both, rather than GLib's "registered already" about a type the user never named.
            if let other = registered.keys.first(where: { Self.typeName(of: $0) == typeName }) {
                return .failure(
                    GStreamerError(
                        kind: .invalidArgument,
                        message: "the Swift element \"\(description.name)\" cannot be registered: \"\(other)\" is, and "
                            + "both make the type name \(typeName) (GObject keeps only letters and digits of a name): "
                            + "give one a name that differs in a letter or digit"))
            }
            let box = ElementTypeBox(description: description, makeDelegate: makeDelegate)
            var templates: [UnsafeMutablePointer<GstPadTemplate>?] = []
            if description.kind != .source {
                templates.append(padTemplate("sink", GST_PAD_SINK, description.sinkCaps))
            }
            if description.kind != .sink {
                templates.append(padTemplate("src", GST_PAD_SRC, description.srcCaps))
            }
            var specs: [UnsafeMutablePointer<GParamSpec>?] = description.properties.map { $0.makeParamSpec() }
            // The box lives as long as the type: for the rest of the process.
            let classPointer = Unmanaged.passRetained(box).toOpaque()
            let type = templates.withUnsafeMutableBufferPointer { templateBuffer in
                specs.withUnsafeMutableBufferPointer { specBuffer in
                    CGStreamerShim_swift_element_register_type(
                        typeName, description.longName, description.classification, description.description,
                        description.author, templateBuffer.baseAddress, guint(templateBuffer.count),
                        specBuffer.baseAddress, guint(specBuffer.count), classPointer,
                        description.hasOwnPads ? 1 : 0)
                }
            }
            guard type != 0 else {
                Unmanaged<ElementTypeBox>.fromOpaque(classPointer).release()
                return .failure(
                    GStreamerError(kind: .invalidArgument, message: "the type \(typeName) is registered already"))
            }
            guard
                gst_element_register(
                    plugin.map { OpaquePointer($0) }, description.name, guint(GST_RANK_NONE.rawValue),
                    type) != 0
            else {
                return .failure(
                    GStreamerError(
                        kind: .invalidArgument, message: "could not register element \"\(description.name)\""))
            }
            registered[description.name] = description
            return .success(())
        }
        try result.get()
    }

    /// The GType name of the element type `name`: GStreamer names instances after the type, minus "Gst"
    /// (GstGray makes gray0, gray1, ...); `my-gray` and `my_gray` both make GstMyGray.
    private static func typeName(of name: String) -> String {
        // An ASCII name (as names are) by its bytes: the same result without Unicode's letter tables,
        // which cost more at start-up than the registration.
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else {
            return "Gst"
                + name.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
                .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        }
        var result = Array("Gst".utf8)
        var startsWord = true
        for byte in name.utf8 {
            let isLetter = (0x61...0x7A).contains(byte | 0x20)
            guard isLetter || (0x30...0x39).contains(byte) else {
                startsWord = true
                continue
            }
            result.append(startsWord && isLetter ? byte & ~0x20 : byte)
            startsWord = false
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Throws, naming the element and the property, when a property spec is one GLib would refuse or two
    /// share a name (GLib returns NULL or aborts the registration with a critical otherwise).
    private static func validateProperties(of description: ElementTypeDescription) throws(GStreamerError) {
        var seen: Set<String> = []
        for property in description.properties {
            do {
                try property.validate()
            } catch {
                var error = error
                error.message = "the Swift element \"\(description.name)\" cannot be registered: \(error.message)"
                throw error
            }
            guard seen.insert(property.name).inserted else {
                throw GStreamerError(
                    kind: .invalidArgument,
                    message: "the Swift element \"\(description.name)\" cannot be registered: two properties are "
                        + "named \"\(property.name)\"")
            }
        }
    }

    private static func padTemplate(_ name: String, _ direction: GstPadDirection, _ caps: String)
        -> UnsafeMutablePointer<GstPadTemplate>?
    {
        let parsed = gst_caps_from_string(caps) ?? gst_caps_new_any()
        defer { gst_caps_unref(parsed) }
        return gst_pad_template_new(name, direction, GST_PAD_ALWAYS, parsed)
    }

    /// The app plugin's factories the kind of `description` is built on that are not installed.
    static func missingAppFactories(for description: ElementTypeDescription) -> [String] {
        description.bodyType.appFactories.filter { !GStreamer.hasElement(named: $0) }
    }

    /// The app plugin's factories, those of them that are not installed.
    static var missingAppPlugin: [String] {
        ["appsrc", "appsink"].filter { !GStreamer.hasElement(named: $0) }
    }

    private static let installCallbacksOnce: Void = {
        var callbacks = CGStreamerShimBinCallbacks()
        callbacks.instance_init = { element, classPointer in
            guard let element, let classPointer else { return }
            let box = Unmanaged<ElementTypeBox>.fromOpaque(classPointer).takeUnretainedValue()
            // Without the app plugin the element stays an empty bin that fails NULL → READY, naming
            // the missing factory (see change_state), instead of trapping while it is made.
            guard missingAppFactories(for: box.description).isEmpty else { return }
            let swiftElement = SwiftElement(element: element, type: box)
            CGStreamerShim_swift_element_set_swift_object(element, Unmanaged.passRetained(swiftElement).toOpaque())
        }
        callbacks.finalize = { _, object in
            guard let object else { return }
            Unmanaged<SwiftElement>.fromOpaque(object).release()
        }
        callbacks.set_property = { _, object, id, value in
            guard let object, let value else { return }
            let swiftElement = Unmanaged<SwiftElement>.fromOpaque(object).takeUnretainedValue()
            if let parsed = GValues.read(value) {
                swiftElement.properties.set(id: Int(id), parsed)
                swiftElement.propertyChanged(id: Int(id))
            }
        }
        callbacks.get_property = { _, object, id, value in
            guard let object, let value else { return }
            let swiftElement = Unmanaged<SwiftElement>.fromOpaque(object).takeUnretainedValue()
            if let current = swiftElement.properties.get(id: Int(id)) {
                _ = GValues.write(current, into: value)
            }
        }
        callbacks.change_state = { element, object, transition in
            guard let object else {
                if transition == GST_STATE_CHANGE_NULL_TO_READY, let element, let first = missingAppPlugin.first {
                    CGStreamerShim_element_post_error(element, 1, ElementFactory.missing(first).message, nil)
                    return GST_STATE_CHANGE_FAILURE
                }
                return CGStreamerShim_swift_element_parent_change_state(element, transition)
            }
            let swiftElement = Unmanaged<SwiftElement>.fromOpaque(object).takeUnretainedValue()
            return swiftElement.changeState(transition)
        }
        callbacks.send_end_of_stream = { _, object, event in
            guard let object, let event else { return 0 }
            let swiftElement = Unmanaged<SwiftElement>.fromOpaque(object).takeUnretainedValue()
            guard let sent = swiftElement.body.takeEndOfStream(event) else { return 0 }
            return sent ? 1 : -1
        }
        CGStreamerShim_swift_element_set_callbacks(&callbacks)
    }()

    /// The names of the element types registered from Swift in this process, sorted.
    ///
    /// - Returns: The factory names, sorted.
    public static func registeredNames() -> [String] {
        registered.withLock { $0.keys.sorted() }
    }

    /// The long name of the Swift element type registered under `name`.
    ///
    /// - Parameter name: The factory name.
    /// - Returns: The long name, or nil when no Swift element type has this name.
    public static func longName(of name: String) -> String? {
        registered.withLock { $0[name]?.longName }
    }
}
