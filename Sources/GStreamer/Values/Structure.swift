import CGStreamer
import CGStreamerShim

/// A GstStructure as a Swift value: a name and typed fields, such as
/// `level, endtime=(guint64)100000000, rms=(double)< -20.0, -20.0 >`. What element messages,
/// application messages and each structure of caps carry.
///
/// Each value owns its own GstStructure (copy on write), so it is a true value and safe to send.
public struct Structure: Sendable, Equatable, CustomStringConvertible, Sequence {
    // Owns one GstStructure, copied before a write while another value shares it: never mutated
    // while shared, so sharing it across threads is safe.
    private var storage: CopyOnWrite<GstStructure>

    init(taking pointer: UnsafeMutablePointer<GstStructure>) { storage = CopyOnWrite(taking: pointer) }
    init(copying pointer: UnsafePointer<GstStructure>) { storage = CopyOnWrite(taking: GstStructure.copy(pointer)) }

    /// An empty structure named `name` (a media type such as "video/x-raw", or an application's name
    /// for its message), with `fields` in order.
    ///
    /// The corresponding C functions are `gst_structure_new_empty` and `gst_structure_set_value`.
    ///
    /// - Parameters:
    ///   - name: The structure's name: a letter, then letters, digits and `/-_.:+` (GStreamer's rule).
    ///   - fields: Field names and values, set in this order.
    /// - Throws: ``GStreamerError`` (invalid argument) for a name GStreamer refuses, such as `"1 bad name"`,
    ///   or when GStreamer cannot be initialized.
    public init(name: String, fields: KeyValuePairs<String, any FieldValueConvertible> = [:]) throws(GStreamerError) {
        try GStreamer.initialize()
        // gst_structure_new_empty logs a critical warning and returns NULL for such a name: checked first.
        guard Self.isValidName(name), let pointer = gst_structure_new_empty(name) else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "\"\(name)\" is not a structure name: start with a letter, then letters, digits or /-_.:+")
        }
        storage = CopyOnWrite(taking: pointer)
        for (field, value) in fields { set(field, value.fieldValue) }
    }

    /// GStreamer's rule for structure names (gst_structure_validate_name): a letter first, then
    /// letters, digits and the characters `/-_.:+`.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        let punctuation = "/-_.:+".unicodeScalars
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || punctuation.contains(scalar))
        }
    }

    /// Parses a structure from its string form, such as `"application/x-mine, count=(int)3"`.
    ///
    /// The corresponding C function is `gst_structure_from_string`.
    ///
    /// - Parameter string: The structure in GStreamer's serialization: a name, then comma-separated
    ///   `field=(type)value` pairs.
    /// - Throws: ``GStreamerError`` (invalid argument) when `string` does not parse, or GStreamer cannot be
    ///   initialized.
    public init(_ string: String) throws(GStreamerError) {
        try GStreamer.initialize()
        guard let pointer = gst_structure_from_string(string, nil) else {
            throw GStreamerError(kind: .invalidArgument, message: "could not parse structure \"\(string)\"")
        }
        storage = CopyOnWrite(taking: pointer)
    }

    private var pointer: UnsafeMutablePointer<GstStructure> { storage.pointer }
    mutating func writablePointer() -> UnsafeMutablePointer<GstStructure> { storage.writablePointer() }

    /// Calls `body` with the GstStructure, for C interop; it must not be kept or changed.
    ///
    /// - Parameter body: Reads the GstStructure; the pointer is valid only until it returns.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withUnsafeGstStructure<Result>(_ body: (UnsafePointer<GstStructure>) throws -> Result) rethrows
        -> Result
    {
        try body(pointer)
    }

    /// The structure's name, such as "video/x-raw" or "level".
    ///
    /// The corresponding C functions are `gst_structure_get_name` and `gst_structure_set_name`.
    public var name: String {
        get { String(cString: gst_structure_get_name(pointer)) }
        set { gst_structure_set_name(writablePointer(), newValue) }
    }

    /// True when the structure is named `name`.
    ///
    /// The corresponding C function is `gst_structure_has_name`.
    ///
    /// - Parameter name: The name to compare with, such as "video/x-raw".
    /// - Returns: Whether the names are equal.
    public func hasName(_ name: String) -> Bool { gst_structure_has_name(pointer, name) != 0 }

    /// The string form, which `init(_:)` parses back.
    ///
    /// The corresponding C function is `gst_structure_to_string`.
    public var description: String { String(takingGString: gst_structure_to_string(pointer)) ?? "" }

    /// Same name and the same fields with the same values, in any order.
    ///
    /// The corresponding C function is `gst_structure_is_equal`.
    ///
    /// - Parameters:
    ///   - lhs: A structure.
    ///   - rhs: Another structure.
    /// - Returns: Whether the two have the same name and fields.
    public static func == (lhs: Structure, rhs: Structure) -> Bool {
        lhs.storage.isIdentical(to: rhs.storage) || gst_structure_is_equal(lhs.pointer, rhs.pointer) != 0
    }

    // MARK: Fields

    /// The number of fields.
    ///
    /// The corresponding C function is `gst_structure_n_fields`.
    public var count: Int { Int(gst_structure_n_fields(pointer)) }

    /// The field names, in order.
    ///
    /// The corresponding C function is `gst_structure_nth_field_name`.
    public var fieldNames: [String] {
        (0..<gst_structure_n_fields(pointer)).map { String(cString: gst_structure_nth_field_name(pointer, guint($0))) }
    }

    /// True when the structure has a field of this name.
    ///
    /// The corresponding C function is `gst_structure_has_field`.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: Whether the field is there, whatever its type.
    public func hasField(_ field: String) -> Bool { gst_structure_has_field(pointer, field) != 0 }

    /// The fields in order, as `(name, value)` pairs: `for (name, value) in structure { ... }`.
    ///
    /// - Returns: An iterator over a snapshot of the fields: changing the structure while iterating does not
    ///   change what it gives.
    public func makeIterator() -> IndexingIterator<[(name: String, value: FieldValue)]> {
        fieldNames.map { ($0, self[$0]!) }.makeIterator()
    }

    /// A field's value, of any type; nil when there is no such field. Setting nil removes the field.
    ///
    /// The corresponding C functions are `gst_structure_get_value`, `gst_structure_set_value` and
    /// `gst_structure_remove_field`.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: The value, or nil when there is no such field.
    public subscript(field: String) -> FieldValue? {
        get { gst_structure_get_value(pointer, field).map { FieldValue(reading: $0) } }
        set {
            if let newValue {
                set(field, newValue)
            } else {
                removeField(field)
            }
        }
    }

    /// Sets a field, replacing any value it had: `structure.set("width", 320)`. An `.other` value that does
    /// not parse as its type removes the field instead.
    ///
    /// The corresponding C function is `gst_structure_take_value`.
    ///
    /// - Parameters:
    ///   - field: The field's name.
    ///   - value: The value: a Swift number, string, ``Fraction``, ``Caps``, ``Structure`` or ``FieldValue``.
    public mutating func set(_ field: String, _ value: some FieldValueConvertible) {
        var gvalue = GValue()
        guard value.fieldValue.write(into: &gvalue) else {
            removeField(field)
            return
        }
        gst_structure_take_value(writablePointer(), field, &gvalue)
    }

    /// Removes a field (nothing happens when there is none).
    ///
    /// The corresponding C function is `gst_structure_remove_field`.
    ///
    /// - Parameter field: The field's name.
    public mutating func removeField(_ field: String) {
        guard hasField(field) else { return }
        gst_structure_remove_field(writablePointer(), field)
    }

    // MARK: Typed access

    /// An integer field of any width (`gint`, `guint`, `gint64`, `guint64`) whose value fits `Int`.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: The value, or nil when there is no such field, it is not an integer or it does not fit.
    public func int(_ field: String) -> Int? { self[field]?.intValue }

    /// A non-negative integer field of any width.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: The value, or nil when there is no such field, it is not an integer or it is negative.
    public func uint(_ field: String) -> UInt? { self[field]?.uintValue }

    /// An integer field of any width whose value fits `Int64`.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: The value, or nil when there is no such field, it is not an integer or it does not fit.
    public func int64(_ field: String) -> Int64? { self[field]?.intValue.map { Int64($0) } }

    /// A non-negative integer field of any width, as `UInt64`.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: The value, or nil when there is no such field, it is not an integer or it is negative.
    public func uint64(_ field: String) -> UInt64? { self[field]?.uintValue.map { UInt64($0) } }

    /// A `double` or `float` field.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: The value, or nil when there is no such field or it is not a floating-point number.
    public func double(_ field: String) -> Double? { self[field]?.doubleValue }

    /// A boolean field.
    ///
    /// The corresponding C function is `gst_structure_get_boolean`.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: The value, or nil when there is no such field or it is not a boolean.
    public func bool(_ field: String) -> Bool? {
        var value: gboolean = 0
        guard gst_structure_get_boolean(pointer, field, &value) != 0 else { return nil }
        return value != 0
    }

    /// A string field.
    ///
    /// The corresponding C function is `gst_structure_get_string`.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: The value, or nil when there is no such field or it is not a string.
    public func string(_ field: String) -> String? {
        gst_structure_get_string(pointer, field).map { String(cString: $0) }
    }

    /// A fraction field, such as `framerate`.
    ///
    /// The corresponding C function is `gst_structure_get_fraction`.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: The value, or nil when there is no such field or it is not a fraction.
    public func fraction(_ field: String) -> Fraction? {
        var numerator: gint = 0
        var denominator: gint = 1
        guard gst_structure_get_fraction(pointer, field, &numerator, &denominator) != 0 else { return nil }
        return Fraction(Int(numerator), Int(denominator))
    }

    /// A nested structure field.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: The nested structure, or nil when there is no such field or it is not a structure.
    public func structure(_ field: String) -> Structure? {
        if case .structure(let value)? = self[field] { return value }
        return nil
    }

    /// A caps field.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: The caps, or nil when there is no such field or it does not hold caps.
    public func caps(_ field: String) -> Caps? {
        if case .caps(let value)? = self[field] { return value }
        return nil
    }

    /// A clock-time field (a `guint64` of nanoseconds); nil when absent or GST_CLOCK_TIME_NONE.
    ///
    /// The corresponding C function is `gst_structure_get_clock_time`.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: The time in nanoseconds, or nil.
    public func clockTime(_ field: String) -> ClockTime? {
        var value: GstClockTime = 0
        guard gst_structure_get_clock_time(pointer, field, &value) != 0, value != GstClockTime.max else { return nil }
        return ClockTime(value)
    }

    /// An array or list field's items.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: The items in order, or nil when there is no such field or it is neither an array nor a list.
    public func values(_ field: String) -> [FieldValue]? {
        switch self[field] {
        case .list(let items)?, .array(let items)?: items
        default: nil
        }
    }
}

extension Structure: FieldValueConvertible { public var fieldValue: FieldValue { .structure(self) } }
