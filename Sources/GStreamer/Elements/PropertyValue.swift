import CGStreamer
import CGStreamerShim

/// A GObject property value in Swift terms.
public enum PropertyValue: Sendable, Equatable, CustomStringConvertible {
    /// A `gboolean`.
    case bool(Bool)
    /// Any integer property (`gint`, `guint`, `gint64`, `guint64`, …), converted on setting.
    case int(Int)
    /// A `gdouble` or `gfloat`.
    case double(Double)
    /// A string; nil for NULL.
    case string(String?)
    /// A fraction such as a frame rate (GST_TYPE_FRACTION).
    case fraction(Int, Int)
    /// An enum value by number and nick (such as `pattern=snow`).
    case enumeration(Int, nick: String)
    /// Caps in their string form.
    case caps(String?)

    /// The value as `gst-inspect-1.0` would show it: `true`, `42`, `"text"`, `30/1`.
    public var description: String {
        switch self {
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return value.map { "\"\($0)\"" } ?? "NULL"
        case .fraction(let numerator, let denominator): return "\(numerator)/\(denominator)"
        case .enumeration(let value, let nick): return "\(value), \"\(nick)\""
        case .caps(let value): return value ?? "NULL"
        }
    }

    /// The value as an integer, when it is one (bool, int, enum).
    public var intValue: Int? {
        switch self {
        case .int(let value): return value
        case .enumeration(let value, _): return value
        case .bool(let value): return value ? 1 : 0
        default: return nil
        }
    }

    /// The value as a Double, when it is numeric.
    public var doubleValue: Double? {
        switch self {
        case .double(let value): return value
        case .int(let value): return Double(value)
        default: return nil
        }
    }

    /// The value as a Bool, when it is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The value as a String, when it is one (strings, caps and enum nicks).
    public var stringValue: String? {
        switch self {
        case .string(let value): return value
        case .caps(let value): return value
        case .enumeration(_, let nick): return nick
        default: return nil
        }
    }
}

/// Values that convert to a PropertyValue, for `element.set("name", 3)`.
public protocol PropertyValueConvertible: Sendable {
    /// The value as a property takes it: `Bool` as ``PropertyValue/bool(_:)``, `Int` as
    /// ``PropertyValue/int(_:)``, `Double` as ``PropertyValue/double(_:)``, `String` as
    /// ``PropertyValue/string(_:)``.
    var propertyValue: PropertyValue { get }
}

extension Bool: PropertyValueConvertible { public var propertyValue: PropertyValue { .bool(self) } }
extension Int: PropertyValueConvertible { public var propertyValue: PropertyValue { .int(self) } }
extension Double: PropertyValueConvertible { public var propertyValue: PropertyValue { .double(self) } }
extension String: PropertyValueConvertible { public var propertyValue: PropertyValue { .string(self) } }
extension PropertyValue: PropertyValueConvertible { public var propertyValue: PropertyValue { self } }

// MARK: GValue conversion (internal)

enum GValues {
    /// Reads a GValue of any common fundamental type.
    static func read(_ value: UnsafePointer<GValue>) -> PropertyValue? {
        let type = value.pointee.g_type
        let fundamental = g_type_fundamental(type)
        switch fundamental {
        case CGStreamerShim_type_boolean(): return .bool(g_value_get_boolean(value) != 0)
        case CGStreamerShim_type_int(): return .int(Int(g_value_get_int(value)))
        case CGStreamerShim_type_uint(): return .int(Int(g_value_get_uint(value)))
        case CGStreamerShim_type_long(): return .int(Int(g_value_get_long(value)))
        case CGStreamerShim_type_ulong(): return .int(Int(truncatingIfNeeded: g_value_get_ulong(value)))
        case CGStreamerShim_type_int64(): return .int(Int(g_value_get_int64(value)))
        case CGStreamerShim_type_uint64(): return .int(Int(truncatingIfNeeded: g_value_get_uint64(value)))
        case CGStreamerShim_type_double(): return .double(g_value_get_double(value))
        case CGStreamerShim_type_float(): return .double(Double(g_value_get_float(value)))
        case CGStreamerShim_type_string(): return .string(g_value_get_string(value).map { String(cString: $0) })
        case CGStreamerShim_type_enum():
            let number = g_value_get_enum(value)
            let klass = g_type_class_ref(type)
            defer { g_type_class_unref(klass) }
            let enumClass = klass?.assumingMemoryBound(to: GEnumClass.self)
            let nick = g_enum_get_value(enumClass, number)?.pointee.value_nick.map { String(cString: $0) } ?? ""
            return .enumeration(Int(number), nick: nick)
        default:
            if type == CGStreamerShim_type_fraction() {
                return .fraction(
                    Int(gst_value_get_fraction_numerator(value)), Int(gst_value_get_fraction_denominator(value)))
            }
            if type == CGStreamerShim_type_caps() {
                guard let caps = gst_value_get_caps(value) else { return .caps(nil) }
                return .caps(Caps.string(of: caps))
            }
            // Anything else: GStreamer's own serialization.
            guard let text = gst_value_serialize(value) else { return nil }
            defer { g_free(text) }
            return .string(String(cString: text))
        }
    }

    /// Stores `newValue` into a GValue already initialized to its target type. Returns false when the
    /// value does not fit that type.
    static func write(_ newValue: PropertyValue, into value: UnsafeMutablePointer<GValue>) -> Bool {
        let type = value.pointee.g_type
        let fundamental = g_type_fundamental(type)
        switch (fundamental, newValue) {
        case (CGStreamerShim_type_boolean(), .bool(let flag)): g_value_set_boolean(value, flag ? 1 : 0)
        case (CGStreamerShim_type_int(), _):
            guard let number = newValue.intValue, let narrow = Int32(exactly: number) else { return false }
            g_value_set_int(value, narrow)
        case (CGStreamerShim_type_uint(), _):
            guard let number = newValue.intValue, let narrow = UInt32(exactly: number) else { return false }
            g_value_set_uint(value, narrow)
        case (CGStreamerShim_type_long(), _):
            guard let number = newValue.intValue else { return false }
            g_value_set_long(value, number)
        case (CGStreamerShim_type_ulong(), _):
            guard let number = newValue.intValue, let narrow = UInt(exactly: number) else { return false }
            g_value_set_ulong(value, narrow)
        case (CGStreamerShim_type_int64(), _):
            guard let number = newValue.intValue else { return false }
            g_value_set_int64(value, gint64(number))
        case (CGStreamerShim_type_uint64(), _):
            guard let number = newValue.intValue, let narrow = guint64(exactly: number) else { return false }
            g_value_set_uint64(value, narrow)
        case (CGStreamerShim_type_double(), _):
            guard let number = newValue.doubleValue else { return false }
            g_value_set_double(value, number)
        case (CGStreamerShim_type_float(), _):
            guard let number = newValue.doubleValue else { return false }
            g_value_set_float(value, Float(number))
        case (CGStreamerShim_type_string(), .string(let text)): g_value_set_string(value, text)
        case (CGStreamerShim_type_enum(), .enumeration(let number, _)): g_value_set_enum(value, gint(number))
        case (CGStreamerShim_type_enum(), .int(let number)): g_value_set_enum(value, gint(number))
        default:
            if type == CGStreamerShim_type_fraction(), case .fraction(let numerator, let denominator) = newValue {
                gst_value_set_fraction(value, gint(numerator), gint(denominator))
                return true
            }
            if type == CGStreamerShim_type_caps(), case .caps(let text) = newValue {
                guard let text else {
                    gst_value_set_caps(value, nil)
                    return true
                }
                guard let caps = gst_caps_from_string(text) else { return false }
                gst_value_set_caps(value, caps)
                gst_caps_unref(caps)
                return true
            }
            // Anything else: let GStreamer parse the string form.
            guard let text = newValue.stringValue ?? Optional(newValue.description) else { return false }
            return gst_value_deserialize(value, text) != 0
        }
        return true
    }
}
