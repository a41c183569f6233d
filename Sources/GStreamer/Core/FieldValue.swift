import CGStreamer
import CGStreamerShim

/// A fraction, such as a frame rate of 30000/1001 (GST_TYPE_FRACTION).
public struct Fraction: Sendable, Hashable, CustomStringConvertible {
    /// The numerator (a frame rate's frames).
    public var numerator: Int
    /// The denominator (a frame rate's seconds); 0 makes the fraction undefined.
    public var denominator: Int

    /// `numerator/denominator`, as given (not reduced).
    ///
    /// - Parameters:
    ///   - numerator: The numerator.
    ///   - denominator: The denominator, normally positive.
    public init(_ numerator: Int, _ denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The fraction as a number (`nil` for a zero denominator).
    public var doubleValue: Double? { denominator == 0 ? nil : Double(numerator) / Double(denominator) }

    /// `numerator/denominator`, as GStreamer writes a fraction.
    public var description: String { "\(numerator)/\(denominator)" }
}

/// The value of a structure field or of a tag: one of the GValue types GStreamer puts there.
///
/// Integers keep GLib's types apart because caps fields are matched by type (`width` is a `gint`, a
/// buffer offset a `guint64`): `.int` is written as `gint` (`G_TYPE_INT`) and `.uint` as `guint`, or as
/// their 64-bit types when the value does not fit. Any other type (enums, flags, ranges, dates, samples)
/// reads as `.other`, with GStreamer's own serialization. A GValueArray reads as `.array`.
public enum FieldValue: Sendable, Equatable, CustomStringConvertible {
    /// `gint` (`G_TYPE_INT`); written as `gint64` when the value does not fit.
    case int(Int)
    /// `guint` (`G_TYPE_UINT`); written as `guint64` when the value does not fit.
    case uint(UInt)
    /// `gint64` (also read from `glong`).
    case int64(Int64)
    /// `guint64` (also read from `gulong`): GstClockTime fields are these.
    case uint64(UInt64)
    /// `gdouble`.
    case double(Double)
    /// `gfloat`.
    case float(Float)
    /// `gboolean`.
    case bool(Bool)
    /// A string (`gchararray`).
    case string(String)
    /// GST_TYPE_FRACTION.
    case fraction(Fraction)
    /// A nested GstStructure.
    case structure(Structure)
    /// GstCaps.
    case caps(Caps)
    /// A list of choices (GST_TYPE_LIST, `{ a, b }` in the string form).
    case list([FieldValue])
    /// An ordered array (GST_TYPE_ARRAY, `< a, b >` in the string form).
    case array([FieldValue])
    /// Any other type, by its GType name ("GstIntRange", "GDate", ...) and GStreamer's serialization
    /// of the value. Writing it parses `serialized` as that type (`gst_value_deserialize`).
    case other(type: String, serialized: String)

    /// GStreamer's serialization of the value, as it appears in a structure's string form.
    ///
    /// The corresponding C function is `gst_value_serialize`.
    public var description: String {
        // Already GStreamer's serialization; reading it back would fail for some types (GStreamer
        // 1.22 cannot deserialize a GstIntRange, and warns "unimplemented").
        if case .other(_, let serialized) = self { return serialized }
        var gvalue = GValue()
        guard write(into: &gvalue) else { return "" }
        defer { g_value_unset(&gvalue) }
        guard let text = gst_value_serialize(&gvalue) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// The value as an integer, when it is an integer of any width that fits `Int`.
    public var intValue: Int? {
        switch self {
        case .int(let value): value
        case .uint(let value): Int(exactly: value)
        case .int64(let value): Int(exactly: value)
        case .uint64(let value): Int(exactly: value)
        default: nil
        }
    }

    /// The value as an unsigned integer, when it is a non-negative integer of any width.
    public var uintValue: UInt? {
        switch self {
        case .int(let value): UInt(exactly: value)
        case .uint(let value): value
        case .int64(let value): UInt(exactly: value)
        case .uint64(let value): UInt(exactly: value)
        default: nil
        }
    }

    /// The value as a Double, when it is a double or a float.
    public var doubleValue: Double? {
        switch self {
        case .double(let value): value
        case .float(let value): Double(value)
        default: nil
        }
    }

    /// The value as a String, when it is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}

/// Values that convert to a FieldValue, for `structure.set("width", 320)` and `tags.set(...)`.
public protocol FieldValueConvertible: Sendable {
    /// The value as a structure field or tag holds it, in the GType matching the Swift type (`Int` as
    /// `gint`, `Int64` as `gint64`, `UInt64` as `guint64`, `Double` as `gdouble`, …).
    var fieldValue: FieldValue { get }
}

extension Int: FieldValueConvertible { public var fieldValue: FieldValue { .int(self) } }
extension UInt: FieldValueConvertible { public var fieldValue: FieldValue { .uint(self) } }
extension Int32: FieldValueConvertible { public var fieldValue: FieldValue { .int(Int(self)) } }
extension UInt32: FieldValueConvertible { public var fieldValue: FieldValue { .uint(UInt(self)) } }
extension Int64: FieldValueConvertible { public var fieldValue: FieldValue { .int64(self) } }
/// Also `ClockTime`, which GStreamer stores as a `guint64`.
extension UInt64: FieldValueConvertible { public var fieldValue: FieldValue { .uint64(self) } }
extension Double: FieldValueConvertible { public var fieldValue: FieldValue { .double(self) } }
extension Float: FieldValueConvertible { public var fieldValue: FieldValue { .float(self) } }
extension Bool: FieldValueConvertible { public var fieldValue: FieldValue { .bool(self) } }
extension String: FieldValueConvertible { public var fieldValue: FieldValue { .string(self) } }
extension Fraction: FieldValueConvertible { public var fieldValue: FieldValue { .fraction(self) } }
extension Caps: FieldValueConvertible { public var fieldValue: FieldValue { .caps(self) } }
extension FieldValue: FieldValueConvertible { public var fieldValue: FieldValue { self } }

// MARK: GValue conversion (internal)

extension FieldValue {
    /// Reads any GValue; types without a case of their own become `.other`.
    init(reading value: UnsafePointer<GValue>) {
        let type = value.pointee.g_type
        switch type {
        case CGStreamerShim_type_int(): self = .int(Int(g_value_get_int(value)))
        case CGStreamerShim_type_uint(): self = .uint(UInt(g_value_get_uint(value)))
        case CGStreamerShim_type_int64(): self = .int64(Int64(g_value_get_int64(value)))
        case CGStreamerShim_type_uint64(): self = .uint64(UInt64(g_value_get_uint64(value)))
        case CGStreamerShim_type_long(): self = .int64(Int64(g_value_get_long(value)))
        case CGStreamerShim_type_ulong(): self = .uint64(UInt64(g_value_get_ulong(value)))
        case CGStreamerShim_type_double(): self = .double(g_value_get_double(value))
        case CGStreamerShim_type_float(): self = .float(g_value_get_float(value))
        case CGStreamerShim_type_boolean(): self = .bool(g_value_get_boolean(value) != 0)
        case CGStreamerShim_type_string() where g_value_get_string(value) != nil:
            self = .string(String(cString: g_value_get_string(value)))
        case CGStreamerShim_type_fraction():
            self = .fraction(
                Fraction(
                    Int(gst_value_get_fraction_numerator(value)), Int(gst_value_get_fraction_denominator(value))))
        case gst_structure_get_type() where gst_value_get_structure(value) != nil:
            self = .structure(Structure(copying: gst_value_get_structure(value)))
        case CGStreamerShim_type_caps() where gst_value_get_caps(value) != nil:
            self = .caps(Caps(borrowing: UnsafeMutablePointer(mutating: gst_value_get_caps(value)!)))
        case gst_value_list_get_type():
            self = .list((0..<gst_value_list_get_size(value)).map { FieldValue(reading: gst_value_list_get_value(value, $0)) })
        case gst_value_array_get_type():
            self = .array(
                (0..<gst_value_array_get_size(value)).map { FieldValue(reading: gst_value_array_get_value(value, $0)) })
        // GValueArray (level's rms, peak and decay), looked up by name as g_value_array_get_type is
        // deprecated: read as an array, written back as GST_TYPE_ARRAY.
        case g_type_from_name("GValueArray") where g_value_get_boxed(value) != nil:
            let array = g_value_get_boxed(value)!.assumingMemoryBound(to: GValueArray.self).pointee
            self = .array((0..<Int(array.n_values)).map { FieldValue(reading: array.values + $0) })
        default:
            let name = g_type_name(type).map { String(cString: $0) } ?? "?"
            let text = gst_value_serialize(value)
            defer { g_free(text) }
            self = .other(type: name, serialized: text.map { String(cString: $0) } ?? "NULL")
        }
    }

    /// Initializes `value` (zero-filled, unset) with this value's type and stores it; the caller unsets
    /// it. False, with `value` left unset, when an `.other` value does not parse as its type.
    func write(into value: UnsafeMutablePointer<GValue>) -> Bool {
        switch self {
        case .int(let number):
            if let narrow = Int32(exactly: number) {
                g_value_init(value, CGStreamerShim_type_int())
                g_value_set_int(value, narrow)
            } else {
                g_value_init(value, CGStreamerShim_type_int64())
                g_value_set_int64(value, gint64(number))
            }
        case .uint(let number):
            if let narrow = UInt32(exactly: number) {
                g_value_init(value, CGStreamerShim_type_uint())
                g_value_set_uint(value, narrow)
            } else {
                g_value_init(value, CGStreamerShim_type_uint64())
                g_value_set_uint64(value, guint64(number))
            }
        case .int64(let number):
            g_value_init(value, CGStreamerShim_type_int64())
            g_value_set_int64(value, gint64(number))
        case .uint64(let number):
            g_value_init(value, CGStreamerShim_type_uint64())
            g_value_set_uint64(value, guint64(number))
        case .double(let number):
            g_value_init(value, CGStreamerShim_type_double())
            g_value_set_double(value, number)
        case .float(let number):
            g_value_init(value, CGStreamerShim_type_float())
            g_value_set_float(value, number)
        case .bool(let flag):
            g_value_init(value, CGStreamerShim_type_boolean())
            g_value_set_boolean(value, flag ? 1 : 0)
        case .string(let text):
            g_value_init(value, CGStreamerShim_type_string())
            g_value_set_string(value, text)
        case .fraction(let fraction):
            g_value_init(value, CGStreamerShim_type_fraction())
            gst_value_set_fraction(value, gint(clamping: fraction.numerator), gint(clamping: fraction.denominator))
        case .structure(let structure):
            g_value_init(value, gst_structure_get_type())
            structure.withUnsafeGstStructure { gst_value_set_structure(value, $0) }
        case .caps(let caps):
            g_value_init(value, CGStreamerShim_type_caps())
            gst_value_set_caps(value, caps.pointer)
        case .list(let items), .array(let items):
            let isList = if case .list = self { true } else { false }
            g_value_init(value, isList ? gst_value_list_get_type() : gst_value_array_get_type())
            for item in items {
                var element = GValue()
                guard item.write(into: &element) else { continue }
                if isList {
                    gst_value_list_append_and_take_value(value, &element)
                } else {
                    gst_value_array_append_and_take_value(value, &element)
                }
            }
        case .other(let typeName, let serialized):
            let type = g_type_from_name(typeName)
            guard type != 0 else { return false }
            g_value_init(value, type)
            guard gst_value_deserialize(value, serialized) != 0 else {
                g_value_unset(value)
                return false
            }
        }
        return true
    }
}
