import CGStreamer
import CGStreamerShim

/// A GObject property value in Swift terms.
public enum PropertyValue: Sendable, Equatable, CustomStringConvertible {
    /// A `gboolean`.
    case bool(Bool)
    /// Any integer property (`gint`, `guint`, `gint64`, `guint64`, …), converted on setting. Reading gives
    /// this case for every integer an `Int` holds.
    case int(Int)
    /// An unsigned integer property's value above `Int.max` (a `guint64` such as `queue`'s
    /// `max-size-time` set to `G_MAXUINT64`), as reading gives it; setting takes any that fits the property.
    case uint(UInt)
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
        case .uint(let value): return String(value)
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

    /// The value as an unsigned integer, when it is one or a non-negative ``int(_:)``.
    public var uintValue: UInt? {
        switch self {
        case .uint(let value): return value
        case .int(let value): return UInt(exactly: value)
        default: return nil
        }
    }

    /// The value as a Double, when it is numeric.
    public var doubleValue: Double? {
        switch self {
        case .double(let value): return value
        case .int(let value): return Double(value)
        case .uint(let value): return Double(value)
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
extension UInt: PropertyValueConvertible {
    /// The value as ``PropertyValue/uint(_:)``.
    public var propertyValue: PropertyValue { .uint(self) }
}
extension Double: PropertyValueConvertible { public var propertyValue: PropertyValue { .double(self) } }
extension String: PropertyValueConvertible { public var propertyValue: PropertyValue { .string(self) } }
extension PropertyValue: PropertyValueConvertible { public var propertyValue: PropertyValue { self } }

// MARK: GValue conversion (internal)

extension PropertyValue {
    /// The case for a plain value; nil for flags, which a property shows as their nicks (`GValues.read`).
    init?(_ scalar: GScalar) {
        switch scalar {
        case .bool(let flag): self = .bool(flag)
        case .signed(let number): self = .int(number)
        // A guint64 above Int.max read back negative as .int.
        case .unsigned(let number): self = Int(exactly: number).map { .int($0) } ?? .uint(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .enumeration(let number, let nick): self = .enumeration(number, nick: nick)
        case .flags: return nil
        }
    }

    /// The value as a plain one, to store into a property of any plain type: caps and fractions by
    /// their string form.
    var scalar: GScalar {
        switch self {
        case .bool(let flag): .bool(flag)
        case .int(let number): .signed(number)
        case .uint(let number): .unsigned(number)
        case .double(let number): .double(number)
        case .string(let text), .caps(let text): .string(text)
        case .enumeration(let number, let nick): .enumeration(number, nick: nick)
        case .fraction: .string(description)
        }
    }
}

/// Properties' GValues, read and written as PropertyValues.
enum GValues {
    /// Reads a GValue of any type: plain types as themselves, fractions and caps as such, flags as
    /// their nicks joined by `+` (as gst-inspect-1.0 shows them and `set(_:fromString:)` takes them),
    /// anything else in GStreamer's serialization.
    static func read(_ value: UnsafePointer<GValue>) -> PropertyValue? {
        switch GScalar(reading: value) {
        case .flags(let bits):
            return .string(GScalar.serialize(flags: guint(truncatingIfNeeded: bits), type: value.pointee.g_type))
        case let scalar?:
            if let plain = PropertyValue(scalar) { return plain }
        case nil: break
        }
        let type = value.pointee.g_type
        if type == CGStreamerShim_type_fraction() {
            return .fraction(
                Int(gst_value_get_fraction_numerator(value)), Int(gst_value_get_fraction_denominator(value)))
        }
        if type == CGStreamerShim_type_caps() {
            guard let caps = gst_value_get_caps(value) else { return .caps(nil) }
            return .caps(Caps.string(of: caps))
        }
        return String(takingGString: gst_value_serialize(value)).map { .string($0) }
    }

    /// Stores `newValue` into a GValue already initialized to its target type. Returns false when the
    /// value does not fit that type.
    static func write(_ newValue: PropertyValue, into value: UnsafeMutablePointer<GValue>) -> Bool {
        switch (value.pointee.g_type, newValue) {
        case (CGStreamerShim_type_fraction(), .fraction(let numerator, let denominator)):
            // A GstFraction holds two gints: a part beyond them does not fit (gint() would trap).
            guard let numerator = gint(exactly: numerator), let denominator = gint(exactly: denominator) else {
                return false
            }
            gst_value_set_fraction(value, numerator, denominator)
            return true
        case (CGStreamerShim_type_caps(), .caps(nil)):
            gst_value_set_caps(value, nil)
            return true
        case (CGStreamerShim_type_caps(), .caps(let text?)):
            guard let caps = gst_caps_from_string(text) else { return false }
            gst_value_set_caps(value, caps)
            gst_caps_unref(caps)
            return true
        default:
            return newValue.scalar.write(into: value)
        }
    }
}
