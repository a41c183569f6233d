import CGStreamer
import CGStreamerShim

// What an application needs around elements whose pads come and go (uridecodebin and friends):
// the signals they emit and their source pads.

extension Element {
    /// Calls `handler` when the element has made all the source pads it will make for now
    /// (decodebin and uridecodebin: after the last stream is exposed, before data flows through it).
    /// Runs on a streaming thread; the handler lives as long as the element, or the connection.
    ///
    /// The corresponding C function is `g_signal_connect_closure` for "no-more-pads".
    ///
    /// - Parameter handler: Called each time the element signals "no-more-pads".
    /// - Returns: The connection, to disconnect it.
    @discardableResult
    public func onNoMorePads(_ handler: @escaping @Sendable () -> Void) -> SignalConnection {
        // The signal is GstElement's own: connecting cannot fail.
        try! connect("no-more-pads") { _ in handler() }
    }

    /// Calls `handler` with the caps of each stream for which no element can be found
    /// (uridecodebin and decodebin's "unknown-type": a decoder that is not installed).
    /// Runs on a streaming thread; the handler lives as long as the element, or the connection.
    ///
    /// The corresponding C function is `g_signal_connect_closure` for "unknown-type".
    ///
    /// - Parameter handler: Gets the caps of the stream no element handles.
    /// - Returns: The connection, or nil when the element has no "unknown-type" signal.
    @discardableResult
    public func onUnknownType(_ handler: @escaping @Sendable (Caps) -> Void) -> SignalConnection? {
        try? connect("unknown-type") { arguments in
            if let caps = arguments.dropFirst().first?.caps { handler(caps) }
        }
    }

    /// The element's source pads as they are now (a decoding bin's streams, once exposed).
    ///
    /// The corresponding C function is `gst_element_foreach_src_pad`.
    public var sourcePads: [Pad] {
        final class Collected { var pads: [Pad] = [] }
        let collected = Collected()
        _ = gst_element_foreach_src_pad(
            pointer,
            { _, pad, data in
                guard let pad, let data else { return 0 }
                Unmanaged<Collected>.fromOpaque(data).takeUnretainedValue().pads.append(Pad(pad, owned: false))
                return 1
            }, Unmanaged.passUnretained(collected).toOpaque())
        return collected.pads
    }

    /// True when this element sits inside `bin`, at any depth.
    ///
    /// The corresponding C function is `gst_object_has_as_ancestor`.
    ///
    /// - Parameter bin: A bin (or any element: then the answer is false).
    /// - Returns: Whether `bin` is a parent, grandparent, … of this element.
    public func isInside(_ bin: Element) -> Bool {
        gst_object_has_as_ancestor(
            UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstObject.self),
            UnsafeMutableRawPointer(bin.pointer).assumingMemoryBound(to: GstObject.self)) != 0
    }

    /// Posts an error from this element, as the element itself would (GST_STREAM_ERROR_FAILED).
    ///
    /// The corresponding C function is `gst_element_message_full` with `GST_MESSAGE_ERROR`.
    ///
    /// - Parameters:
    ///   - text: The message for the user.
    ///   - debug: Details for developers, or nil.
    public func postError(_ text: String, debug: String? = nil) {
        CGStreamerShim_element_post_error(pointer, 0, text, debug)
    }
}

extension Pad {
    /// True when the pad is linked to another.
    ///
    /// The corresponding C function is `gst_pad_is_linked`.
    public var isLinked: Bool { gst_pad_is_linked(pointer) != 0 }

    /// The length of the stream upstream of this (sink) pad, as its peer answers, in nanoseconds.
    ///
    /// The corresponding C function is `gst_pad_peer_query_duration`.
    public var peerDuration: ClockTime? {
        var value: gint64 = -1
        guard gst_pad_peer_query_duration(pointer, GST_FORMAT_TIME, &value) != 0, value >= 0 else { return nil }
        return ClockTime(value)
    }

    /// The latency of the data reaching this (sink) pad, as upstream answers: whether it is live, and
    /// the least and most time a sink must wait for data (nil: no bound); nil when nothing answers.
    ///
    /// The corresponding C functions are `gst_query_new_latency` and `gst_pad_peer_query`.
    public var peerLatency: (live: Bool, minimum: ClockTime, maximum: ClockTime?)? {
        let query = gst_query_new_latency()!
        defer { gst_query_unref(query) }
        guard gst_pad_peer_query(pointer, query) != 0 else { return nil }
        var live: gboolean = 0
        var minimum: GstClockTime = 0
        var maximum: GstClockTime = 0
        gst_query_parse_latency(query, &live, &minimum, &maximum)
        return (live != 0, ClockTime(minimum), maximum == GstClockTime.max ? nil : ClockTime(maximum))
    }
}

extension Caps {
    /// What GStreamer calls a decoder for these caps, such as "QDesign Music (QDM) decoder".
    ///
    /// The corresponding C function is `gst_pb_utils_get_decoder_description`.
    public var decoderDescription: String {
        gst_pb_utils_init()
        let description = String(takingGString: gst_pb_utils_get_decoder_description(pointer))
        return description ?? "\(mediaType ?? "unknown") decoder"
    }
}
