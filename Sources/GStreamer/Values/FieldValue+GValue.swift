import CGStreamer
import CGStreamerShim

// A structure field's or a tag's GValue as a FieldValue and back. GLib's plain types go through
// `GScalar`, with the GType picking the width FieldValue keeps apart; what is GStreamer's own
// (fractions, structures, caps, lists, arrays) is read and written here.

extension FieldValue {
    /// Reads any GValue; types without a case of their own become `.other`.
    init(reading value: UnsafePointer<GValue>) {
        let type = value.pointee.g_type
        if let scalar = GScalar(reading: value), let plain = FieldValue(scalar, type: type) {
            self = plain
            return
        }
        switch type {
        case CGStreamerShim_type_fraction():
            self = .fraction(
                Fraction(Int(gst_value_get_fraction_numerator(value)), Int(gst_value_get_fraction_denominator(value))))
        case gst_structure_get_type() where gst_value_get_structure(value) != nil:
            self = .structure(Structure(copying: gst_value_get_structure(value)))
        case CGStreamerShim_type_caps() where gst_value_get_caps(value) != nil:
            self = .caps(Caps(borrowing: UnsafeMutablePointer(mutating: gst_value_get_caps(value)!)))
        case gst_value_list_get_type():
            self = .list(
                (0..<gst_value_list_get_size(value)).map { FieldValue(reading: gst_value_list_get_value(value, $0)) })
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
            self = .other(type: name, serialized: String(takingGString: gst_value_serialize(value)) ?? "NULL")
        }
    }

    /// The case for a plain value of GType `type`: nil for what FieldValue reads as `.other` (enums,
    /// flags, a NULL string).
    private init?(_ scalar: GScalar, type: GType) {
        switch scalar {
        case .bool(let flag): self = .bool(flag)
        case .signed(let number): self = type == CGStreamerShim_type_int() ? .int(number) : .int64(Int64(number))
        case .unsigned(let number): self = type == CGStreamerShim_type_uint() ? .uint(number) : .uint64(UInt64(number))
        case .double(let number): self = type == CGStreamerShim_type_float() ? .float(Float(number)) : .double(number)
        case .string(let text?): self = .string(text)
        case .string(nil), .enumeration, .flags: return nil
        }
    }

    /// The GType a plain value is written as, and the value: `.int` and `.uint` as `gint` and `guint`
    /// when they fit, else their 64-bit types. Nil for GStreamer's own types.
    private var plain: (type: GType, scalar: GScalar)? {
        switch self {
        case .int(let number):
            let type = Int32(exactly: number) == nil ? CGStreamerShim_type_int64() : CGStreamerShim_type_int()
            return (type, .signed(number))
        case .uint(let number):
            let type = UInt32(exactly: number) == nil ? CGStreamerShim_type_uint64() : CGStreamerShim_type_uint()
            return (type, .unsigned(number))
        case .int64(let number): return (CGStreamerShim_type_int64(), .signed(Int(number)))
        case .uint64(let number): return (CGStreamerShim_type_uint64(), .unsigned(UInt(number)))
        case .double(let number): return (CGStreamerShim_type_double(), .double(number))
        case .float(let number): return (CGStreamerShim_type_float(), .double(Double(number)))
        case .bool(let flag): return (CGStreamerShim_type_boolean(), .bool(flag))
        case .string(let text): return (CGStreamerShim_type_string(), .string(text))
        case .fraction, .structure, .caps, .list, .array, .other: return nil
        }
    }

    /// Initializes `value` (zero-filled, unset) with this value's type and stores it; the caller unsets
    /// it. False, with `value` left unset, when an `.other` value does not parse as its type.
    func write(into value: UnsafeMutablePointer<GValue>) -> Bool {
        switch self {
        case .int, .uint, .int64, .uint64, .double, .float, .bool, .string:
            guard let plain else { return false }
            g_value_init(value, plain.type)
            guard plain.scalar.write(into: value) else {
                g_value_unset(value)
                return false
            }
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
