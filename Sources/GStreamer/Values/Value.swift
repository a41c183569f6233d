import CGStreamer
import CGStreamerShim

/// A GValue of any type, as a Swift value: what a signal passes and returns, a property holds or a
/// structure's field stores, whatever its GType: GLib's plain types, enums and flags, GStreamer's
/// structures, caps, buffers, samples and promises, any other boxed type (a
/// `GstWebRTCSessionDescription`, a `GError`) and any GObject.
///
/// Made from a Swift value (`Value(42)`, `Value(structure)`, `Value(element)`), from text by type name
/// (`try Value(parsing: "offer", as: "GstWebRTCSDPType")`), or from a boxed pointer by type; read back
/// with the accessor of the kind expected (`int`, `structure`, `object`, `withUnsafeBoxedPointer`),
/// each nil when the value is of another kind. As a signal argument (``SignalValue/value(_:)``) it is
/// converted to the parameter's type where GLib can (a number of any width that fits, an object of a
/// subtype).
///
/// The corresponding C type is `GValue`; Rust's gstreamer-rs calls it `glib::Value`.
public struct Value: Sendable, CustomStringConvertible {
    let storage: ValueStorage

    /// A value of GType `type`, set by `set` (which gets the initialized GValue).
    init(type: GType, _ set: (UnsafeMutablePointer<GValue>) -> Void) {
        try? GStreamer.initialize()
        storage = ValueStorage(type: type)
        set(storage.gvalue)
    }

    /// A copy of `value` (a reference of its own to an object or mini-object, a copy of other boxed
    /// values).
    init(copying value: UnsafePointer<GValue>) {
        self.init(type: value.pointee.g_type) { g_value_copy(value, $0) }
    }

    /// A `gboolean`.
    ///
    /// - Parameter value: The boolean.
    public init(_ value: Bool) {
        self.init(type: CGStreamerShim_type_boolean()) { g_value_set_boolean($0, value ? 1 : 0) }
    }

    /// A `gint64`; as a signal argument it goes into any integer type it fits.
    ///
    /// - Parameter value: The integer.
    public init(_ value: Int) { self.init(type: CGStreamerShim_type_int64()) { g_value_set_int64($0, gint64(value)) } }

    /// A `guint64`; as a signal argument it goes into any integer type it fits.
    ///
    /// - Parameter value: The integer.
    public init(_ value: UInt) {
        self.init(type: CGStreamerShim_type_uint64()) { g_value_set_uint64($0, guint64(value)) }
    }

    /// A `gdouble`.
    ///
    /// - Parameter value: The number.
    public init(_ value: Double) { self.init(type: CGStreamerShim_type_double()) { g_value_set_double($0, value) } }

    /// A `gchararray`; nil makes a NULL string.
    ///
    /// - Parameter value: The text.
    public init(_ value: String?) { self.init(type: CGStreamerShim_type_string()) { g_value_set_string($0, value) } }

    /// A `GstStructure` (a copy of it).
    ///
    /// - Parameter value: The structure.
    public init(_ value: Structure) {
        self.init(type: gst_structure_get_type()) { gvalue in
            value.withUnsafeGstStructure { gst_value_set_structure(gvalue, $0) }
        }
    }

    /// A `GstCaps`, sharing the caps.
    ///
    /// - Parameter value: The caps.
    public init(_ value: Caps) { self.init(type: CGStreamerShim_type_caps()) { gst_value_set_caps($0, value.pointer) } }

    /// A `GstBuffer`, sharing the buffer.
    ///
    /// - Parameter value: The buffer.
    public init(_ value: Buffer) {
        self.init(type: gst_buffer_get_type()) { gvalue in value.withPointer { g_value_set_boxed(gvalue, $0) } }
    }

    /// A `GstSample`, sharing the sample.
    ///
    /// - Parameter value: The sample.
    public init(_ value: Sample) {
        self.init(type: gst_sample_get_type()) { g_value_set_boxed($0, UnsafeRawPointer(value.pointer)) }
    }

    /// A `GstPromise`, sharing the promise: how a promise is handed to an action signal such as
    /// webrtcbin's `create-offer`.
    ///
    /// - Parameter value: The promise.
    public init(_ value: Promise) { self.init(type: gst_promise_get_type()) { g_value_set_boxed($0, value.pointer) } }

    /// An element (a GstElement of its own GType), with a reference of its own.
    ///
    /// - Parameter value: The element.
    public init(_ value: Element) { self.init(object: UnsafeMutableRawPointer(value.pointer)) }

    /// A pad, with a reference of its own.
    ///
    /// - Parameter value: The pad.
    public init(_ value: Pad) { self.init(object: UnsafeMutableRawPointer(value.pointer)) }

    /// Any GObject, with a reference of its own.
    ///
    /// - Parameter value: The object.
    public init(_ value: Object) { self.init(object: UnsafeMutableRawPointer(value.pointer)) }

    private init(object: UnsafeMutableRawPointer) {
        self.init(type: CGStreamerShim_object_type(object)) { g_value_set_object($0, object) }
    }

    /// A value of the type named `typeName`, parsed from its string form as gst-launch parses a property:
    /// an enum's nick, name or number (`"offer"` for `GstWebRTCSDPType`), flags as nicks joined by `+`
    /// (`"flush+accurate"` for `GstSeekFlags`), a structure or caps in their string form, a number.
    ///
    /// The corresponding C functions are `g_type_from_name` and `gst_value_deserialize`.
    ///
    /// - Parameters:
    ///   - text: The value's string form.
    ///   - typeName: The GType's name, such as "GstWebRTCSDPType"; the type must be registered (a
    ///     plugin's types are once one of its elements has been made).
    /// - Throws: ``GStreamerError`` (invalid argument) when no type has that name or `text` does not
    ///   parse as one.
    public init(parsing text: String, as typeName: String) throws(GStreamerError) {
        let type = try Value.type(named: typeName)
        let storage = ValueStorage(type: type)
        guard gst_value_deserialize(storage.gvalue, text) != 0 else {
            throw GStreamerError(kind: .invalidArgument, message: "\"\(text)\" is not a valid \(typeName)")
        }
        self.storage = storage
    }

    /// A boxed value of the type named `typeName`, copied from `pointer` with the type's own copy
    /// function (a reference for mini-objects): for boxed types the core has no Swift type for.
    ///
    /// The corresponding C function is `g_value_set_boxed`.
    ///
    /// - Parameters:
    ///   - pointer: The boxed value; the caller keeps its own.
    ///   - typeName: The boxed GType's name, such as "GstWebRTCSessionDescription".
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no such type or it is not boxed.
    public init(copyingBoxed pointer: UnsafeRawPointer, as typeName: String) throws(GStreamerError) {
        let type = try Value.type(named: typeName)
        guard g_type_fundamental(type) == CGStreamerShim_type_boxed() else {
            throw GStreamerError(kind: .invalidArgument, message: "\(typeName) is not a boxed type")
        }
        self.init(type: type) { g_value_set_boxed($0, pointer) }
    }

    /// The GType registered as `name`.
    static func type(named name: String) throws(GStreamerError) -> GType {
        try GStreamer.initialize()
        let type = g_type_from_name(name)
        guard type != 0 else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "no GType named \"\(name)\" (is the library or plugin that registers it loaded?)")
        }
        return type
    }

    // MARK: What the value is

    /// The value's GType name: "gint64", "GstStructure", "GstWebRTCBin", ....
    ///
    /// The corresponding C function is `g_type_name`.
    public var typeName: String { g_type_name(storage.gvalue.pointee.g_type).map { String(cString: $0) } ?? "?" }

    /// True when the value's type is `typeName` or derives from it (an element is a "GstBin" when it is
    /// one, a "GObject" always).
    ///
    /// The corresponding C function is `g_type_is_a` (for an object, of the instance's own type).
    ///
    /// - Parameter typeName: A GType's name.
    /// - Returns: Whether the value is of that type; false when no type has that name.
    public func isA(_ typeName: String) -> Bool {
        let type = g_type_from_name(typeName)
        return type != 0 && g_type_is_a(instanceType, type) != 0
    }

    /// True for a NULL object, boxed value or string.
    public var isNull: Bool {
        switch g_type_fundamental(storage.gvalue.pointee.g_type) {
        case CGStreamerShim_type_object(): g_value_get_object(storage.gvalue) == nil
        case CGStreamerShim_type_string(): g_value_get_string(storage.gvalue) == nil
        case CGStreamerShim_type_boxed(): g_value_get_boxed(storage.gvalue) == nil
        default: false
        }
    }

    /// The value's string form, where GStreamer can make one (numbers, enums and flags by nick,
    /// structures, caps); nil otherwise.
    ///
    /// The corresponding C function is `gst_value_serialize`.
    public var serialized: String? { String(takingGString: gst_value_serialize(storage.gvalue)) }

    /// The type name and the string form, for logs: `GstWebRTCSDPType offer`.
    public var description: String { "\(typeName) \(serialized ?? (isNull ? "NULL" : "…"))" }

    /// The type of the value, or of the object it holds (a subtype of the declared one).
    var instanceType: GType {
        if g_type_fundamental(storage.gvalue.pointee.g_type) == CGStreamerShim_type_object(),
            let object = g_value_get_object(storage.gvalue)
        {
            return CGStreamerShim_object_type(object)
        }
        return storage.gvalue.pointee.g_type
    }

    /// Calls `body` with the GValue, for C interop; it must not be kept or changed.
    ///
    /// - Parameter body: Reads the GValue; the pointer is valid only until it returns.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withUnsafeGValue<Result, Failure: Error>(
        _ body: (UnsafePointer<GValue>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(storage.gvalue)
    }

    /// Calls `body` with the boxed pointer the value holds (nil for NULL, or when the value is not of a
    /// boxed type), for boxed types the core has no Swift type for, such as a
    /// `GstWebRTCSessionDescription`.
    ///
    /// The corresponding C function is `g_value_get_boxed`.
    ///
    /// - Parameter body: Reads the boxed value; the pointer is valid only until it returns.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withUnsafeBoxedPointer<Result, Failure: Error>(
        _ body: (UnsafeRawPointer?) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let isBoxed = g_type_fundamental(storage.gvalue.pointee.g_type) == CGStreamerShim_type_boxed()
        return try body(isBoxed ? g_value_get_boxed(storage.gvalue) : nil)
    }

    // MARK: Into a GValue of another type

    /// Stores the value into `target`, a GValue initialized to the type wanted: as it is when the
    /// types match (or the object's is a subtype), a plain number into any width it fits, else through
    /// GLib's transformations. False, with nothing stored, when it does not fit.
    func write(into target: UnsafeMutablePointer<GValue>) -> Bool {
        let source = storage.gvalue
        let targetType = target.pointee.g_type
        if g_type_fundamental(targetType) == CGStreamerShim_type_object(),
            g_type_fundamental(source.pointee.g_type) == CGStreamerShim_type_object()
        {
            guard isNull || g_type_is_a(instanceType, targetType) != 0 else { return false }
            g_value_set_object(target, g_value_get_object(source))
            return true
        }
        if g_value_type_compatible(source.pointee.g_type, targetType) != 0 {
            g_value_copy(source, target)
            return true
        }
        if GScalar(reading: target) != nil, let scalar = GScalar(reading: source) {
            return scalar.write(into: target)
        }
        return g_value_type_transformable(source.pointee.g_type, targetType) != 0
            && g_value_transform(source, target) != 0
    }
}

/// One initialized GValue at a stable address, unset when the last ``Value`` holding it goes.
///
/// `@unchecked Sendable`: the GValue is written only while it is being made, before any other
/// thread can see it; afterwards it is only read (the objects and mini-objects it references are
/// GStreamer's thread-safe refcounted ones, and copies of other boxed values are its own).
final class ValueStorage: @unchecked Sendable {
    let gvalue: UnsafeMutablePointer<GValue>

    init(type: GType) {
        gvalue = .allocate(capacity: 1)
        gvalue.initialize(to: GValue())
        g_value_init(gvalue, type)
    }

    deinit {
        g_value_unset(gvalue)
        gvalue.deallocate()
    }
}
