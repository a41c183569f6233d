import CGStreamer
import CGStreamerShim

/// An event: a seek, a step, end of stream, or a custom event of the application's own, sent into
/// an element or a pad; or one seen passing a pad in a probe. Immutable once made.
///
/// The corresponding C type is `GstEvent`.
public final class Event: @unchecked Sendable, MiniObjectWrapper {
    // GstEvent is reference counted and immutable while shared; this wrapper owns one reference
    // (`init(borrowing:)` adds one) and never writes to the event.
    let pointer: UnsafeMutablePointer<GstEvent>

    init(taking pointer: UnsafeMutablePointer<GstEvent>) { self.pointer = pointer }
    deinit { GstEvent.release(pointer) }

    /// Which way a custom event travels, and how it is ordered with the data.
    ///
    /// The corresponding C type is `GstEventType` (the GST_EVENT_CUSTOM_* values).
    public enum CustomDirection: Sendable {
        /// Upstream, toward the sources.
        case upstream
        /// Downstream, in order with the buffers.
        case downstream
        /// Downstream, ahead of the buffers queued.
        case downstreamOutOfBand
        /// Downstream, in order, and kept on the pads it passed (sent again to pads linked later).
        case downstreamSticky
        /// Both ways, in order.
        case both
        /// Both ways, ahead of the data.
        case bothOutOfBand

        var type: GstEventType {
            switch self {
            case .upstream: GST_EVENT_CUSTOM_UPSTREAM
            case .downstream: GST_EVENT_CUSTOM_DOWNSTREAM
            case .downstreamOutOfBand: GST_EVENT_CUSTOM_DOWNSTREAM_OOB
            case .downstreamSticky: GST_EVENT_CUSTOM_DOWNSTREAM_STICKY
            case .both: GST_EVENT_CUSTOM_BOTH
            case .bothOutOfBand: GST_EVENT_CUSTOM_BOTH_OOB
            }
        }
    }

    /// What a step event counts in.
    public enum StepUnit: Sendable {
        /// Buffers (video frames).
        case buffers
        /// Nanoseconds.
        case time

        var format: GstFormat { self == .buffers ? GST_FORMAT_BUFFERS : GST_FORMAT_TIME }
    }

    /// A seek in time: play from `start` (nil: from where it is) up to `stop` (nil: the end) at
    /// `rate` (negative: backwards). For a rate change alone, `.instantRateChange` with both nil.
    ///
    /// The corresponding C function is `gst_event_new_seek` (GST_FORMAT_TIME, GST_SEEK_TYPE_SET).
    ///
    /// - Parameters:
    ///   - rate: The playback rate: 1 for normal speed, 2 for double, -1 for backwards.
    ///   - flags: How to seek; flushing to the nearest key unit by default.
    ///   - start: Where to start, in nanoseconds, or nil to keep the current position.
    ///   - stop: Where to stop, in nanoseconds, or nil for the end.
    /// - Returns: A new seek event, to send with ``Element/send(_:)``.
    /// - Throws: ``GStreamerError`` (invalid argument) for a rate of 0, infinite or not a number, which
    ///   GStreamer refuses.
    public static func seek(
        rate: Double = 1, flags: SeekFlags = [.flush, .keyUnit], start: ClockTime?, stop: ClockTime? = nil
    ) throws(GStreamerError) -> Event {
        guard rate != 0, rate.isFinite else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "a seek at rate \(rate): give a finite rate other than 0 (1 for normal speed, -1 backwards; "
                    + "pause the pipeline to stop)")
        }
        // GST_CLOCK_TIME_NONE (ClockTime.max) means no position, as nil does; gint64 holds the rest.
        let start = start.flatMap(Self.seekPosition)
        let stop = stop.flatMap(Self.seekPosition)
        return Event(
            taking: gst_event_new_seek(
                rate, GST_FORMAT_TIME, GstSeekFlags(flags.rawValue),
                start == nil ? GST_SEEK_TYPE_NONE : GST_SEEK_TYPE_SET,
                start ?? -1, stop == nil ? GST_SEEK_TYPE_NONE : GST_SEEK_TYPE_SET, stop ?? -1))
    }

    /// A seek position as gst_event_new_seek takes it; nil for GST_CLOCK_TIME_NONE, and the largest
    /// gint64 for a time beyond it (later than any stream ends).
    private static func seekPosition(_ time: ClockTime) -> gint64? {
        time == ClockTime.max ? nil : gint64(clamping: time)
    }

    /// A step: in PAUSED, the sinks advance by `amount` buffers or nanoseconds (frame stepping),
    /// posting a step-done message; `flush` ends a step in progress first.
    ///
    /// The corresponding C function is `gst_event_new_step`.
    ///
    /// - Parameters:
    ///   - amount: How far to step, in `unit`s.
    ///   - unit: Buffers (frames) or nanoseconds.
    ///   - rate: The rate to step at, positive.
    ///   - flush: True to end a step in progress first, false to queue after it.
    ///   - intermediate: True when more steps follow (no step-done message in between is needed).
    /// - Returns: A new step event.
    /// - Throws: ``GStreamerError`` (invalid argument) for a rate of 0 or less, infinite or not a number,
    ///   which GStreamer refuses with a critical warning and no event.
    public static func step(
        _ amount: UInt64, _ unit: StepUnit = .buffers, rate: Double = 1, flush: Bool = true, intermediate: Bool = false
    ) throws(GStreamerError) -> Event {
        guard rate > 0, rate.isFinite else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "a step at rate \(rate): give a finite rate above 0 (1 for normal speed; a step goes the "
                    + "way the last seek's rate points)")
        }
        return Event(
            taking: gst_event_new_step(unit.format, guint64(amount), rate, flush ? 1 : 0, intermediate ? 1 : 0))
    }

    /// A custom event named `name` with `fields` in GstStructure syntax (`"count=(int)3, label=hello"`),
    /// travelling `direction`. Throws when the fields do not parse.
    ///
    /// The corresponding C function is `gst_event_new_custom`.
    ///
    /// - Parameters:
    ///   - direction: Which way the event travels, and whether it is serialized with the data.
    ///   - name: The structure's name, which whoever handles it recognizes it by.
    ///   - fields: Comma-separated `field=(type)value` pairs, or empty.
    /// - Returns: A new custom event.
    /// - Throws: ``GStreamerError`` (invalid argument) when `name` and `fields` do not parse as a structure, or
    ///   GStreamer cannot be initialized.
    public static func custom(
        _ direction: CustomDirection, name: String, fields: String = ""
    ) throws(GStreamerError) -> Event {
        try GStreamer.initialize()
        return Event(taking: gst_event_new_custom(direction.type, try Structures.make(name: name, fields: fields)))
    }

    /// A request to an encoder downstream to make its next frame a key frame (an H.264 IDR), with
    /// its stream headers again when `allHeaders`: what a streaming server sends when a viewer joins.
    ///
    /// The corresponding C function is `gst_video_event_new_downstream_force_key_unit`.
    ///
    /// - Parameter allHeaders: True to have the encoder send its headers (SPS and PPS) again with it.
    /// - Returns: A new downstream event, to send into the encoder's sink pad with ``Pad/send(_:)``.
    public static func forceKeyUnit(allHeaders: Bool = true) -> Event {
        let none = GstClockTime(UInt64.max)
        return Event(taking: gst_video_event_new_downstream_force_key_unit(none, none, none, allHeaders ? 1 : 0, 0))
    }

    /// The same request travelling upstream: sent into a sink far downstream of the encoder (an
    /// appsink that feeds viewers), it finds the encoder from there, on the caller's thread, without
    /// waiting for the streaming thread.
    ///
    /// The corresponding C function is `gst_video_event_new_upstream_force_key_unit`.
    ///
    /// - Parameter allHeaders: True to have the encoder send its headers (SPS and PPS) again with it.
    /// - Returns: A new upstream event, to send into an element downstream with ``Element/send(_:)``.
    public static func forceKeyUnitUpstream(allHeaders: Bool = true) -> Event {
        Event(taking: gst_video_event_new_upstream_force_key_unit(GstClockTime(UInt64.max), allHeaders ? 1 : 0, 0))
    }

    /// End of stream.
    ///
    /// The corresponding C function is `gst_event_new_eos`.
    public static var endOfStream: Event { Event(taking: gst_event_new_eos()) }

    /// The kind of event: "seek", "step", "eos", "caps", "segment", "custom-downstream", ...
    ///
    /// The corresponding C macro is `GST_EVENT_TYPE_NAME`.
    public var typeName: String { String(cString: CGStreamerShim_event_type_name(pointer)) }

    /// The event's sequence number: events caused by one action share it (a seek, and the flushes and
    /// segment it causes downstream), which is how elements match them. A Swift element passing a
    /// segment on keeps upstream's number.
    ///
    /// The corresponding C function is `gst_event_get_seqnum`.
    public var seqnum: UInt32 { gst_event_get_seqnum(pointer) }

    /// True for an event that travels toward the sources.
    public var isUpstream: Bool { pointer.pointee.type.rawValue & GST_EVENT_TYPE_UPSTREAM.rawValue != 0 }

    /// The name of the event's structure (a custom event's name), when it has one.
    ///
    /// The corresponding C function is `gst_event_get_structure`.
    public var name: String? { Structures.name(of: gst_event_get_structure(pointer)) }

    /// The event's structure in its string form, when it has one.
    ///
    /// The corresponding C functions are `gst_event_get_structure` and `gst_structure_to_string`.
    public var structure: String? { Structures.string(of: gst_event_get_structure(pointer)) }

    /// A field of the event's structure.
    ///
    /// The corresponding C function is `gst_event_get_structure`.
    ///
    /// - Parameter name: The field's name.
    /// - Returns: The value, or nil when the event has no structure or no such field.
    public func field(_ name: String) -> PropertyValue? { Structures.field(name, of: gst_event_get_structure(pointer)) }

    /// A seek event's rate, flags, start and stop (nanoseconds, when set).
    ///
    /// The corresponding C function is `gst_event_parse_seek`.
    public var seek: (rate: Double, flags: SeekFlags, start: ClockTime?, stop: ClockTime?)? {
        guard pointer.pointee.type == GST_EVENT_SEEK else { return nil }
        var rate = 0.0
        var format = GST_FORMAT_UNDEFINED
        var flags = GstSeekFlags(0)
        var startType = GST_SEEK_TYPE_NONE
        var stopType = GST_SEEK_TYPE_NONE
        var start: gint64 = -1
        var stop: gint64 = -1
        gst_event_parse_seek(pointer, &rate, &format, &flags, &startType, &start, &stopType, &stop)
        // A position set to -1 is GStreamer's "none" (C elements send stop -1 with GST_SEEK_TYPE_SET).
        let position = { (type: GstSeekType, value: gint64) in
            type == GST_SEEK_TYPE_SET && value >= 0 ? ClockTime(value) : nil
        }
        return (rate, SeekFlags(rawValue: flags.rawValue), position(startType, start), position(stopType, stop))
    }

    /// A segment event's segment (its rate, start, stop, ...).
    ///
    /// The corresponding C function is `gst_event_parse_segment`.
    public var segment: Segment? {
        guard pointer.pointee.type == GST_EVENT_SEGMENT else { return nil }
        var segment: UnsafePointer<GstSegment>?
        gst_event_parse_segment(pointer, &segment)
        return segment.map { Segment($0.pointee) }
    }

    /// A caps event's caps.
    ///
    /// The corresponding C function is `gst_event_parse_caps`.
    public var caps: Caps? {
        guard pointer.pointee.type == GST_EVENT_CAPS else { return nil }
        var caps: UnsafeMutablePointer<GstCaps>?
        gst_event_parse_caps(pointer, &caps)
        return caps.map { Caps(borrowing: $0) }
    }
}

extension Element {
    /// Sends `event` into the element: an upstream event (seek, step) to its sinks, a downstream
    /// event to its sources. True when it was handled.
    ///
    /// The corresponding C function is `gst_element_send_event`.
    ///
    /// - Parameter event: The event; the element takes a reference of its own, so it can be sent again.
    /// - Returns: Whether an element handled it.
    @discardableResult
    public func send(_ event: Event) -> Bool {
        gst_element_send_event(pointer, gst_event_ref(event.pointer)) != 0
    }

    /// Seeks in time: from `start` (nil: where it is) up to `stop` (nil: the end), at `rate`
    /// (negative: backwards), with `flags` (`.flush`, `.accurate` or `.keyUnit`, `.segment`,
    /// `.instantRateChange`, ...). True when the seek was accepted.
    ///
    /// The corresponding C function is `gst_element_send_event` with `gst_event_new_seek`.
    ///
    /// - Parameters:
    ///   - rate: The playback rate: 1 for normal speed, negative for backwards.
    ///   - flags: How to seek; flushing to the nearest key unit by default.
    ///   - start: Where to start, in nanoseconds, or nil to keep the current position.
    ///   - stop: Where to stop, in nanoseconds, or nil for the end.
    /// - Returns: Whether the seek was accepted.
    /// - Throws: ``GStreamerError`` (invalid argument) for a rate of 0, infinite or not a number.
    @discardableResult
    public func seek(
        rate: Double, flags: SeekFlags = [.flush, .keyUnit], start: ClockTime?, stop: ClockTime? = nil
    ) throws(GStreamerError) -> Bool {
        send(try .seek(rate: rate, flags: flags, start: start, stop: stop))
    }
}

extension Pad {
    /// Sends `event` into the pad, as if its peer had pushed it (a downstream event into a sink pad,
    /// an upstream one into a source pad). True when it was handled.
    ///
    /// The corresponding C function is `gst_pad_send_event`.
    ///
    /// - Parameter event: The event; the pad takes a reference of its own.
    /// - Returns: Whether it was handled.
    @discardableResult
    public func send(_ event: Event) -> Bool {
        gst_pad_send_event(pointer, gst_event_ref(event.pointer)) != 0
    }

    /// Pushes `event` out of the pad to its peer: downstream from a source pad, upstream from a sink
    /// pad. True when it was handled.
    ///
    /// The corresponding C function is `gst_pad_push_event`.
    ///
    /// - Parameter event: The event; the pad takes a reference of its own.
    /// - Returns: Whether the peer handled it (false also when the pad is not linked).
    @discardableResult
    public func push(_ event: Event) -> Bool {
        gst_pad_push_event(pointer, gst_event_ref(event.pointer)) != 0
    }
}
