import CGStreamer
import CGStreamerShim

// Conversion from GstMessage (internal): the kinds every pipeline posts here, the rest in
// Message+Parsing.swift.

extension Message {
    init(_ message: UnsafeMutablePointer<GstMessage>) {
        let source = message.pointee.src.flatMap { $0.pointee.name }.map { String(cString: $0) }
        switch message.pointee.type {
        case GST_MESSAGE_EOS:
            self = .endOfStream(source: source)
        case GST_MESSAGE_ERROR, GST_MESSAGE_WARNING, GST_MESSAGE_INFO:
            self = Message.parseError(
                message, source: Message.swiftElementName(containing: message.pointee.src) ?? source)
        case GST_MESSAGE_STATE_CHANGED:
            var old = GST_STATE_VOID_PENDING
            var new = GST_STATE_VOID_PENDING
            var pending = GST_STATE_VOID_PENDING
            gst_message_parse_state_changed(message, &old, &new, &pending)
            self = .stateChanged(source: source, old: State(old), new: State(new), pending: State(pending))
        case GST_MESSAGE_ASYNC_DONE:
            var time: GstClockTime = GstClockTime.max
            gst_message_parse_async_done(message, &time)
            self = .asyncDone(source: source, runningTime: Message.clockTime(time))
        case GST_MESSAGE_TAG:
            var tags: UnsafeMutablePointer<GstTagList>?
            gst_message_parse_tag(message, &tags)
            self = .tag(source: source, tags: tags.map { TagList(taking: $0) } ?? TagList())
        case GST_MESSAGE_ELEMENT, GST_MESSAGE_APPLICATION:
            self = Message.parseStructured(message, source: source)
        case GST_MESSAGE_DURATION_CHANGED:
            self = .durationChanged(source: source)
        case GST_MESSAGE_LATENCY:
            self = .latency(source: source)
        case GST_MESSAGE_CLOCK_LOST:
            self = .clockLost(source: source)
        case GST_MESSAGE_ASYNC_START:
            self = .asyncStart(source: source)
        case GST_MESSAGE_QOS:
            self = .qos(source: source, Message.parseQoS(message))
        case GST_MESSAGE_STREAM_START:
            var group: guint = 0
            let hasGroup = gst_message_parse_group_id(message, &group) != 0
            self = .streamStart(source: source, groupID: hasGroup ? UInt(group) : nil)
        case GST_MESSAGE_PROPERTY_NOTIFY:
            self = Message.parsePropertyNotify(message, source: source)
        default:
            if let typed = Message.parseFlow(message, source: source) ?? Message.parseSetup(message, source: source) {
                self = typed
                return
            }
            var details: String?
            if let structure = gst_message_get_structure(message), let text = gst_structure_to_string(structure) {
                details = String(cString: text)
                g_free(text)
            }
            self = .other(type: Message.typeName(message), source: source, details: details)
        }
    }

    /// An element or application message: a missing-plugin message typed as such, any other with its
    /// structure.
    private static func parseStructured(_ message: UnsafeMutablePointer<GstMessage>, source: String?) -> Message {
        if gst_is_missing_plugin_message(message) != 0 {
            return .missingPlugin(source: source, parseMissingPlugin(message))
        }
        guard let structure = gst_message_get_structure(message).map({ Structure(copying: $0) }) else {
            return .other(type: typeName(message), source: source, details: nil)
        }
        return message.pointee.type == GST_MESSAGE_ELEMENT
            ? .element(source: source, structure: structure) : .application(source: source, structure: structure)
    }

    static func typeName(_ message: UnsafeMutablePointer<GstMessage>) -> String {
        gst_message_type_get_name(message.pointee.type).map { String(cString: $0) } ?? "unknown"
    }

    static func clockTime(_ time: GstClockTime) -> ClockTime? {
        time == GstClockTime.max ? nil : ClockTime(time)
    }

    private static func parseError(_ message: UnsafeMutablePointer<GstMessage>, source: String?) -> Message {
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        let type = message.pointee.type
        switch type {
        case GST_MESSAGE_ERROR: gst_message_parse_error(message, &error, &debug)
        case GST_MESSAGE_WARNING: gst_message_parse_warning(message, &error, &debug)
        default: gst_message_parse_info(message, &error, &debug)
        }
        let debugText = debug.map { String(cString: $0) }
        g_free(debug)
        let parsed = GStreamerError(taking: error, kind: .runtime, source: source, debug: debugText)
        switch type {
        case GST_MESSAGE_ERROR: return .error(parsed)
        case GST_MESSAGE_WARNING: return .warning(parsed)
        default: return .info(parsed)
        }
    }

    private static func parseQoS(_ message: UnsafeMutablePointer<GstMessage>) -> QualityOfService {
        var live: gboolean = 0
        var runningTime: guint64 = .max, streamTime: guint64 = .max, timestamp: guint64 = .max, duration: guint64 = .max
        gst_message_parse_qos(message, &live, &runningTime, &streamTime, &timestamp, &duration)
        var jitter: gint64 = 0
        var proportion: gdouble = 0
        var quality: gint = 0
        gst_message_parse_qos_values(message, &jitter, &proportion, &quality)
        var format = GST_FORMAT_UNDEFINED
        var processed: guint64 = .max, dropped: guint64 = .max
        gst_message_parse_qos_stats(message, &format, &processed, &dropped)
        return QualityOfService(
            live: live != 0, runningTime: clockTime(GstClockTime(runningTime)),
            streamTime: clockTime(GstClockTime(streamTime)),
            timestamp: clockTime(GstClockTime(timestamp)), duration: clockTime(GstClockTime(duration)),
            jitter: Int64(jitter), proportion: proportion, quality: Int(quality),
            processed: processed == .max ? nil : UInt64(processed), dropped: dropped == .max ? nil : UInt64(dropped),
            processedFormat: gst_format_get_name(format).map { String(cString: $0) } ?? "undefined")
    }

    private static func parsePropertyNotify(_ message: UnsafeMutablePointer<GstMessage>, source: String?) -> Message {
        var object: UnsafeMutablePointer<GstObject>?
        var property: UnsafePointer<gchar>?
        var value: UnsafePointer<GValue>?
        gst_message_parse_property_notify(message, &object, &property, &value)
        let path = object.flatMap { String(takingGString: gst_object_get_path_string($0)) }
        // As gst-launch-1.0 -v shows them: caps and strings plain, anything else by GLib.
        let serialized = value.flatMap { value in
            String(
                takingGString: value.pointee.g_type == gst_caps_get_type()
                    ? gst_caps_to_string(gst_value_get_caps(value)) : g_strdup_value_contents(value))
        }
        return .propertyNotify(
            object: path ?? source ?? "?",
            property: property.map { String(cString: $0) } ?? "?", value: serialized)
    }

    /// The name of the Swift element when `object` is the appsrc or appsink inside one: errors must
    /// name an element of the user's pipeline ("gray1"), not a child they never saw ("appsrc").
    static func swiftElementName(containing object: UnsafeMutablePointer<GstObject>?) -> String? {
        guard let object, let parent = gst_object_get_parent(object) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(parent)) }
        guard
            CGStreamerShim_swift_element_swift_object(
                UnsafeMutableRawPointer(parent).assumingMemoryBound(to: GstElement.self)) != nil
        else { return nil }
        return parent.pointee.name.map { String(cString: $0) }
    }
}
