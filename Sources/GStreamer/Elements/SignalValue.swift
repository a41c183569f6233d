import CGStreamer
import CGStreamerShim

/// A value a GObject signal passes to its handlers or returns, or an argument to emit one with:
/// GStreamer's objects as their Swift wrappers, plain GLib values as Swift values.
///
/// The corresponding C type is `GValue`.
public enum SignalValue: Sendable, CustomStringConvertible {
    /// No value: what a handler of a signal without a return value returns.
    case void
    /// A `gboolean`.
    case bool(Bool)
    /// Any signed integer (gchar, gint, glong, gint64).
    case int(Int)
    /// Any unsigned integer (guchar, guint, gulong, guint64), such as need-data's length.
    case uint(UInt)
    /// A gfloat or gdouble.
    case double(Double)
    /// A string, nil for a NULL `gchar*`.
    case string(String?)
    /// An enum or flags value by number and nick (a GstFlowReturn: `-2, "error"`).
    case enumeration(Int, nick: String)
    /// A GstElement (a ``Bin`` when it is one), with a reference of its own.
    case element(Element)
    /// A GstPad, with a reference of its own.
    case pad(Pad)
    /// A GstCaps, with a reference of its own.
    case caps(Caps)
    /// A GstBuffer, with a reference of its own.
    case buffer(Buffer)
    /// A GstSample (appsink's `pull-sample`), with a reference of its own.
    case sample(Sample)
    /// A GParamSpec by property name (the argument of `notify::name`).
    case property(String)
    /// A NULL object or boxed value.
    case null
    /// Any other value: its type name and, when GStreamer can serialize it, its string form. Signals no
    /// longer hand this out (their other values come as ``value(_:)``); as an argument it is parsed as
    /// the parameter's type.
    case other(typeName: String, serialized: String?)
    /// A value of any type as a ``Value``: what a handler gets for a structure, a promise, an object
    /// that is no element or pad, or any other boxed value (a `GstWebRTCSessionDescription`); as an
    /// argument, any value converted to the parameter's type where GLib can (`.value(Value(promise))`
    /// for webrtcbin's `create-offer`).
    case value(Value)

    /// The value for logs: `true`, `42`, `"text"`, `element src0`, `buffer of 4096 bytes`, ….
    public var description: String {
        switch self {
        case .void: "void"
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .uint(let value): String(value)
        case .double(let value): String(value)
        case .string(let value): value.map { "\"\($0)\"" } ?? "NULL"
        case .enumeration(let value, let nick): "\(value), \"\(nick)\""
        case .element(let element): "element \(element.name)"
        case .pad(let pad): "pad \(pad.name)"
        case .caps(let caps): caps.description
        case .buffer(let buffer): "buffer of \(buffer.size) bytes"
        case .sample(let sample): "sample of \(sample.buffer?.size ?? 0) bytes"
        case .property(let name): "property \(name)"
        case .null: "NULL"
        case .other(let typeName, let serialized): "\(typeName) \(serialized ?? "")"
        case .value(let value): value.description
        }
    }

    /// The value as a Bool, when it is a boolean.
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The value as an Int: any integer, or an enum's number.
    public var int: Int? {
        switch self {
        case .int(let value): value
        case .uint(let value): Int(exactly: value)
        case .enumeration(let value, _): value
        default: nil
        }
    }
    /// The value as a UInt, when it is a non-negative integer.
    public var uint: UInt? {
        switch self {
        case .uint(let value): value
        case .int(let value): UInt(exactly: value)
        default: nil
        }
    }
    /// The value as a Double, when it is a gfloat or gdouble.
    public var double: Double? { if case .double(let value) = self { value } else { nil } }
    /// The value as a String, when it is a non-NULL string.
    public var string: String? { if case .string(let value) = self { value } else { nil } }
    /// The element, when the value is one.
    public var element: Element? { if case .element(let value) = self { value } else { nil } }
    /// The pad, when the value is one.
    public var pad: Pad? { if case .pad(let value) = self { value } else { nil } }
    /// The caps, when the value is caps.
    public var caps: Caps? { if case .caps(let value) = self { value } else { nil } }
    /// The buffer, when the value is one.
    public var buffer: Buffer? { if case .buffer(let value) = self { value } else { nil } }
    /// The sample, when the value is one.
    public var sample: Sample? { if case .sample(let value) = self { value } else { nil } }
    /// The structure, when the value is a non-NULL GstStructure.
    public var structure: Structure? { asValue?.structure }
    /// The object, when the value is any non-NULL GObject (an element, a pad, an ICE agent).
    public var object: Object? { asValue?.object }
    /// The promise, when the value is a non-NULL GstPromise (to reply to from a handler).
    public var promise: Promise? { asValue?.promise }

    /// The value as a ``Value``, whatever its case, to read with Value's accessors; nil for `.void`,
    /// `.null` and `.other`.
    public var asValue: Value? {
        switch self {
        case .value(let value): value
        case .bool(let value): Value(value)
        case .int(let value), .enumeration(let value, _): Value(value)
        case .uint(let value): Value(value)
        case .double(let value): Value(value)
        case .string(let value): Value(value)
        case .property(let name): Value(name)
        case .element(let element): Value(element)
        case .pad(let pad): Value(pad)
        case .caps(let caps): Value(caps)
        case .buffer(let buffer): Value(buffer)
        case .sample(let sample): Value(sample)
        case .void, .null, .other: nil
        }
    }

    // MARK: GValue conversion (internal)

    /// Reads a GValue, taking references of its own to objects and boxed values.
    init(_ value: UnsafePointer<GValue>) {
        if let scalar = GScalar(reading: value) {
            self.init(scalar)
            return
        }
        let type = value.pointee.g_type
        switch g_type_fundamental(type) {
        case CGStreamerShim_type_none(): self = .void
        case CGStreamerShim_type_char(): self = .int(Int(g_value_get_schar(value)))
        case CGStreamerShim_type_uchar(): self = .uint(UInt(g_value_get_uchar(value)))
        case CGStreamerShim_type_param():
            self = g_value_get_param(value).map { .property(String(cString: $0.pointee.name)) } ?? .null
        case CGStreamerShim_type_object():
            guard let object = g_value_get_object(value) else {
                self = .null
                return
            }
            if g_type_is_a(type, gst_pad_get_type()) != 0 {
                self = .pad(Pad(object.assumingMemoryBound(to: GstPad.self), owned: false))
            } else if g_type_is_a(type, gst_element_get_type()) != 0 {
                self = .element(Element.wrap(object.assumingMemoryBound(to: GstElement.self), owned: false))
            } else {
                self = .value(Value(copying: value))
            }
        default:
            if type == CGStreamerShim_type_caps() {
                self =
                    gst_value_get_caps(value).map { .caps(Caps(borrowing: UnsafeMutablePointer(mutating: $0))) }
                    ?? .null
            } else if type == gst_buffer_get_type() {
                self =
                    g_value_get_boxed(value).map {
                        .buffer(Buffer(borrowing: $0.assumingMemoryBound(to: GstBuffer.self)))
                    }
                    ?? .null
            } else if type == gst_sample_get_type() {
                self =
                    g_value_get_boxed(value).map { .sample(Sample(taking: gst_sample_ref(OpaquePointer($0)))) } ?? .null
            } else if g_type_fundamental(type) == CGStreamerShim_type_boxed(), g_value_get_boxed(value) == nil {
                self = .null
            } else {
                self = .value(Value(copying: value))
            }
        }
    }

    /// The case for a plain value: any integer by its sign, flags as an enumeration without a nick.
    private init(_ scalar: GScalar) {
        switch scalar {
        case .bool(let flag): self = .bool(flag)
        case .signed(let number): self = .int(number)
        case .unsigned(let number): self = .uint(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .enumeration(let number, let nick): self = .enumeration(number, nick: nick)
        case .flags(let bits): self = .enumeration(Int(bits), nick: "")
        }
    }

    /// Stores the value into `target`, a GValue initialized to the type wanted; false when it does
    /// not fit that type.
    func write(into target: UnsafeMutablePointer<GValue>) -> Bool {
        let type = target.pointee.g_type
        switch self {
        case .void: return g_type_fundamental(type) == CGStreamerShim_type_none()
        case .null:
            switch g_type_fundamental(type) {
            case CGStreamerShim_type_object(): g_value_set_object(target, nil)
            case CGStreamerShim_type_boxed(): g_value_set_boxed(target, nil)
            case CGStreamerShim_type_string(): g_value_set_string(target, nil)
            default: return false
            }
            return true
        case .element(let element):
            guard g_type_is_a(CGStreamerShim_object_type(element.pointer), type) != 0 else { return false }
            g_value_set_object(target, element.pointer)
        case .pad(let pad):
            guard g_type_is_a(CGStreamerShim_object_type(pad.pointer), type) != 0 else { return false }
            g_value_set_object(target, pad.pointer)
        case .caps(let caps):
            guard type == CGStreamerShim_type_caps() else { return false }
            gst_value_set_caps(target, caps.pointer)
        case .buffer(let buffer):
            guard type == gst_buffer_get_type() else { return false }
            buffer.withPointer { g_value_set_boxed(target, $0) }
        case .sample(let sample):
            guard type == gst_sample_get_type() else { return false }
            g_value_set_boxed(target, UnsafeRawPointer(sample.pointer))
        case .bool(let value): return GScalar.bool(value).write(into: target)
        case .int(let value): return GScalar.signed(value).write(into: target)
        case .uint(let value): return GScalar.unsigned(value).write(into: target)
        case .double(let value): return GScalar.double(value).write(into: target)
        case .string(let value): return GScalar.string(value).write(into: target)
        case .enumeration(let value, let nick): return GScalar.enumeration(value, nick: nick).write(into: target)
        case .value(let value): return value.write(into: target)
        case .property, .other(_, _):
            guard case .other(_, let serialized?) = self else { return false }
            return gst_value_deserialize(target, serialized) != 0
        }
        return true
    }
}
