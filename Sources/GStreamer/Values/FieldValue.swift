import CGStreamer
import CGStreamerShim

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
        return String(takingGString: gst_value_serialize(&gvalue)) ?? ""
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
