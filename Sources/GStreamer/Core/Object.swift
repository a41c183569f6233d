import CGStreamer
import CGStreamerShim

/// Any GObject, for the objects GStreamer hands out that are neither elements nor pads (webrtcbin's
/// ICE agent, a bin's clock, a device): its signals by name (``SignalEmitter``) and its properties as
/// ``Value``s. Owns one reference, released in `deinit`; a floating reference is sunk.
///
/// GObject reference counting, signal emission and property access are thread-safe, so the wrapper
/// can cross threads.
///
/// The corresponding C type is `GObject`.
public final class Object: @unchecked Sendable, SignalEmitter {
    let pointer: UnsafeMutablePointer<GObject>

    /// Wraps `pointer` with a reference of its own; the caller keeps its own. A floating reference is
    /// left floating: it belongs to whoever holds it (webrtcbin keeps its ICE agent so), and sinking
    /// it here would take it away from them.
    init(borrowing pointer: UnsafeMutableRawPointer) {
        self.pointer = pointer.assumingMemoryBound(to: GObject.self)
        g_object_ref(pointer)
    }

    deinit { g_object_unref(pointer) }

    /// The object's name when it is a GstObject ("webrtcice0"), else its type's name.
    ///
    /// The corresponding C function is `gst_object_get_name`.
    public var name: String {
        let object = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstObject.self)
        if g_type_is_a(CGStreamerShim_object_type(pointer), gst_object_get_type()) != 0,
            let name = String(takingGString: gst_object_get_name(object))
        {
            return name
        }
        return typeName
    }

    /// The name of the object's GType, such as "GstWebRTCNice".
    ///
    /// The corresponding C function is `G_OBJECT_TYPE_NAME`.
    public var typeName: String { String(cString: g_type_name(CGStreamerShim_object_type(pointer))) }

    /// Calls `body` with the GObject, for C interop.
    ///
    /// - Parameter body: Gets the pointer, valid only until it returns; no reference is added for it.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withUnsafePointer<Result, Failure: Error>(
        _ body: (UnsafeMutablePointer<GObject>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(pointer)
    }
}

extension SignalEmitter {
    /// A property's value, whatever its type (an object such as webrtcbin's `ice-agent`, a boxed value
    /// such as its `local-description`, an enum such as its `connection-state`).
    ///
    /// The corresponding C function is `g_object_get_property`.
    ///
    /// - Parameter property: The property's name.
    /// - Returns: The value, of the property's type.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no such property or it cannot be read.
    public func value(ofProperty property: String) throws(GStreamerError) -> Value {
        let owner = name
        return try withUnsafePointer { object throws(GStreamerError) in
            let spec = try Self.propertySpec(object, property, owner: owner, flag: G_PARAM_READABLE)
            let instance = UnsafeMutableRawPointer(object).assumingMemoryBound(to: GObject.self)
            return Value(type: CGStreamerShim_param_spec_value_type(spec)) {
                g_object_get_property(instance, property, $0)
            }
        }
    }

    /// Sets a property to `value`, converted to the property's type as a signal argument is (a
    /// number into any width it fits, an enum from its nick, an object of a subtype).
    ///
    /// The corresponding C function is `g_object_set_property`.
    ///
    /// - Parameters:
    ///   - property: The property's name.
    ///   - value: The new value.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no such property, it is not
    ///   writable, or `value` does not fit its type.
    public func setValue(_ value: Value, ofProperty property: String) throws(GStreamerError) {
        let owner = name
        try withUnsafePointer { object throws(GStreamerError) in
            let spec = try Self.propertySpec(object, property, owner: owner, flag: G_PARAM_WRITABLE)
            let converted = ValueStorage(type: CGStreamerShim_param_spec_value_type(spec))
            guard value.write(into: converted.gvalue) else {
                throw GStreamerError(
                    kind: .invalidArgument,
                    message: "property \"\(property)\" of \(owner) cannot be set to \(value)", source: owner)
            }
            g_object_set_property(
                UnsafeMutableRawPointer(object).assumingMemoryBound(to: GObject.self), property, converted.gvalue)
        }
    }

    /// The property's spec, when the object has it and it has `flag` (readable or writable); a
    /// construct-only property is not writable either, once the object exists.
    static func propertySpec(
        _ object: UnsafeMutablePointer<CObject>, _ property: String, owner: String, flag: GParamFlags
    ) throws(GStreamerError) -> UnsafeMutablePointer<GParamSpec> {
        guard let spec = CGStreamerShim_object_find_property(object, property) else {
            throw GStreamerError(
                kind: .invalidArgument, message: "no property \"\(property)\" in \(owner)", source: owner)
        }
        try checkAccess(spec, property, owner: owner, flag: flag)
        return spec
    }

    /// Throws unless `spec` has `flag` (readable or writable) and, for writing, is not construct-only:
    /// GLib would only warn and keep the old value.
    static func checkAccess(
        _ spec: UnsafeMutablePointer<GParamSpec>, _ property: String, owner: String, flag: GParamFlags
    ) throws(GStreamerError) {
        let flags = spec.pointee.flags.rawValue
        guard flags & flag.rawValue != 0 else {
            let access = flag == G_PARAM_READABLE ? "readable" : "writable"
            throw GStreamerError(
                kind: .invalidArgument, message: "property \"\(property)\" of \(owner) is not \(access)",
                source: owner)
        }
        if flag == G_PARAM_WRITABLE && flags & G_PARAM_CONSTRUCT_ONLY.rawValue != 0 {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "property \"\(property)\" of \(owner) can only be set when the object is made "
                    + "(it is construct-only)",
                source: owner)
        }
    }
}
