import CGStreamer

// Seeking, position and duration, and ending the stream: the events and queries a player sends to
// an element or pipeline, in their simplest form (`Event` and `Query` have the rest).

extension Element {
    /// Sends an end-of-stream event into the element (for a pipeline: to every source).
    ///
    /// The corresponding C function is `gst_element_send_event` with `gst_event_new_eos`.
    ///
    /// - Returns: Whether the element took the event (a pipeline: whether every source did).
    @discardableResult
    public func sendEndOfStream() -> Bool {
        gst_element_send_event(pointer, gst_event_new_eos()) != 0
    }

    /// Seeks to `position` nanoseconds (and plays up to `stop`, when given) with a flushing seek,
    /// accurate or to the nearest key unit.
    ///
    /// The corresponding C function is `gst_element_seek`.
    ///
    /// - Parameters:
    ///   - position: Where to start, in nanoseconds of stream time.
    ///   - stop: Where to stop, in nanoseconds, or nil to play to the end.
    ///   - accurate: True to start exactly at `position` (decoding from the key unit before it), false to
    ///     start at the nearest key unit (faster).
    /// - Returns: Whether the seek was handled; false when no element could seek (a live source, a
    ///   pipeline not yet PAUSED).
    ///
    /// A time beyond `Int64.max` nanoseconds (292 years), `ClockTime.max` included, seeks to the largest
    /// time GStreamer holds, past the end of any stream; a `stop` of `ClockTime.max` means no stop.
    @discardableResult
    public func seek(to position: ClockTime, stop: ClockTime? = nil, accurate: Bool = false) -> Bool {
        var flags = GST_SEEK_FLAG_FLUSH.rawValue
        flags |= accurate ? GST_SEEK_FLAG_ACCURATE.rawValue : GST_SEEK_FLAG_KEY_UNIT.rawValue
        let stop = stop == ClockTime.max ? nil : stop
        return gst_element_seek(
            pointer, 1.0, GST_FORMAT_TIME, GstSeekFlags(flags), GST_SEEK_TYPE_SET, gint64(clamping: position),
            stop == nil ? GST_SEEK_TYPE_NONE : GST_SEEK_TYPE_SET, stop.map { gint64(clamping: $0) } ?? -1) != 0
    }

    /// The position in nanoseconds, when the pipeline can answer.
    ///
    /// The corresponding C function is `gst_element_query_position`.
    public var position: ClockTime? {
        var value: gint64 = -1
        guard gst_element_query_position(pointer, GST_FORMAT_TIME, &value) != 0, value >= 0 else { return nil }
        return ClockTime(value)
    }

    /// The duration in nanoseconds, when known.
    ///
    /// The corresponding C function is `gst_element_query_duration`.
    public var duration: ClockTime? {
        var value: gint64 = -1
        guard gst_element_query_duration(pointer, GST_FORMAT_TIME, &value) != 0, value >= 0 else { return nil }
        return ClockTime(value)
    }
}
