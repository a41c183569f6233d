import CGStreamer
import CGStreamerShim
import Synchronization

/// A message from a pipeline's bus, in Swift terms.
public enum Message: Sendable, CustomStringConvertible {
    /// Every sink has received end of stream.
    case endOfStream(source: String?)
    /// An element failed; the pipeline should stop.
    case error(GStreamerError)
    /// An element reports a problem it could recover from.
    case warning(GStreamerError)
    /// An element changed state.
    case stateChanged(source: String?, old: State, new: State, pending: State)
    /// A watched property changed (`Pipeline.watchCaps()`): the object's path in the pipeline, the
    /// property and its new value serialized.
    case propertyNotify(object: String, property: String, value: String?)
    /// Any other message, by GStreamer's name for its type ("async-done", "stream-start", ...) and,
    /// when it carries one, its structure serialized.
    case other(type: String, source: String?, details: String?)

    public var description: String {
        switch self {
        case .endOfStream(let source): return "eos from \(source ?? "?")"
        case .error(let error): return "error from \(error.source ?? "?"): \(error.message)"
        case .warning(let error): return "warning from \(error.source ?? "?"): \(error.message)"
        case .stateChanged(let source, let old, let new, let pending):
            return "state-changed from \(source ?? "?"): \(old) -> \(new) (pending \(pending))"
        case .propertyNotify(let object, let property, let value):
            return "\(object): \(property) = \(value ?? "NULL")"
        case .other(let type, let source, let details):
            return "\(type) from \(source ?? "?")" + (details.map { ": \($0)" } ?? "")
        }
    }

    init(_ message: UnsafeMutablePointer<GstMessage>) {
        var source = message.pointee.src.flatMap { $0.pointee.name }.map { String(cString: $0) }
        switch message.pointee.type {
        case GST_MESSAGE_EOS:
            self = .endOfStream(source: source)
        case GST_MESSAGE_ERROR, GST_MESSAGE_WARNING:
            source = Message.swiftElementName(containing: message.pointee.src) ?? source
            var error: UnsafeMutablePointer<GError>?
            var debug: UnsafeMutablePointer<gchar>?
            let isError = message.pointee.type == GST_MESSAGE_ERROR
            if isError {
                gst_message_parse_error(message, &error, &debug)
            } else {
                gst_message_parse_warning(message, &error, &debug)
            }
            let debugText = debug.map { String(cString: $0) }
            g_free(debug)
            let parsed = GStreamerError(taking: error, kind: .runtime, source: source, debug: debugText)
            self = isError ? .error(parsed) : .warning(parsed)
        case GST_MESSAGE_STATE_CHANGED:
            var old = GST_STATE_VOID_PENDING
            var new = GST_STATE_VOID_PENDING
            var pending = GST_STATE_VOID_PENDING
            gst_message_parse_state_changed(message, &old, &new, &pending)
            self = .stateChanged(source: source, old: State(old), new: State(new), pending: State(pending))
        case GST_MESSAGE_PROPERTY_NOTIFY:
            var object: UnsafeMutablePointer<GstObject>?
            var property: UnsafePointer<gchar>?
            var value: UnsafePointer<GValue>?
            gst_message_parse_property_notify(message, &object, &property, &value)
            let path = object.flatMap { gst_object_get_path_string($0) }
            defer { g_free(path) }
            var serialized: String?
            if let value {
                // As gst-launch-1.0 -v shows them: caps and strings plain, anything else by GLib.
                let text: UnsafeMutablePointer<gchar>? =
                    if value.pointee.g_type == gst_caps_get_type() {
                        gst_caps_to_string(gst_value_get_caps(value))
                    } else {
                        g_strdup_value_contents(value)
                    }
                serialized = text.map { String(cString: $0) }
                g_free(text)
            }
            self = .propertyNotify(
                object: path.map { String(cString: $0) } ?? source ?? "?",
                property: property.map { String(cString: $0) } ?? "?", value: serialized)
        default:
            let type = gst_message_type_get_name(message.pointee.type).map { String(cString: $0) } ?? "unknown"
            var details: String?
            if let structure = gst_message_get_structure(message), let text = gst_structure_to_string(structure) {
                details = String(cString: text)
                g_free(text)
            }
            self = .other(type: type, source: source, details: details)
        }
    }
}

extension Message {
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

/// Routes a pipeline's bus messages into one AsyncStream, from a bus sync handler
/// (`gst_bus_set_sync_handler`), never by polling. Remembers the first error for failed state changes.
final class BusRouter: Sendable {
    let messages: AsyncStream<Message>
    private let continuation: AsyncStream<Message>.Continuation
    private let firstErrorStorage = Mutex<GStreamerError?>(nil)

    init(pipeline: UnsafeMutablePointer<GstElement>) {
        let bus = gst_pipeline_get_bus(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstPipeline.self))!
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        // Bounded: a pipeline nobody listens to must not grow without limit.
        (messages, continuation) = AsyncStream.makeStream(of: Message.self, bufferingPolicy: .bufferingNewest(4096))
        let box = Unmanaged.passRetained(self).toOpaque()
        gst_bus_set_sync_handler(
            bus,
            { _, message, userData in
                guard let message, let userData else { return GST_BUS_DROP }
                let router = Unmanaged<BusRouter>.fromOpaque(userData).takeUnretainedValue()
                router.route(Message(message))
                gst_message_unref(message)
                return GST_BUS_DROP
            }, box,
            { userData in
                guard let userData else { return }
                Unmanaged<BusRouter>.fromOpaque(userData).release()
            })
    }

    var firstError: GStreamerError? { firstErrorStorage.withLock { $0 } }

    /// Forgets the first error (the pipeline was stopped; a new run starts clean).
    func resetFirstError() {
        firstErrorStorage.withLock { $0 = nil }
    }

    private func route(_ message: Message) {
        if case .error(let error) = message {
            firstErrorStorage.withLock { first in
                if first == nil { first = error }
            }
        }
        continuation.yield(message)
    }

    static let runStartType = "gstpipe-run-start"
    private let runCount = Mutex(0)

    /// Puts a marker into the stream, after every message routed so far; returns its details text.
    func markRunStart(source: String?) -> String {
        let details = runCount.withLock { count in
            count += 1
            return "run \(count)"
        }
        continuation.yield(.other(type: BusRouter.runStartType, source: source, details: details))
        return details
    }

    /// Ends the stream (after the pipeline reached NULL and will post nothing that matters).
    func finish() {
        continuation.finish()
    }
}
