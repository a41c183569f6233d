import CGStreamer
import CGStreamerShim

// The one path between GValues of GLib's plain types (booleans, integers of every width, floating
// point, strings, enums, flags) and Swift. A structure field (FieldValue), a property (PropertyValue)
// and a signal argument (SignalValue) each map their cases onto a `GScalar` and keep only what is
// their own (fractions, caps, structures and lists; objects and boxed values), so a GLib type reads
// and writes the same way wherever it stands.

/// The value of a GValue of one of GLib's plain fundamental types, whatever its width.
enum GScalar: Equatable {
    /// `gboolean`.
    case bool(Bool)
    /// `gint`, `glong` or `gint64`.
    case signed(Int)
    /// `guint`, `gulong` or `guint64`.
    case unsigned(UInt)
    /// `gdouble` or `gfloat`.
    case double(Double)
    /// `gchararray`; nil for NULL.
    case string(String?)
    /// An enum value: its number and nick.
    case enumeration(Int, nick: String)
    /// A flags value's bits.
    case flags(UInt)

    /// Reads `value` when its fundamental type is a plain one; nil for any other type.
    init?(reading value: UnsafePointer<GValue>) {
        switch g_type_fundamental(value.pointee.g_type) {
        case CGStreamerShim_type_boolean(): self = .bool(g_value_get_boolean(value) != 0)
        case CGStreamerShim_type_int(): self = .signed(Int(g_value_get_int(value)))
        case CGStreamerShim_type_long(): self = .signed(g_value_get_long(value))
        case CGStreamerShim_type_int64(): self = .signed(Int(g_value_get_int64(value)))
        case CGStreamerShim_type_uint(): self = .unsigned(UInt(g_value_get_uint(value)))
        case CGStreamerShim_type_ulong(): self = .unsigned(g_value_get_ulong(value))
        case CGStreamerShim_type_uint64(): self = .unsigned(UInt(g_value_get_uint64(value)))
        case CGStreamerShim_type_double(): self = .double(g_value_get_double(value))
        case CGStreamerShim_type_float(): self = .double(Double(g_value_get_float(value)))
        case CGStreamerShim_type_string(): self = .string(g_value_get_string(value).map { String(cString: $0) })
        case CGStreamerShim_type_enum():
            let number = g_value_get_enum(value)
            let enumClass = g_type_class_ref(value.pointee.g_type)
            defer { g_type_class_unref(enumClass) }
            let entry = g_enum_get_value(enumClass?.assumingMemoryBound(to: GEnumClass.self), number)
            self = .enumeration(Int(number), nick: entry?.pointee.value_nick.map { String(cString: $0) } ?? "")
        case CGStreamerShim_type_flags(): self = .flags(UInt(g_value_get_flags(value)))
        default: return nil
        }
    }

    /// Stores the scalar into `value`, a GValue already initialized to the type wanted; a number goes
    /// into any numeric type it fits. False, with nothing stored, when it does not fit; for a type of
    /// another kind, GStreamer parses the scalar's string form (`gst_value_deserialize`).
    func write(into value: UnsafeMutablePointer<GValue>) -> Bool {
        store(into: value) ?? (gst_value_deserialize(value, text) != 0)
    }

    /// `write` without the string form: nil when `value`'s type takes no such scalar directly.
    private func store(into value: UnsafeMutablePointer<GValue>) -> Bool? {
        switch (g_type_fundamental(value.pointee.g_type), self) {
        case (CGStreamerShim_type_boolean(), .bool(let flag)): g_value_set_boolean(value, flag ? 1 : 0)
        // Integers by width, signed then unsigned; each takes any number that fits.
        case (CGStreamerShim_type_int(), _):
            return put(integer.flatMap { Int32(exactly: $0) }) { g_value_set_int(value, $0) }
        case (CGStreamerShim_type_uint(), _):
            return put(natural.flatMap { UInt32(exactly: $0) }) { g_value_set_uint(value, $0) }
        case (CGStreamerShim_type_long(), _): return put(integer) { g_value_set_long(value, $0) }
        case (CGStreamerShim_type_ulong(), _): return put(natural) { g_value_set_ulong(value, $0) }
        case (CGStreamerShim_type_int64(), _): return put(integer.map { gint64($0) }) { g_value_set_int64(value, $0) }
        case (CGStreamerShim_type_uint64(), _):
            return put(natural.map { guint64($0) }) { g_value_set_uint64(value, $0) }
        case (CGStreamerShim_type_double(), _): return put(real) { g_value_set_double(value, $0) }
        case (CGStreamerShim_type_float(), _): return put(real.map { Float($0) }) { g_value_set_float(value, $0) }
        case (CGStreamerShim_type_string(), .string(let text)): g_value_set_string(value, text)
        case (CGStreamerShim_type_enum(), .enumeration(let number, _)),
            (CGStreamerShim_type_enum(), .signed(let number)):
            // A number the enum lacks is refused here: GLib would warn and keep the old value, and one
            // beyond gint would trap on conversion.
            guard let number = gint(exactly: number), GScalar.isValue(number, ofEnum: value.pointee.g_type) else {
                return false
            }
            g_value_set_enum(value, number)
        case (CGStreamerShim_type_flags(), .flags(let bits)):
            return put(GScalar.flags(bits, of: value.pointee.g_type)) { g_value_set_flags(value, $0) }
        case (CGStreamerShim_type_flags(), .enumeration(let number, _)):
            return put(UInt(exactly: number).flatMap { GScalar.flags($0, of: value.pointee.g_type) }) {
                g_value_set_flags(value, $0)
            }
        default: return nil
        }
        return true
    }

    /// True when `number` is one of the values of the enum type `type`.
    private static func isValue(_ number: gint, ofEnum type: GType) -> Bool {
        let enumClass = g_type_class_ref(type)
        defer { g_type_class_unref(enumClass) }
        return g_enum_get_value(enumClass?.assumingMemoryBound(to: GEnumClass.self), number) != nil
    }

    /// `bits` as a value of the flags type `type`; nil when it has bits the type does not define.
    private static func flags(_ bits: UInt, of type: GType) -> guint? {
        guard let bits = guint(exactly: bits) else { return nil }
        let flagsClass = g_type_class_ref(type)
        defer { g_type_class_unref(flagsClass) }
        guard let mask = flagsClass?.assumingMemoryBound(to: GFlagsClass.self).pointee.mask else { return nil }
        return bits & ~mask == 0 ? bits : nil
    }

    private func put<Number>(_ number: Number?, _ set: (Number) -> Void) -> Bool {
        guard let number else { return false }
        set(number)
        return true
    }

    /// The scalar as a signed integer: any integer that fits, an enum's number, a boolean as 1 or 0.
    private var integer: Int? {
        switch self {
        case .signed(let number), .enumeration(let number, _): number
        case .unsigned(let number): Int(exactly: number)
        case .bool(let flag): flag ? 1 : 0
        case .double, .string, .flags: nil
        }
    }

    /// The scalar as an unsigned integer, when it is one or a non-negative `integer`.
    private var natural: UInt? {
        if case .unsigned(let number) = self { return number }
        return integer.flatMap { UInt(exactly: $0) }
    }

    /// The scalar as a floating-point number: a double, or an integer.
    private var real: Double? {
        switch self {
        case .double(let number): number
        case .signed(let number): Double(number)
        case .unsigned(let number): Double(number)
        case .bool, .string, .enumeration, .flags: nil
        }
    }

    /// The string form `write` hands GStreamer for a type of another kind: a string as it is (NULL
    /// for nil), an enum's nick, a number or boolean as Swift writes it.
    private var text: String {
        switch self {
        case .bool(let flag): flag ? "true" : "false"
        case .signed(let number): String(number)
        case .unsigned(let number), .flags(let number): String(number)
        case .double(let number): String(number)
        case .string(let string): string ?? "NULL"
        case .enumeration(_, let nick): nick
        }
    }
}
