import CGStreamer
import CGStreamerShim

/// A GStreamer element's state.
public enum State: Int, Sendable, CustomStringConvertible, Comparable {
    /// No state: in a pending state, no change is in progress (`GST_STATE_VOID_PENDING`).
    case voidPending = 0
    /// The initial state: no resources held, nothing allocated (`GST_STATE_NULL`).
    case null = 1
    /// Resources opened (devices, files), no data flowing and no stream position (`GST_STATE_READY`).
    case ready = 2
    /// Data flows up to the sinks, which hold the first buffer (preroll) without rendering it; the clock
    /// does not run (`GST_STATE_PAUSED`).
    case paused = 3
    /// Data flows and the clock runs: sinks render (`GST_STATE_PLAYING`).
    case playing = 4

    init(_ state: GstState) {
        self = State(rawValue: Int(state.rawValue)) ?? .voidPending
    }

    var gstState: GstState { GstState(rawValue: UInt32(rawValue)) }

    /// GStreamer's name for the state, as `gst_element_state_get_name` writes it ("PLAYING").
    public var description: String {
        switch self {
        case .voidPending: "VOID_PENDING"
        case .null: "NULL"
        case .ready: "READY"
        case .paused: "PAUSED"
        case .playing: "PLAYING"
        }
    }

    /// Orders states from ``null`` up to ``playing``, as state changes go up (``voidPending`` first).
    ///
    /// - Parameters:
    ///   - lhs: A state.
    ///   - rhs: Another state.
    /// - Returns: Whether `lhs` comes before `rhs`.
    public static func < (lhs: State, rhs: State) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The outcome of a state change that did not fail.
public enum StateChangeResult: Sendable {
    /// The change is complete (`GST_STATE_CHANGE_SUCCESS`).
    case success
    /// The change completes later (a sink waits for its preroll buffer).
    case async
    /// Succeeded, but the element cannot preroll in PAUSED (a live source).
    case noPreroll
}

/// A GStreamer element. Owns one reference, released in `deinit`.
///
/// GstElement is reference counted and its methods are thread-safe, so the wrapper can cross threads.
public class Element: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstElement>

    /// Wraps `pointer`, taking over one reference (`owned: true`) or adding one (`owned: false`).
    /// Floating references are sunk.
    init(_ pointer: UnsafeMutablePointer<GstElement>, owned: Bool) {
        self.pointer = pointer
        if g_object_is_floating(UnsafeMutableRawPointer(pointer)) != 0 {
            gst_object_ref_sink(UnsafeMutableRawPointer(pointer))
        } else if !owned {
            gst_object_ref(UnsafeMutableRawPointer(pointer))
        }
    }

    deinit {
        gst_object_unref(UnsafeMutableRawPointer(pointer))
    }

    /// Creates an element from a factory, such as `Element(factory: "videotestsrc")`. Throws when the
    /// factory is not installed, naming it and the Debian package that usually provides it. (For a
    /// `Bin` wrapper where the element is a bin, use `ElementFactory.make`; for a pipeline, `Pipeline(name:)`.)
    ///
    /// The corresponding C function is `gst_element_factory_make`.
    ///
    /// - Parameters:
    ///   - factory: The factory's name, such as "videotestsrc".
    ///   - name: The element's name, unique in its bin; nil lets GStreamer number one ("videotestsrc0").
    /// - Throws: ``GStreamerError`` (invalid argument, naming the package to install) when there is no
    ///   such factory, or GStreamer cannot be initialized.
    public convenience init(factory: String, name: String? = nil) throws(GStreamerError) {
        try GStreamer.initialize()
        guard let element = gst_element_factory_make(factory, name) else { throw ElementFactory.missing(factory) }
        self.init(element, owned: true)
    }

    /// The element's name, such as "gray0".
    ///
    /// The corresponding C function is `gst_object_get_name`.
    public var name: String {
        guard let name = gst_object_get_name(objectPointer) else { return "" }
        defer { g_free(name) }
        return String(cString: name)
    }

    /// The name of the factory that made the element, such as "videotestsrc".
    public var factoryName: String? {
        guard let factory = gst_element_get_factory(pointer),
            let name = UnsafeMutablePointer<GstObject>(factory).pointee.name
        else { return nil }
        return String(cString: name)
    }

    var objectPointer: UnsafeMutablePointer<GstObject> {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstObject.self)
    }

    // MARK: Properties

    /// Sets a property. Throws when the element has no such property or the value does not fit.
    ///
    /// The corresponding C function is `g_object_set_property`.
    ///
    /// - Parameters:
    ///   - property: The property's name, such as "num-buffers".
    ///   - value: The value: a Swift number, string or ``PropertyValue``, converted to the property's type.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no such property, it is not writable, or
    ///   GLib refuses the value (wrong type, out of range), with GLib's reason.
    public func set(_ property: String, _ value: some PropertyValueConvertible) throws(GStreamerError) {
        guard let spec = CGStreamerShim_object_find_property(pointer, property) else {
            throw noSuchProperty(property)
        }
        var gvalue = GValue()
        g_value_init(&gvalue, CGStreamerShim_param_spec_value_type(spec))
        defer { g_value_unset(&gvalue) }
        guard GValues.write(value.propertyValue, into: &gvalue) else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "cannot set property \"\(property)\" of \(name) to \(value.propertyValue)", source: name)
        }
        // GLib refuses a value out of the property's range with a warning only, keeping the old value.
        let ((), warnings) = ParseWarnings.collect {
            g_object_set_property(UnsafeMutablePointer(OpaquePointer(pointer)), property, &gvalue)
        }
        if let warning = warnings.first { throw refused(property, value.propertyValue.description, warning) }
    }

    /// Sets a property from its string form, the way gst-launch-1.0 parses `name=value`. Throws when
    /// there is no such property, it is read-only, the string does not parse as its type, or GLib
    /// refuses the value (out of range), with GLib's reason.
    ///
    /// The corresponding C functions are `gst_value_deserialize_with_pspec` and `g_object_set_property`
    /// (what `gst_util_set_object_arg` does, which fails silently).
    ///
    /// - Parameters:
    ///   - property: The property's name.
    ///   - value: The value as gst-launch-1.0 writes it: `640`, `true`, `30/1`, an enum's nick.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no such property, it is read-only, the
    ///   string does not parse, or GLib refuses the value.
    public func set(_ property: String, fromString value: String) throws(GStreamerError) {
        let (result, warnings) = ParseWarnings.collect {
            CGStreamerShim_object_set_from_string_checked(pointer, property, value)
        }
        switch result {
        case 1: throw noSuchProperty(property)
        case 2:
            throw GStreamerError(
                kind: .invalidArgument, message: "property \"\(property)\" of \(name) is not writable", source: name)
        case 3: throw refused(property, value, "\"\(value)\" is not a valid value of this property")
        default:
            if let warning = warnings.first { throw refused(property, value, warning) }
        }
    }

    private func refused(_ property: String, _ value: String, _ reason: String) -> GStreamerError {
        GStreamerError(
            kind: .invalidArgument, message: "cannot set property \"\(property)\" of \(name) to \(value): \(reason)",
            source: name)
    }

    /// Reads a property. Throws when the element has no such property.
    ///
    /// The corresponding C function is `g_object_get_property`.
    ///
    /// - Parameter property: The property's name.
    /// - Returns: The current value, typed after the property's GType.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no such property or it cannot be read.
    public func get(_ property: String) throws(GStreamerError) -> PropertyValue {
        guard let spec = CGStreamerShim_object_find_property(pointer, property) else {
            throw noSuchProperty(property)
        }
        var gvalue = GValue()
        g_value_init(&gvalue, CGStreamerShim_param_spec_value_type(spec))
        defer { g_value_unset(&gvalue) }
        g_object_get_property(UnsafeMutablePointer(OpaquePointer(pointer)), property, &gvalue)
        guard let value = GValues.read(&gvalue) else {
            throw GStreamerError(
                kind: .invalidArgument, message: "cannot read property \"\(property)\" of \(name)", source: name)
        }
        return value
    }

    private func noSuchProperty(_ property: String) -> GStreamerError {
        GStreamerError(
            kind: .invalidArgument, message: "no property \"\(property)\" in element \"\(name)\"", source: name)
    }

    // MARK: State

    /// Asks the element to change state; waits for an asynchronous change up to `timeout` nanoseconds.
    /// Throws with the message the element posted when the change fails.
    ///
    /// The corresponding C functions are `gst_element_set_state` and `gst_element_get_state`.
    ///
    /// - Parameters:
    ///   - state: The state to go to; the element passes through the states in between.
    ///   - timeout: How long to wait, in nanoseconds, for an asynchronous change; nil does not wait.
    /// - Returns: ``StateChangeResult/success``, ``StateChangeResult/async`` when the change is still going on
    ///   (after `timeout`), or ``StateChangeResult/noPreroll`` for a live source.
    /// - Throws: ``GStreamerError`` (state change) when the change fails (`GST_STATE_CHANGE_FAILURE`).
    @discardableResult
    public func setState(_ state: State, timeout: ClockTime? = nil) throws(GStreamerError) -> StateChangeResult {
        var result = gst_element_set_state(pointer, state.gstState)
        if result == GST_STATE_CHANGE_ASYNC, let timeout {
            result = gst_element_get_state(pointer, nil, nil, GstClockTime(timeout))
        }
        switch result {
        case GST_STATE_CHANGE_FAILURE:
            throw GStreamerError(
                kind: .stateChange, message: "\(name) failed to change state to \(state)", source: name)
        case GST_STATE_CHANGE_ASYNC: return .async
        case GST_STATE_CHANGE_NO_PREROLL: return .noPreroll
        default: return .success
        }
    }

    /// The current state, waiting up to `timeout` nanoseconds for a change in progress (0: no wait).
    ///
    /// The corresponding C function is `gst_element_get_state`.
    ///
    /// - Parameter timeout: How long to wait for a change in progress, in nanoseconds; 0 does not wait.
    /// - Returns: The current state, and the state a change in progress is going to (``State/voidPending``
    ///   when none is).
    public func state(timeout: ClockTime = 0) -> (current: State, pending: State) {
        var current = GST_STATE_VOID_PENDING
        var pending = GST_STATE_VOID_PENDING
        _ = gst_element_get_state(pointer, &current, &pending, GstClockTime(timeout))
        return (State(current), State(pending))
    }

    /// Locks or unlocks the element's state against its parent's state changes.
    ///
    /// The corresponding C function is `gst_element_set_locked_state`.
    ///
    /// - Parameter locked: True to keep the element in its state whatever its parent does, false to follow
    ///   the parent again.
    public func setLockedState(_ locked: Bool) {
        gst_element_set_locked_state(pointer, locked ? 1 : 0)
    }

    /// Sends an end-of-stream event into the element (for a pipeline: to every source).
    ///
    /// The corresponding C function is `gst_element_send_event` with `gst_event_new_eos`.
    ///
    /// - Returns: Whether the element took the event (a pipeline: whether every source did).
    @discardableResult
    public func sendEndOfStream() -> Bool {
        gst_element_send_event(pointer, gst_event_new_eos()) != 0
    }

    /// Seeks to `position` nanoseconds (and plays up to `stop`, when given) with a flushing seek,
    /// accurate or to the nearest key unit.
    ///
    /// The corresponding C function is `gst_element_seek`.
    ///
    /// - Parameters:
    ///   - position: Where to start, in nanoseconds of stream time.
    ///   - stop: Where to stop, in nanoseconds, or nil to play to the end.
    ///   - accurate: True to start exactly at `position` (decoding from the key unit before it), false to
    ///     start at the nearest key unit (faster).
    /// - Returns: Whether the seek was handled; false when no element could seek (a live source, a
    ///   pipeline not yet PAUSED).
    @discardableResult
    public func seek(to position: ClockTime, stop: ClockTime? = nil, accurate: Bool = false) -> Bool {
        var flags = GST_SEEK_FLAG_FLUSH.rawValue
        flags |= accurate ? GST_SEEK_FLAG_ACCURATE.rawValue : GST_SEEK_FLAG_KEY_UNIT.rawValue
        return gst_element_seek(
            pointer, 1.0, GST_FORMAT_TIME, GstSeekFlags(flags), GST_SEEK_TYPE_SET, gint64(position),
            stop == nil ? GST_SEEK_TYPE_NONE : GST_SEEK_TYPE_SET, stop.map { gint64($0) } ?? -1) != 0
    }

    /// The position in nanoseconds, when the pipeline can answer.
    ///
    /// The corresponding C function is `gst_element_query_position`.
    public var position: ClockTime? {
        var value: gint64 = -1
        guard gst_element_query_position(pointer, GST_FORMAT_TIME, &value) != 0, value >= 0 else { return nil }
        return ClockTime(value)
    }

    /// The duration in nanoseconds, when known.
    ///
    /// The corresponding C function is `gst_element_query_duration`.
    public var duration: ClockTime? {
        var value: gint64 = -1
        guard gst_element_query_duration(pointer, GST_FORMAT_TIME, &value) != 0, value >= 0 else { return nil }
        return ClockTime(value)
    }

    /// For an element written in Swift (`ElementType.register`), its Swift half; nil for any other element.
    public var swiftElement: SwiftElement? {
        guard let object = CGStreamerShim_bin_swift_object(pointer) else { return nil }
        return Unmanaged<SwiftElement>.fromOpaque(object).takeUnretainedValue()
    }

    /// The element's static pad of this name.
    ///
    /// The corresponding C function is `gst_element_get_static_pad`.
    ///
    /// - Parameter name: The pad's name, such as "src" or "sink".
    /// - Returns: The pad, or nil when the element has no static pad of this name (request and sometimes
    ///   pads are not static).
    public func pad(named name: String) -> Pad? {
        guard let pad = gst_element_get_static_pad(pointer, name) else { return nil }
        return Pad(pad, owned: true)
    }

    /// Links this element's source pad to `other`'s sink pad.
    ///
    /// The corresponding C function is `gst_element_link`.
    ///
    /// - Parameter other: The downstream element, in the same bin.
    /// - Throws: ``GStreamerError`` (invalid argument) when the elements cannot be linked: no compatible
    ///   pads, different bins, or pads linked already.
    public func link(to other: Element) throws(GStreamerError) {
        guard gst_element_link(pointer, other.pointer) != 0 else {
            throw GStreamerError(
                kind: .invalidArgument, message: "could not link \(name) to \(other.name)", source: name)
        }
    }
}
