import CGStreamer
import CGStreamerShim

/// A message from a pipeline's bus, in Swift terms. Every case names the element that posted it
/// (`source`; for errors, warnings and infos, the error's `source`). A message posted from inside a
/// Swift element (its appsrc or appsink) names the Swift element.
public enum Message: Sendable, CustomStringConvertible {
    /// Every sink has received end of stream.
    case endOfStream(source: String?)
    /// An element failed; the pipeline should stop.
    case error(GStreamerError)
    /// An element reports a problem it could recover from.
    case warning(GStreamerError)
    /// An element reports something worth knowing that is no problem.
    case info(GStreamerError)
    /// An element changed state.
    case stateChanged(source: String?, old: State, new: State, pending: State)
    /// An asynchronous state change completed (the pipeline prerolled, or a flushing seek finished),
    /// with the running time it completed at when known.
    case asyncDone(source: String?, runningTime: ClockTime?)
    /// Metadata found in the stream (title, codecs, bitrate, ...).
    case tag(source: String?, tags: TagList)
    /// An element-specific message, such as `level`'s or `spectrum`'s measurements.
    case element(source: String?, structure: Structure)
    /// A message the application posted itself (`Element.postApplicationMessage`).
    case application(source: String?, structure: Structure)
    /// How full a buffering element is, 0...100: a player pauses below 100 and plays at 100.
    case buffering(source: String?, percent: Int)
    /// The duration changed: query it again (`Element.duration`).
    case durationChanged(source: String?)
    /// An element's latency changed: the pipeline recalculates it (GstBin does so by itself).
    case latency(source: String?)
    /// The clock went away: a player sets PAUSED then PLAYING to select a new one.
    case clockLost(source: String?)
    /// An element dropped or late-rendered data (quality of service).
    case qos(source: String?, QualityOfService)
    /// A new stream started, with its group id when it has one.
    case streamStart(source: String?, groupID: UInt?)
    /// A watched property changed (`Pipeline.watchCaps()`): the object's path in the pipeline, the
    /// property and its new value serialized.
    case propertyNotify(object: String, property: String, value: String?)
    /// Any other message, by GStreamer's name for its type ("need-context", "stream-status", ...) and,
    /// when it carries one, its structure serialized.
    case other(type: String, source: String?, details: String?)

    /// The name of the element (or object) that posted the message.
    public var source: String? {
        switch self {
        case .error(let error), .warning(let error), .info(let error): error.source
        case .propertyNotify(let object, _, _): object
        case .endOfStream(let source), .stateChanged(let source, _, _, _), .asyncDone(let source, _),
            .tag(let source, _), .element(let source, _), .application(let source, _), .buffering(let source, _),
            .durationChanged(let source), .latency(let source), .clockLost(let source), .qos(let source, _),
            .streamStart(let source, _), .other(_, let source, _):
            source
        }
    }

    /// GStreamer's name for the message type, such as "eos" or "state-changed".
    ///
    /// The corresponding C function is `gst_message_type_get_name`.
    public var typeName: String {
        switch self {
        case .endOfStream: "eos"
        case .error: "error"
        case .warning: "warning"
        case .info: "info"
        case .stateChanged: "state-changed"
        case .asyncDone: "async-done"
        case .tag: "tag"
        case .element: "element"
        case .application: "application"
        case .buffering: "buffering"
        case .durationChanged: "duration-changed"
        case .latency: "latency"
        case .clockLost: "clock-lost"
        case .qos: "qos"
        case .streamStart: "stream-start"
        case .propertyNotify: "property-notify"
        case .other(let type, _, _): type
        }
    }

    /// The message for logs: its type, where it comes from and what it says, such as
    /// "error from filesrc0: Resource not found.".
    public var description: String {
        let from = "\(typeName) from \(source ?? "?")"
        switch self {
        case .endOfStream(let source): return "eos from \(source ?? "?")"
        case .error(let error), .warning(let error), .info(let error): return "\(from): \(error.message)"
        case .stateChanged(_, let old, let new, let pending): return "\(from): \(old) -> \(new) (pending \(pending))"
        case .propertyNotify(let object, let property, let value): return "\(object): \(property) = \(value ?? "NULL")"
        case .tag(_, let tags): return "\(from): \(tags)"
        case .element(_, let structure), .application(_, let structure): return "\(from): \(structure)"
        case .buffering(_, let percent): return "\(from): \(percent)%"
        case .qos(_, let qos): return "\(from): \(qos)"
        case .streamStart(_, let group): return from + (group.map { ": group \($0)" } ?? "")
        case .other(_, _, let details): return from + (details.map { ": \($0)" } ?? "")
        case .asyncDone, .durationChanged, .latency, .clockLost: return from
        }
    }
}

// MARK: Conversion from GstMessage (internal)

extension Message {
    init(_ message: UnsafeMutablePointer<GstMessage>) {
        let source = message.pointee.src.flatMap { $0.pointee.name }.map { String(cString: $0) }
        switch message.pointee.type {
        case GST_MESSAGE_EOS:
            self = .endOfStream(source: source)
        case GST_MESSAGE_ERROR, GST_MESSAGE_WARNING, GST_MESSAGE_INFO:
            self = Message.parseError(message, source: Message.swiftElementName(containing: message.pointee.src) ?? source)
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
            guard let structure = gst_message_get_structure(message).map({ Structure(copying: $0) }) else {
                self = .other(type: Message.typeName(message), source: source, details: nil)
                return
            }
            self =
                message.pointee.type == GST_MESSAGE_ELEMENT
                ? .element(source: source, structure: structure) : .application(source: source, structure: structure)
        case GST_MESSAGE_BUFFERING:
            var percent: gint = 0
            gst_message_parse_buffering(message, &percent)
            self = .buffering(source: source, percent: Int(percent))
        case GST_MESSAGE_DURATION_CHANGED:
            self = .durationChanged(source: source)
        case GST_MESSAGE_LATENCY:
            self = .latency(source: source)
        case GST_MESSAGE_CLOCK_LOST:
            self = .clockLost(source: source)
        case GST_MESSAGE_QOS:
            self = .qos(source: source, Message.parseQoS(message))
        case GST_MESSAGE_STREAM_START:
            var group: guint = 0
            let hasGroup = gst_message_parse_group_id(message, &group) != 0
            self = .streamStart(source: source, groupID: hasGroup ? UInt(group) : nil)
        case GST_MESSAGE_PROPERTY_NOTIFY:
            self = Message.parsePropertyNotify(message, source: source)
        default:
            var details: String?
            if let structure = gst_message_get_structure(message), let text = gst_structure_to_string(structure) {
                details = String(cString: text)
                g_free(text)
            }
            self = .other(type: Message.typeName(message), source: source, details: details)
        }
    }

    static func typeName(_ message: UnsafeMutablePointer<GstMessage>) -> String {
        gst_message_type_get_name(message.pointee.type).map { String(cString: $0) } ?? "unknown"
    }

    private static func clockTime(_ time: GstClockTime) -> ClockTime? {
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
            live: live != 0, runningTime: clockTime(GstClockTime(runningTime)), streamTime: clockTime(GstClockTime(streamTime)),
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
        guard CGStreamerShim_bin_swift_object(UnsafeMutableRawPointer(parent).assumingMemoryBound(to: GstElement.self)) != nil
        else { return nil }
        return parent.pointee.name.map { String(cString: $0) }
    }
}
