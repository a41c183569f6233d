import CGStreamer
import CGStreamerShim

// The queries a pipeline asks while it starts: what formats a pad can take (caps), how much delay the
// sinks must allow (latency), and how full the buffers of a streaming source are (buffering). Each can
// be asked with `Element.query`/`Pad.query`, or answered by a query probe that returns `.handled`.
extension Query {
    /// Runs `body` on the query when it is of `type`; nil otherwise (or once a lent query was given back).
    func whenType<T: Sendable>(_ type: GstQueryType, _ body: (UnsafeMutablePointer<GstQuery>) -> T?) -> T? {
        withPointer { query in query.pointee.type == type ? body(query) : nil } ?? nil
    }

    /// Runs `body` on the query when it is of `type` and may be written here (asked here, or lent to the
    /// probe that is answering it); false otherwise.
    func answerWhenType(_ type: GstQueryType, _ body: (UnsafeMutablePointer<GstQuery>) -> Bool) -> Bool {
        whenType(type) { query in CGStreamerShim_query_is_writable(query) != 0 ? body(query) : false } ?? false
    }

    // MARK: Caps

    /// Asks which formats a pad can handle, within `filter` when given: what a pad answers before the
    /// formats are agreed on.
    ///
    /// The corresponding C function is `gst_query_new_caps`.
    ///
    /// - Parameter filter: The formats the asker could use; nil for any.
    /// - Returns: A new caps query, to pass to ``Pad/query(_:)`` or ``Pad/peerQuery(_:)``.
    public static func caps(filter: Caps? = nil) -> Query { Query(taking: gst_query_new_caps(filter?.pointer)) }

    /// A caps query's filter: the formats the asker could use (nil: any, or not a caps query).
    ///
    /// The corresponding C function is `gst_query_parse_caps`.
    public var capsFilter: Caps? {
        whenType(GST_QUERY_CAPS) { query in
            var filter: UnsafeMutablePointer<GstCaps>?
            gst_query_parse_caps(query, &filter)
            return filter.map { Caps(borrowing: $0) }
        }
    }

    /// A caps query's answer: the formats the pad can handle (nil: not answered, or not a caps query).
    ///
    /// The corresponding C function is `gst_query_parse_caps_result`.
    public var capsResult: Caps? {
        whenType(GST_QUERY_CAPS) { query in
            var result: UnsafeMutablePointer<GstCaps>?
            gst_query_parse_caps_result(query, &result)
            return result.map { Caps(borrowing: $0) }
        }
    }

    /// Answers a caps query (in a probe that returns `.handled`): the pad handles `caps` alone, so the
    /// pipeline agrees on a format among them. Answer within ``capsFilter`` when there is one.
    ///
    /// The corresponding C function is `gst_query_set_caps_result`.
    ///
    /// - Parameter caps: The formats the pad handles.
    /// - Returns: False when this is not a caps query or it cannot be answered here.
    @discardableResult
    public func setCapsResult(_ caps: Caps) -> Bool {
        answerWhenType(GST_QUERY_CAPS) { query in
            gst_query_set_caps_result(query, caps.pointer)
            return true
        }
    }

    // MARK: Latency

    /// Answers a latency query (in a probe that returns `.handled`): whether the data is live, and the
    /// least and most delay the sinks must allow. Read it back with ``latency``.
    ///
    /// The corresponding C function is `gst_query_set_latency`.
    ///
    /// - Parameters:
    ///   - live: True when the data comes live (a camera, a network stream).
    ///   - minimum: The least delay, in nanoseconds, before the data can reach the sinks.
    ///   - maximum: The most delay the elements can absorb by buffering; nil for no bound.
    /// - Returns: False when this is not a latency query or it cannot be answered here.
    @discardableResult
    public func setLatency(live: Bool, minimum: ClockTime, maximum: ClockTime?) -> Bool {
        answerWhenType(GST_QUERY_LATENCY) { query in
            gst_query_set_latency(query, live ? 1 : 0, GstClockTime(minimum), clockTimeValue(maximum))
            return true
        }
    }

    // MARK: Buffering

    /// What a buffering query measures its ranges in.
    ///
    /// The corresponding C type is `GstFormat`.
    public enum BufferingFormat: Sendable, Equatable {
        /// Bytes of the stream.
        case bytes
        /// Nanoseconds of the stream.
        case time
        /// Percent of the whole, in `GST_FORMAT_PERCENT_MAX` units (1 000 000 is 100%).
        case percent

        var format: GstFormat {
            switch self {
            case .bytes: GST_FORMAT_BYTES
            case .time: GST_FORMAT_TIME
            case .percent: GST_FORMAT_PERCENT
            }
        }

        init?(_ format: GstFormat) {
            switch format {
            case GST_FORMAT_BYTES: self = .bytes
            case GST_FORMAT_TIME: self = .time
            case GST_FORMAT_PERCENT: self = .percent
            default: return nil
            }
        }
    }

    /// A stretch of a stream that is buffered (downloaded), in a buffering query's format.
    public struct BufferingRange: Sendable, Equatable {
        /// Where it starts.
        public var start: Int64
        /// Where it stops; nil when unknown.
        public var stop: Int64?

        /// A buffered stretch from `start` to `stop`.
        ///
        /// - Parameters:
        ///   - start: Where it starts, in the query's format.
        ///   - stop: Where it stops; nil when unknown.
        public init(start: Int64, stop: Int64?) {
            self.start = start
            self.stop = stop
        }
    }

    /// Asks how full the buffers are (a `queue2` with `use-buffering`, a download), and which stretches of
    /// the stream are buffered, measured in `format`.
    ///
    /// The corresponding C function is `gst_query_new_buffering`.
    ///
    /// - Parameter format: What the ranges are measured in.
    /// - Returns: A new buffering query.
    public static func buffering(_ format: BufferingFormat = .time) -> Query {
        Query(taking: gst_query_new_buffering(format.format))
    }

    /// A buffering query's answer: whether the buffers are still filling (busy: playing now would stall)
    /// and how full they are, 0 to 100. Nil for another kind of query.
    ///
    /// The corresponding C function is `gst_query_parse_buffering_percent`.
    public var bufferingPercent: (busy: Bool, percent: Int)? {
        whenType(GST_QUERY_BUFFERING) { query -> (Bool, Int)? in
            var busy: gboolean = 0
            var percent: gint = 0
            gst_query_parse_buffering_percent(query, &busy, &percent)
            return (busy != 0, Int(percent))
        }
    }

    /// A buffering query's format and stretches buffered: the whole range answered (start, stop and the
    /// estimated total, when known) and the ranges listed. Nil for another kind of query.
    ///
    /// The corresponding C functions are `gst_query_parse_buffering_range`,
    /// `gst_query_get_n_buffering_ranges` and `gst_query_parse_nth_buffering_range`.
    public var buffering:
        (format: BufferingFormat?, whole: BufferingRange, estimatedTotal: Int64?, ranges: [BufferingRange])?
    {
        whenType(GST_QUERY_BUFFERING) { query -> (BufferingFormat?, BufferingRange, Int64?, [BufferingRange])? in
            var format = GST_FORMAT_UNDEFINED
            var start: gint64 = -1
            var stop: gint64 = -1
            var total: gint64 = -1
            gst_query_parse_buffering_range(query, &format, &start, &stop, &total)
            let ranges = (0..<gst_query_get_n_buffering_ranges(query)).map { index in
                var rangeStart: gint64 = -1
                var rangeStop: gint64 = -1
                gst_query_parse_nth_buffering_range(query, index, &rangeStart, &rangeStop)
                return BufferingRange(start: Int64(rangeStart), stop: rangeStop >= 0 ? Int64(rangeStop) : nil)
            }
            return (
                BufferingFormat(format), BufferingRange(start: Int64(start), stop: stop >= 0 ? Int64(stop) : nil),
                total >= 0 ? Int64(total) : nil, ranges
            )
        }
    }

    /// Answers a buffering query (in a probe that returns `.handled`): how full the buffers are, the
    /// whole stretch buffered and each range, in the query's format.
    ///
    /// The corresponding C functions are `gst_query_set_buffering_percent`, `gst_query_set_buffering_range`
    /// and `gst_query_add_buffering_range`.
    ///
    /// - Parameters:
    ///   - busy: True while the buffers are still filling.
    ///   - percent: How full they are, 0 to 100.
    ///   - ranges: The stretches buffered, in order, each within the previous one's end or after it.
    ///   - estimatedTotal: The stream's estimated total (bytes or time); nil when unknown.
    /// - Returns: False when this is not a buffering query, it cannot be answered here, the percentage is
    ///   not 0 to 100, or GStreamer refused a range (out of order or overlapping).
    @discardableResult
    public func setBuffering(
        busy: Bool, percent: Int, ranges: [BufferingRange] = [], estimatedTotal: Int64? = nil
    ) -> Bool {
        guard (0...100).contains(percent) else { return false }
        return answerWhenType(GST_QUERY_BUFFERING) { query in
            gst_query_set_buffering_percent(query, busy ? 1 : 0, gint(percent))
            var format = GST_FORMAT_UNDEFINED
            gst_query_parse_buffering_range(query, &format, nil, nil, nil)
            let whole = (ranges.first?.start ?? -1, ranges.last.flatMap { $0.stop } ?? -1)
            gst_query_set_buffering_range(query, format, gint64(whole.0), gint64(whole.1), gint64(estimatedTotal ?? -1))
            return ranges.allSatisfy { range in
                gst_query_add_buffering_range(query, gint64(range.start), gint64(range.stop ?? -1)) != 0
            }
        }
    }
}
