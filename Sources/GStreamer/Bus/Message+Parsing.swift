import CGStreamer
import CGStreamerShim

// Conversion of the less common kinds: data flow and timing (parseFlow), and the pipeline's setup
// (contexts, devices, clocks). Every GstMessageType of GStreamer 1.22 but the deprecated state-dirty
// gets its own case.

extension Message {
    /// The kinds about data flow and timing; nil for a kind of another group.
    static func parseFlow(_ message: UnsafeMutablePointer<GstMessage>, source: String?) -> Message? {
        switch message.pointee.type {
        case GST_MESSAGE_BUFFERING:
            var percent: gint = 0
            gst_message_parse_buffering(message, &percent)
            return .buffering(source: source, percent: Int(percent), stats: parseBufferingStats(message))
        case GST_MESSAGE_STREAM_COLLECTION:
            var collection: UnsafeMutablePointer<GstStreamCollection>?
            gst_message_parse_stream_collection(message, &collection)
            defer { collection.map { gst_object_unref(UnsafeMutableRawPointer($0)) } }
            return .streamCollection(source: source, StreamCollection(collection))
        case GST_MESSAGE_STREAMS_SELECTED:
            var collection: UnsafeMutablePointer<GstStreamCollection>?
            gst_message_parse_streams_selected(message, &collection)
            defer { collection.map { gst_object_unref(UnsafeMutableRawPointer($0)) } }
            let selected = (0..<gst_message_streams_selected_get_size(message)).compactMap { index in
                gst_message_streams_selected_get_stream(message, index).map { stream in
                    defer { gst_object_unref(UnsafeMutableRawPointer(stream)) }
                    return StreamInfo(stream)
                }
            }
            return .streamsSelected(source: source, collection: StreamCollection(collection), selected: selected)
        case GST_MESSAGE_STEP_START:
            var active: gboolean = 0
            var step = RawStep()
            gst_message_parse_step_start(
                message, &active, &step.format, &step.amount, &step.rate, &step.flush, &step.intermediate)
            return .stepStart(source: source, active: active != 0, step.value)
        case GST_MESSAGE_STEP_DONE:
            var step = RawStep()
            var duration: guint64 = .max
            var eos: gboolean = 0
            gst_message_parse_step_done(
                message, &step.format, &step.amount, &step.rate, &step.flush, &step.intermediate, &duration, &eos)
            return .stepDone(source: source, step.value, duration: clockTime(duration), endOfStream: eos != 0)
        case GST_MESSAGE_SEGMENT_START, GST_MESSAGE_SEGMENT_DONE:
            var format = GST_FORMAT_UNDEFINED
            var position: gint64 = -1
            if message.pointee.type == GST_MESSAGE_SEGMENT_START {
                gst_message_parse_segment_start(message, &format, &position)
                return .segmentStart(source: source, format: formatName(format), position: Int64(position))
            }
            gst_message_parse_segment_done(message, &format, &position)
            return .segmentDone(source: source, format: formatName(format), position: Int64(position))
        case GST_MESSAGE_PROGRESS:
            var type = GST_PROGRESS_TYPE_START
            var code: UnsafeMutablePointer<gchar>?
            var text: UnsafeMutablePointer<gchar>?
            gst_message_parse_progress(message, &type, &code, &text)
            let progress = Progress(
                kind: Progress.Kind(type), code: String(takingGString: code) ?? "",
                text: String(takingGString: text) ?? "")
            return .progress(source: source, progress)
        case GST_MESSAGE_TOC:
            var toc: OpaquePointer?
            var updated: gboolean = 0
            gst_message_parse_toc(message, &toc, &updated)
            guard let toc else { return nil }
            defer { gst_mini_object_unref(UnsafeMutablePointer<GstMiniObject>(toc)) }
            return .toc(source: source, Toc(reading: toc), updated: updated != 0)
        case GST_MESSAGE_RESET_TIME:
            var time: GstClockTime = 0
            gst_message_parse_reset_time(message, &time)
            return .resetTime(source: source, runningTime: ClockTime(time))
        case GST_MESSAGE_INSTANT_RATE_REQUEST:
            var rate: gdouble = 1
            gst_message_parse_instant_rate_request(message, &rate)
            return .instantRateRequest(source: source, rateMultiplier: rate)
        default:
            return nil
        }
    }

    /// The kinds about the pipeline's setup: clocks, states, links, threads, contexts, devices,
    /// redirects; nil for a kind of another group.
    static func parseSetup(_ message: UnsafeMutablePointer<GstMessage>, source: String?) -> Message? {
        switch message.pointee.type {
        case GST_MESSAGE_NEW_CLOCK:
            var clock: UnsafeMutablePointer<GstClock>?
            gst_message_parse_new_clock(message, &clock)
            return .newClock(source: source, clock: clock.map { Clock(borrowing: $0) })
        case GST_MESSAGE_CLOCK_PROVIDE:
            var clock: UnsafeMutablePointer<GstClock>?
            var ready: gboolean = 0
            gst_message_parse_clock_provide(message, &clock, &ready)
            return .clockProvide(source: source, clock: clock.map { Clock(borrowing: $0) }, ready: ready != 0)
        case GST_MESSAGE_REQUEST_STATE:
            var state = GST_STATE_VOID_PENDING
            gst_message_parse_request_state(message, &state)
            return .requestState(source: source, State(state))
        case GST_MESSAGE_STRUCTURE_CHANGE:
            var type = GST_STRUCTURE_CHANGE_TYPE_PAD_LINK
            var owner: UnsafeMutablePointer<GstElement>?
            var busy: gboolean = 0
            gst_message_parse_structure_change(message, &type, &owner, &busy)
            let change = StructureChange(
                unlinking: type == GST_STRUCTURE_CHANGE_TYPE_PAD_UNLINK, owner: name(of: owner), busy: busy != 0)
            return .structureChange(source: source, change)
        case GST_MESSAGE_STREAM_STATUS:
            var type = GST_STREAM_STATUS_TYPE_CREATE
            var owner: UnsafeMutablePointer<GstElement>?
            gst_message_parse_stream_status(message, &type, &owner)
            return .streamStatus(source: source, StreamStatus(kind: streamStatusName(type), owner: name(of: owner)))
        case GST_MESSAGE_NEED_CONTEXT:
            var type: UnsafePointer<gchar>?
            guard gst_message_parse_context_type(message, &type) != 0, let type else { return nil }
            return .needContext(source: source, contextType: String(cString: type))
        case GST_MESSAGE_HAVE_CONTEXT:
            var context: OpaquePointer?
            gst_message_parse_have_context(message, &context)
            return context.map { .haveContext(source: source, Context(taking: $0)) }
        case GST_MESSAGE_DEVICE_ADDED, GST_MESSAGE_DEVICE_REMOVED, GST_MESSAGE_DEVICE_CHANGED:
            return parseDevice(message, source: source)
        case GST_MESSAGE_REDIRECT:
            let entries = (0..<gst_message_get_num_redirect_entries(message)).compactMap { index in
                var location: UnsafePointer<gchar>?
                var tags: UnsafeMutablePointer<GstTagList>?
                var details: UnsafePointer<GstStructure>?
                gst_message_parse_redirect_entry(message, index, &location, &tags, &details)
                return location.map {
                    RedirectEntry(
                        location: String(cString: $0), tags: tags.map { TagList(borrowing: $0) },
                        details: details.map { Structure(copying: $0) })
                }
            }
            return .redirect(source: source, entries)
        default:
            return nil
        }
    }

    private static func parseDevice(_ message: UnsafeMutablePointer<GstMessage>, source: String?) -> Message? {
        var device: UnsafeMutablePointer<GstDevice>?
        var old: UnsafeMutablePointer<GstDevice>?
        switch message.pointee.type {
        case GST_MESSAGE_DEVICE_ADDED: gst_message_parse_device_added(message, &device)
        case GST_MESSAGE_DEVICE_REMOVED: gst_message_parse_device_removed(message, &device)
        default: gst_message_parse_device_changed(message, &device, &old)
        }
        // Each parse gives a reference of its own; Device keeps its own.
        defer {
            device.map { gst_object_unref(UnsafeMutableRawPointer($0)) }
            old.map { gst_object_unref(UnsafeMutableRawPointer($0)) }
        }
        guard let device = device.map(Device.init(reading:)) else { return nil }
        switch message.pointee.type {
        case GST_MESSAGE_DEVICE_ADDED: return .deviceAdded(source: source, device)
        case GST_MESSAGE_DEVICE_REMOVED: return .deviceRemoved(source: source, device)
        default: return old.map { .deviceChanged(source: source, device: device, old: Device(reading: $0)) }
        }
    }

    static func parseMissingPlugin(_ message: UnsafeMutablePointer<GstMessage>) -> MissingPlugin {
        let structure = gst_message_get_structure(message)
        func field(_ name: String) -> String? {
            guard let structure, let value = gst_structure_get_value(structure, name) else { return nil }
            if let text = gst_structure_get_string(structure, name) { return String(cString: text) }
            if value.pointee.g_type == CGStreamerShim_type_caps(), let caps = gst_value_get_caps(value) {
                return Caps.string(of: caps)
            }
            return String(takingGString: gst_value_serialize(value))
        }
        return MissingPlugin(
            description: String(takingGString: gst_missing_plugin_message_get_description(message)) ?? "",
            installerDetail: String(takingGString: gst_missing_plugin_message_get_installer_detail(message)),
            kind: field("type"), detail: field("detail"))
    }

    private static func parseBufferingStats(_ message: UnsafeMutablePointer<GstMessage>) -> BufferingStats {
        var mode = GST_BUFFERING_STREAM
        var averageIn: gint = -1
        var averageOut: gint = -1
        var left: gint64 = -1
        gst_message_parse_buffering_stats(message, &mode, &averageIn, &averageOut, &left)
        let kind: BufferingStats.Mode =
            switch mode {
            case GST_BUFFERING_DOWNLOAD: .download
            case GST_BUFFERING_TIMESHIFT: .timeshift
            case GST_BUFFERING_LIVE: .live
            default: .stream
            }
        return BufferingStats(
            mode: kind, averageIn: Int(averageIn), averageOut: Int(averageOut), bufferingLeft: Int64(left))
    }

    private static func name(of element: UnsafeMutablePointer<GstElement>?) -> String? {
        element.flatMap { String(takingGString: gst_object_get_name(GstObject.of($0))) }
    }

    static func formatName(_ format: GstFormat) -> String {
        gst_format_get_name(format).map { String(cString: $0) } ?? "undefined"
    }

    private static func streamStatusName(_ type: GstStreamStatusType) -> String {
        switch type {
        case GST_STREAM_STATUS_TYPE_CREATE: "create"
        case GST_STREAM_STATUS_TYPE_ENTER: "enter"
        case GST_STREAM_STATUS_TYPE_LEAVE: "leave"
        case GST_STREAM_STATUS_TYPE_DESTROY: "destroy"
        case GST_STREAM_STATUS_TYPE_START: "start"
        case GST_STREAM_STATUS_TYPE_PAUSE: "pause"
        default: "stop"
        }
    }
}

/// A step's fields as the parse functions write them.
private struct RawStep {
    var format = GST_FORMAT_UNDEFINED
    var amount: guint64 = 0
    var rate: gdouble = 1
    var flush: gboolean = 0
    var intermediate: gboolean = 0

    var value: Step {
        Step(
            format: Message.formatName(format), amount: UInt64(amount), rate: rate, flush: flush != 0,
            intermediate: intermediate != 0)
    }
}

extension Progress.Kind {
    init(_ type: GstProgressType) {
        switch type {
        case GST_PROGRESS_TYPE_START: self = .start
        case GST_PROGRESS_TYPE_CONTINUE: self = .continue
        case GST_PROGRESS_TYPE_COMPLETE: self = .complete
        case GST_PROGRESS_TYPE_CANCELED: self = .canceled
        default: self = .error
        }
    }
}

extension StreamInfo {
    init(_ stream: UnsafeMutablePointer<GstStream>) {
        let type = gst_stream_get_stream_type(stream)
        let kinds: [(GstStreamType, String)] = [
            (GST_STREAM_TYPE_AUDIO, "audio"), (GST_STREAM_TYPE_VIDEO, "video"),
            (GST_STREAM_TYPE_CONTAINER, "container"), (GST_STREAM_TYPE_TEXT, "text")
        ]
        self.init(
            streamID: gst_stream_get_stream_id(stream).map { String(cString: $0) } ?? "",
            kinds: kinds.filter { type.rawValue & $0.0.rawValue != 0 }.map(\.1),
            caps: gst_stream_get_caps(stream).map { Caps(taking: $0) },
            tags: gst_stream_get_tags(stream).map { TagList(taking: $0) })
    }
}

extension StreamCollection {
    init(_ collection: UnsafeMutablePointer<GstStreamCollection>?) {
        guard let collection else {
            self.init(upstreamID: nil, streams: [])
            return
        }
        self.init(
            upstreamID: gst_stream_collection_get_upstream_id(collection).map { String(cString: $0) },
            streams: (0..<gst_stream_collection_get_size(collection)).compactMap { index in
                gst_stream_collection_get_stream(collection, index).map { StreamInfo($0) }
            })
    }
}
