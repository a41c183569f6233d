import CGStreamer
import CGStreamerShim
import GstPipeSupport
import Synchronization

/// A question asked of elements and pads: the position, the duration, whether seeking works, the
/// latency, or a custom question of the application's own. Ask it with `Element.query`, `Pad.query`
/// or `Pad.peerQuery`, then read the answer; a query probe (`Pad.addProbe`) can answer it instead.
///
/// The corresponding C type is `GstQuery`.
public final class Query: @unchecked Sendable {
    // The GstQuery (its address), 0 once a query lent to a probe is given back. Every access goes
    // through `withPointer`, under `lock`, so an answer is never written into a query in use
    // elsewhere and a lent query is never touched after the probe returns.
    private var address: UInt
    private let owned: Bool
    private let lock = Locked(())

    init(taking pointer: UnsafeMutablePointer<GstQuery>) {
        address = UInt(bitPattern: pointer)
        owned = true
    }

    /// A query lent by a probe: no reference is taken (it must stay writable for the answer), and
    /// `invalidate()` ends the loan when the probe returns.
    init(lending pointer: UnsafeMutablePointer<GstQuery>) {
        address = UInt(bitPattern: pointer)
        owned = false
    }

    deinit {
        if owned, let pointer = UnsafeMutablePointer<GstQuery>(bitPattern: address) { gst_query_unref(pointer) }
    }

    func invalidate() {
        lock.withLock { _ in address = 0 }
    }

    func withPointer<T: Sendable>(_ body: (UnsafeMutablePointer<GstQuery>) -> T) -> T? {
        lock.withLock { _ in UnsafeMutablePointer<GstQuery>(bitPattern: address).map(body) }
    }

    /// Asks for the position in nanoseconds.
    ///
    /// The corresponding C function is `gst_query_new_position` (GST_FORMAT_TIME).
    ///
    /// - Returns: A new position query, in time format, to pass to ``Element/query(_:)``.
    public static func position() -> Query { Query(taking: gst_query_new_position(GST_FORMAT_TIME)) }

    /// Asks for the duration in nanoseconds.
    ///
    /// The corresponding C function is `gst_query_new_duration` (GST_FORMAT_TIME).
    ///
    /// - Returns: A new duration query, in time format.
    public static func duration() -> Query { Query(taking: gst_query_new_duration(GST_FORMAT_TIME)) }

    /// Asks whether seeking in time works, and over what range.
    ///
    /// The corresponding C function is `gst_query_new_seeking` (GST_FORMAT_TIME).
    ///
    /// - Returns: A new seeking query, in time format.
    public static func seeking() -> Query { Query(taking: gst_query_new_seeking(GST_FORMAT_TIME)) }

    /// Asks for the latency: whether the data is live, and the least and most delay a sink must allow.
    ///
    /// The corresponding C function is `gst_query_new_latency`.
    ///
    /// - Returns: A new latency query.
    public static func latency() -> Query { Query(taking: gst_query_new_latency()) }

    /// A custom query named `name` with `fields` in GstStructure syntax (`"count=(int)3"`); whoever
    /// answers it sets fields with `setField`.
    ///
    /// The corresponding C function is `gst_query_new_custom` (GST_QUERY_CUSTOM).
    ///
    /// - Parameters:
    ///   - name: The structure's name, which whoever answers recognizes the query by.
    ///   - fields: Comma-separated `field=(type)value` pairs, or empty.
    /// - Returns: A new custom query.
    /// - Throws: ``GStreamerError`` (invalid argument) when `name` and `fields` do not parse as a structure, or
    ///   GStreamer cannot be initialized.
    public static func custom(_ name: String, fields: String = "") throws(GStreamerError) -> Query {
        try GStreamer.initialize()
        return Query(taking: gst_query_new_custom(GST_QUERY_CUSTOM, try Structures.make(name: name, fields: fields)))
    }

    /// The kind of query: "position", "duration", "seeking", "latency", "custom", ...
    ///
    /// The corresponding C macro is `GST_QUERY_TYPE_NAME`.
    public var typeName: String {
        withPointer { String(cString: CGStreamerShim_query_type_name($0)) } ?? ""
    }

    /// For a custom query, its name.
    ///
    /// The corresponding C function is `gst_query_get_structure`.
    public var name: String? {
        withPointer { Structures.name(of: gst_query_get_structure($0)) } ?? nil
    }

    /// The query's structure in its string form (`"name, field=(type)value"`).
    ///
    /// The corresponding C functions are `gst_query_get_structure` and `gst_structure_to_string`.
    public var structure: String? {
        withPointer { Structures.string(of: gst_query_get_structure($0)) } ?? nil
    }

    /// A field of the query's structure (a custom query's answer).
    ///
    /// - Parameter name: The field's name.
    /// - Returns: The value, or nil when there is no such field (or the query is no longer valid).
    public func field(_ name: String) -> PropertyValue? {
        withPointer { Structures.field(name, of: gst_query_get_structure($0)) } ?? nil
    }

    /// Sets a field of a custom query's structure: how a probe answers it. False when the query is not
    /// writable here (asked elsewhere, or its probe has returned).
    ///
    /// The corresponding C function is `gst_query_writable_structure`.
    ///
    /// - Parameters:
    ///   - name: The field's name.
    ///   - value: The value: a Bool, an integer (stored as `gint64`), a Double, a fraction or a string.
    /// - Returns: Whether the field was set.
    @discardableResult
    public func setField(_ name: String, _ value: some PropertyValueConvertible) -> Bool {
        withPointer { query -> Bool in
            guard CGStreamerShim_query_is_writable(query) != 0, let structure = gst_query_writable_structure(query)
            else {
                return false
            }
            var gvalue = GValue()
            switch value.propertyValue {
            case .bool: g_value_init(&gvalue, CGStreamerShim_type_boolean())
            case .int: g_value_init(&gvalue, CGStreamerShim_type_int64())
            case .uint: g_value_init(&gvalue, CGStreamerShim_type_uint64())
            case .double: g_value_init(&gvalue, CGStreamerShim_type_double())
            case .fraction: g_value_init(&gvalue, CGStreamerShim_type_fraction())
            default: g_value_init(&gvalue, CGStreamerShim_type_string())
            }
            defer { g_value_unset(&gvalue) }
            guard GValues.write(value.propertyValue, into: &gvalue) else { return false }
            gst_structure_set_value(structure, name, &gvalue)
            return true
        } ?? false
    }

    /// A position query's answer, in nanoseconds.
    ///
    /// The corresponding C function is `gst_query_parse_position`.
    public var position: ClockTime? {
        withPointer { query -> ClockTime? in
            guard CGStreamerShim_query_type_name(query).map({ String(cString: $0) }) == "position" else { return nil }
            var format = GST_FORMAT_UNDEFINED
            var value: gint64 = -1
            gst_query_parse_position(query, &format, &value)
            return format == GST_FORMAT_TIME && value >= 0 ? ClockTime(value) : nil
        } ?? nil
    }

    /// A duration query's answer, in nanoseconds.
    ///
    /// The corresponding C function is `gst_query_parse_duration`.
    public var duration: ClockTime? {
        withPointer { query -> ClockTime? in
            guard String(cString: CGStreamerShim_query_type_name(query)) == "duration" else { return nil }
            var format = GST_FORMAT_UNDEFINED
            var value: gint64 = -1
            gst_query_parse_duration(query, &format, &value)
            return format == GST_FORMAT_TIME && value >= 0 ? ClockTime(value) : nil
        } ?? nil
    }

    /// A seeking query's answer: whether seeking works, and between which times (nil: unknown end).
    ///
    /// The corresponding C function is `gst_query_parse_seeking`.
    public var seeking: (seekable: Bool, start: ClockTime?, end: ClockTime?)? {
        withPointer { query -> (Bool, ClockTime?, ClockTime?)? in
            guard String(cString: CGStreamerShim_query_type_name(query)) == "seeking" else { return nil }
            var format = GST_FORMAT_UNDEFINED
            var seekable: gboolean = 0
            var start: gint64 = -1
            var end: gint64 = -1
            gst_query_parse_seeking(query, &format, &seekable, &start, &end)
            return (seekable != 0, start >= 0 ? ClockTime(start) : nil, end >= 0 ? ClockTime(end) : nil)
        } ?? nil
    }

    /// A latency query's answer: live or not, and the least and most delay (nil: no bound).
    ///
    /// The corresponding C function is `gst_query_parse_latency`.
    public var latency: (live: Bool, minimum: ClockTime, maximum: ClockTime?)? {
        withPointer { query -> (Bool, ClockTime, ClockTime?)? in
            guard String(cString: CGStreamerShim_query_type_name(query)) == "latency" else { return nil }
            var live: gboolean = 0
            var minimum: GstClockTime = 0
            var maximum: GstClockTime = 0
            gst_query_parse_latency(query, &live, &minimum, &maximum)
            return (live != 0, ClockTime(minimum), optionalClockTime(maximum))
        } ?? nil
    }

    /// Answers a duration query (in a probe that returns `.handled`).
    ///
    /// The corresponding C function is `gst_query_set_duration`.
    ///
    /// - Parameter duration: The duration in nanoseconds; `ClockTime.max` (GST_CLOCK_TIME_NONE) answers
    ///   "unknown", and a duration beyond `Int64.max` is clamped to it.
    public func setDuration(_ duration: ClockTime) {
        _ = withPointer { query in
            if CGStreamerShim_query_is_writable(query) != 0 {
                gst_query_set_duration(query, GST_FORMAT_TIME, signedClockTime(duration))
            }
        }
    }

    /// Answers a position query (in a probe that returns `.handled`).
    ///
    /// The corresponding C function is `gst_query_set_position`.
    ///
    /// - Parameter position: The position in nanoseconds; `ClockTime.max` answers "unknown", and a position
    ///   beyond `Int64.max` is clamped to it.
    public func setPosition(_ position: ClockTime) {
        _ = withPointer { query in
            if CGStreamerShim_query_is_writable(query) != 0 {
                gst_query_set_position(query, GST_FORMAT_TIME, signedClockTime(position))
            }
        }
    }
}

extension Element {
    /// Asks the element `query`; true when it answered (read the answer from the query).
    ///
    /// The corresponding C function is `gst_element_query`.
    ///
    /// - Parameter query: The question; the answer is written into it.
    /// - Returns: Whether the element answered.
    @discardableResult
    public func query(_ query: Query) -> Bool {
        query.withPointer { gst_element_query(pointer, $0) != 0 } ?? false
    }
}

extension Pad {
    /// Asks the pad `query` (a sink pad passes most upstream, a source pad downstream); true when it
    /// was answered.
    ///
    /// The corresponding C function is `gst_pad_query`.
    ///
    /// - Parameter query: The question; the answer is written into it.
    /// - Returns: Whether it was answered.
    @discardableResult
    public func query(_ query: Query) -> Bool {
        query.withPointer { gst_pad_query(pointer, $0) != 0 } ?? false
    }

    /// Asks the pad's peer `query`; true when it was answered.
    ///
    /// The corresponding C function is `gst_pad_peer_query`.
    ///
    /// - Parameter query: The question; the answer is written into it.
    /// - Returns: Whether it was answered (false also when the pad is not linked).
    @discardableResult
    public func peerQuery(_ query: Query) -> Bool {
        query.withPointer { gst_pad_peer_query(pointer, $0) != 0 } ?? false
    }
}
