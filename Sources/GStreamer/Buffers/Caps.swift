import CGStreamer
import CGStreamerShim

/// GStreamer caps: the media type and format of a stream, such as
/// `video/x-raw, format=I420, width=320, height=240`. Immutable once made.
public final class Caps: @unchecked Sendable, CustomStringConvertible, Equatable, MiniObjectWrapper {
    // GstCaps is reference counted; this wrapper owns one reference (`init(borrowing:)` adds one) and
    // never writes to the caps.
    let pointer: UnsafeMutablePointer<GstCaps>

    init(taking pointer: UnsafeMutablePointer<GstCaps>) { self.pointer = pointer }
    deinit { GstCaps.release(pointer) }

    /// Parses caps from their string form. Throws when the string is not caps.
    ///
    /// The corresponding C function is `gst_caps_from_string`.
    ///
    /// - Parameter string: Caps as GStreamer writes them: structures separated by `;`, such as
    ///   `video/x-raw, format=(string){ I420, NV12 }; video/x-bayer`; also `ANY` and `EMPTY`.
    /// - Throws: ``GStreamerError`` (invalid argument) when `string` does not parse, or GStreamer cannot be
    ///   initialized.
    public convenience init(_ string: String) throws(GStreamerError) {
        try GStreamer.initialize()
        guard let caps = gst_caps_from_string(string) else {
            throw GStreamerError(kind: .invalidArgument, message: "could not parse caps \"\(string)\"")
        }
        self.init(taking: caps)
    }

    /// Caps that accept anything.
    ///
    /// The corresponding C function is `gst_caps_new_any`.
    public static var any: Caps { Caps(taking: gst_caps_new_any()) }

    static func string(of caps: UnsafePointer<GstCaps>) -> String {
        String(takingGString: gst_caps_to_string(caps)) ?? ""
    }

    /// The caps' string form, which ``init(_:)`` parses back.
    ///
    /// The corresponding C function is `gst_caps_to_string`.
    public var description: String { Caps.string(of: pointer) }

    /// Same formats, structure by structure.
    ///
    /// The corresponding C function is `gst_caps_is_equal`.
    ///
    /// - Parameters:
    ///   - lhs: Caps.
    ///   - rhs: Other caps.
    /// - Returns: Whether the two describe the same set of formats.
    public static func == (lhs: Caps, rhs: Caps) -> Bool {
        gst_caps_is_equal(lhs.pointer, rhs.pointer) != 0
    }

    /// True when both wrap the very same GstCaps (a cheap first test before `==`).
    ///
    /// - Parameter other: Other caps.
    /// - Returns: Whether both wrappers hold one GstCaps.
    public func isSameCaps(as other: Caps) -> Bool { pointer == other.pointer }

    /// True when the caps describe exactly one format (no lists or ranges).
    ///
    /// The corresponding C function is `gst_caps_is_fixed`.
    public var isFixed: Bool { gst_caps_is_fixed(pointer) != 0 }
    /// True when the caps accept nothing.
    ///
    /// The corresponding C function is `gst_caps_is_empty`.
    public var isEmpty: Bool { gst_caps_is_empty(pointer) != 0 }
    /// True when the caps accept anything.
    ///
    /// The corresponding C function is `gst_caps_is_any`.
    public var isAny: Bool { gst_caps_is_any(pointer) != 0 }

    /// Caps made of these structures, in order (each one a choice of format).
    ///
    /// The corresponding C functions are `gst_caps_new_empty` and `gst_caps_append_structure`.
    ///
    /// - Parameter structures: The formats, most preferred first; none makes empty caps.
    public convenience init(structures: [Structure]) {
        try? GStreamer.initialize()
        let caps = gst_caps_new_empty()!
        for structure in structures {
            structure.withUnsafeGstStructure { gst_caps_append_structure(caps, gst_structure_copy($0)) }
        }
        self.init(taking: caps)
    }

    /// The number of structures (choices of format); 0 for empty and for ANY caps.
    ///
    /// The corresponding C function is `gst_caps_get_size`.
    public var count: Int { Int(gst_caps_get_size(pointer)) }

    /// The structure at `index`, copied; nil past the end.
    ///
    /// The corresponding C function is `gst_caps_get_structure`.
    ///
    /// - Parameter index: The structure's index, from 0 to ``count`` - 1.
    /// - Returns: A copy of the structure, or nil.
    public func structure(at index: Int) -> Structure? {
        guard index >= 0, index < count, let structure = gst_caps_get_structure(pointer, guint(index)) else {
            return nil
        }
        return Structure(copying: structure)
    }

    /// Every structure, in order, copied: `for structure in caps.structures { structure.int("width") }`.
    public var structures: [Structure] { (0..<count).compactMap { structure(at: $0) } }

    /// The name of the first structure, such as "video/x-raw".
    ///
    /// The corresponding C function is `gst_structure_get_name`.
    public var mediaType: String? {
        guard gst_caps_get_size(pointer) > 0, let structure = gst_caps_get_structure(pointer, 0) else { return nil }
        return String(cString: gst_structure_get_name(structure))
    }

    /// An integer field of the first structure, such as `width`.
    ///
    /// The corresponding C function is `gst_structure_get_int`.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: The value, or nil when the caps are empty or the field is missing, not a `gint`, or not fixed
    ///   (a range or list).
    public func int(_ field: String) -> Int? {
        guard gst_caps_get_size(pointer) > 0, let structure = gst_caps_get_structure(pointer, 0) else { return nil }
        var value: gint = 0
        guard gst_structure_get_int(structure, field, &value) != 0 else { return nil }
        return Int(value)
    }

    /// A string field of the first structure, such as `format`.
    ///
    /// The corresponding C function is `gst_structure_get_string`.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: The value, or nil when the caps are empty or the field is missing, not a string, or not fixed.
    public func string(_ field: String) -> String? {
        guard gst_caps_get_size(pointer) > 0, let structure = gst_caps_get_structure(pointer, 0),
            let value = gst_structure_get_string(structure, field)
        else { return nil }
        return String(cString: value)
    }

    /// A fraction field of the first structure, such as `framerate`.
    ///
    /// The corresponding C function is `gst_structure_get_fraction`.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: The value, or nil when the caps are empty or the field is missing, not a fraction, or not
    ///   fixed.
    public func fraction(_ field: String) -> (numerator: Int, denominator: Int)? {
        guard gst_caps_get_size(pointer) > 0, let structure = gst_caps_get_structure(pointer, 0) else { return nil }
        var numerator: gint = 0
        var denominator: gint = 1
        guard gst_structure_get_fraction(structure, field, &numerator, &denominator) != 0 else { return nil }
        return (Int(numerator), Int(denominator))
    }

    /// The colour matrix the caps' `colorimetry` field names ("bt601", "bt709", "bt2020", "rgb"), read
    /// from the field itself: GstVideoInfo replaces any matrix of RGB formats by "rgb".
    ///
    /// The corresponding C function is `gst_video_colorimetry_from_string`.
    public var colorMatrix: String? {
        guard let text = string("colorimetry") else { return nil }
        var colorimetry = GstVideoColorimetry()
        guard gst_video_colorimetry_from_string(&colorimetry, text) != 0 else { return nil }
        switch colorimetry.matrix {
        case GST_VIDEO_COLOR_MATRIX_BT709: return "bt709"
        case GST_VIDEO_COLOR_MATRIX_BT601: return "bt601"
        case GST_VIDEO_COLOR_MATRIX_BT2020: return "bt2020"
        case GST_VIDEO_COLOR_MATRIX_RGB: return "rgb"
        default: return nil
        }
    }

    /// The caps both accept.
    ///
    /// The corresponding C function is `gst_caps_intersect`.
    ///
    /// - Parameter other: Other caps.
    /// - Returns: The formats in both, in this caps' order of preference; empty when there are none.
    public func intersect(_ other: Caps) -> Caps {
        Caps(taking: gst_caps_intersect(pointer, other.pointer))
    }

    /// True when some format fits both.
    ///
    /// The corresponding C function is `gst_caps_can_intersect`.
    ///
    /// - Parameter other: Other caps.
    /// - Returns: Whether the intersection is non-empty (cheaper than computing it).
    public func canIntersect(_ other: Caps) -> Bool {
        gst_caps_can_intersect(pointer, other.pointer) != 0
    }

    /// One fixed format out of these caps, taking the first choice of every list and the value nearest
    /// to the preferred one in ranges.
    ///
    /// The corresponding C function is `gst_caps_fixate` (after the nearest-value fixations).
    ///
    /// - Parameter fields: Preferred values by field name: `.int` and `.fraction` take the nearest value in a
    ///   range, `.string` the value when the list holds it; other kinds are ignored.
    /// - Returns: Fixed caps of the first structure.
    /// - Throws: ``GStreamerError`` (invalid argument) for ANY caps (an unlinked pad's query answers them)
    ///   and empty caps, which hold no format to pick.
    public func fixated(preferring fields: [String: PropertyValue] = [:]) throws(GStreamerError) -> Caps {
        guard !isAny, !isEmpty else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "\(isAny ? "ANY" : "empty") caps have no format to fixate: intersect them with the formats "
                    + "you handle first (an unlinked pad answers ANY)")
        }
        let caps = gst_caps_truncate(gst_caps_copy(pointer))!
        if let structure = gst_caps_get_structure(caps, 0) {
            for (field, value) in fields.sorted(by: { $0.key < $1.key }) {
                switch value {
                case .int(let number):
                    gst_structure_fixate_field_nearest_int(structure, field, gint(clamping: number))
                case .fraction(let numerator, let denominator):
                    gst_structure_fixate_field_nearest_fraction(
                        structure, field, gint(clamping: numerator), gint(clamping: denominator))
                case .string(let text?):
                    gst_structure_fixate_field_string(structure, field, text)
                default: break
                }
            }
        }
        return Caps(taking: gst_caps_fixate(caps))
    }

    /// A copy with `field` set in every structure.
    ///
    /// The corresponding C function is `gst_caps_set_value`.
    ///
    /// - Parameters:
    ///   - field: The field's name.
    ///   - value: An `.int`, `.string` or `.fraction`; any other kind leaves the copy unchanged.
    /// - Returns: The new caps.
    public func setting(_ field: String, _ value: PropertyValue) -> Caps {
        let caps = gst_caps_copy(pointer)!
        var gvalue = GValue()
        switch value {
        case .int: g_value_init(&gvalue, CGStreamerShim_type_int())
        case .string: g_value_init(&gvalue, CGStreamerShim_type_string())
        case .fraction: g_value_init(&gvalue, CGStreamerShim_type_fraction())
        default: return Caps(taking: caps)
        }
        defer { g_value_unset(&gvalue) }
        _ = GValues.write(value, into: &gvalue)
        gst_caps_set_value(caps, field, &gvalue)
        return Caps(taking: caps)
    }

    /// A copy without `field` in any structure.
    ///
    /// The corresponding C function is `gst_structure_remove_field`, on each structure.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: The new caps.
    public func removing(_ field: String) -> Caps {
        let caps = gst_caps_copy(pointer)!
        for index in 0..<gst_caps_get_size(caps) {
            gst_structure_remove_field(gst_caps_get_structure(caps, index), field)
        }
        return Caps(taking: caps)
    }
}
