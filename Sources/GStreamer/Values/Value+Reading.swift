import CGStreamer
import CGStreamerShim

// A Value read back as the Swift type expected: each accessor is nil when the value is of another
// kind, so a handler reads `arguments[0].value?.structure` without a switch over GTypes.

extension Value {
    private var gvalue: UnsafePointer<GValue> { UnsafePointer(storage.gvalue) }
    private var fundamental: GType { g_type_fundamental(gvalue.pointee.g_type) }

    /// The value as a Bool, when it is a `gboolean`.
    public var bool: Bool? { if case .bool(let flag) = GScalar(reading: gvalue) { flag } else { nil } }

    /// The value as an Int: any integer type whose value fits, or an enum's number.
    public var int: Int? {
        switch GScalar(reading: gvalue) {
        case .signed(let number), .enumeration(let number, _): number
        case .unsigned(let number): Int(exactly: number)
        default: fundamental == CGStreamerShim_type_char() ? Int(g_value_get_schar(gvalue)) : nil
        }
    }

    /// The value as a UInt: any integer type whose value is not negative, or flags' bits.
    public var uint: UInt? {
        switch GScalar(reading: gvalue) {
        case .unsigned(let number), .flags(let number): number
        case .signed(let number): UInt(exactly: number)
        default: fundamental == CGStreamerShim_type_uchar() ? UInt(g_value_get_uchar(gvalue)) : nil
        }
    }

    /// The value as a Double, when it is a `gdouble` or `gfloat`.
    public var double: Double? { if case .double(let number) = GScalar(reading: gvalue) { number } else { nil } }

    /// The value as a String, when it is a non-NULL `gchararray`.
    public var string: String? { if case .string(let text?) = GScalar(reading: gvalue) { text } else { nil } }

    /// An enum value's nick ("offer" for `GST_WEBRTC_SDP_TYPE_OFFER`), when the value is an enum.
    ///
    /// The corresponding C function is `g_enum_get_value`.
    public var enumNick: String? {
        if case .enumeration(_, let nick) = GScalar(reading: gvalue) { nick } else { nil }
    }

    /// A flags value's set flags by nick (`["flush", "accurate"]`), when the value is flags.
    ///
    /// The corresponding C function is `g_flags_get_first_value`, for each bit set.
    public var flagNicks: [String]? {
        guard fundamental == CGStreamerShim_type_flags() else { return nil }
        return GScalar.nicks(ofFlags: g_value_get_flags(gvalue), type: gvalue.pointee.g_type)
    }

    /// The structure, when the value is a non-NULL `GstStructure` (a copy of it).
    public var structure: Structure? {
        guard gvalue.pointee.g_type == gst_structure_get_type(), let structure = gst_value_get_structure(gvalue) else {
            return nil
        }
        return Structure(copying: structure)
    }

    /// The caps, when the value is non-NULL `GstCaps`, with a reference of their own.
    public var caps: Caps? {
        guard gvalue.pointee.g_type == CGStreamerShim_type_caps(), let caps = gst_value_get_caps(gvalue) else {
            return nil
        }
        return Caps(borrowing: UnsafeMutablePointer(mutating: caps))
    }

    /// The buffer, when the value is a non-NULL `GstBuffer`, with a reference of its own.
    public var buffer: Buffer? {
        guard gvalue.pointee.g_type == gst_buffer_get_type(), let buffer = g_value_get_boxed(gvalue) else { return nil }
        return Buffer(borrowing: UnsafeMutableRawPointer(mutating: buffer).assumingMemoryBound(to: GstBuffer.self))
    }

    /// The sample, when the value is a non-NULL `GstSample`, with a reference of its own.
    public var sample: Sample? {
        guard gvalue.pointee.g_type == gst_sample_get_type(), let sample = g_value_get_boxed(gvalue) else { return nil }
        return Sample(taking: gst_sample_ref(OpaquePointer(sample)))
    }

    /// The promise, when the value is a non-NULL `GstPromise` (a signal handler's promise to reply
    /// to), with a reference of its own.
    public var promise: Promise? {
        guard gvalue.pointee.g_type == gst_promise_get_type(), let promise = g_value_get_boxed(gvalue) else {
            return nil
        }
        return Promise(borrowing: UnsafeMutableRawPointer(mutating: promise).assumingMemoryBound(to: GstPromise.self))
    }

    /// A `GError`'s message, when the value is a non-NULL one (webrtcbin replies to a failed step
    /// with an "error" field of that type).
    public var errorMessage: String? {
        guard gvalue.pointee.g_type == g_error_get_type(), let error = g_value_get_boxed(gvalue) else { return nil }
        return error.assumingMemoryBound(to: GError.self).pointee.message.map { String(cString: $0) }
    }

    /// The element, when the value is a non-NULL GstElement (a ``Bin`` when it is one).
    public var element: Element? {
        guard let object = objectPointer, g_type_is_a(instanceType, gst_element_get_type()) != 0 else { return nil }
        return Element.wrap(object.assumingMemoryBound(to: GstElement.self), owned: false)
    }

    /// The pad, when the value is a non-NULL GstPad.
    public var pad: Pad? {
        guard let object = objectPointer, g_type_is_a(instanceType, gst_pad_get_type()) != 0 else { return nil }
        return Pad(object.assumingMemoryBound(to: GstPad.self), owned: false)
    }

    /// The object, when the value is any non-NULL GObject (an element, a pad, webrtcbin's ICE agent).
    public var object: Object? { objectPointer.map { Object(borrowing: $0) } }

    private var objectPointer: UnsafeMutableRawPointer? {
        fundamental == CGStreamerShim_type_object() ? g_value_get_object(gvalue) : nil
    }
}
