import CGStreamer

// The events that name streams: stream-start, the first event of every stream on a pad (its id, and a
// group id shared by the streams meant to play together), and select-streams, which an application
// sends to decodebin3 or playbin3 to choose among the streams of a collection.
extension Event {
    /// The start of a stream: its `streamID` (unique, stable for the same media: demuxers append their
    /// track to upstream's id) and the group it plays with. The first event a source pushes on a pad.
    ///
    /// The corresponding C functions are `gst_event_new_stream_start` and `gst_event_set_group_id`.
    ///
    /// - Parameters:
    ///   - streamID: The stream's id.
    ///   - groupID: The group shared by streams that play together (from ``nextGroupID()``); nil for none.
    /// - Returns: A new stream-start event.
    public static func streamStart(streamID: String, groupID: UInt? = nil) -> Event {
        let event = gst_event_new_stream_start(streamID)!
        // A new event is writable: its only reference is this one.
        if let groupID, let group = guint(exactly: groupID) { gst_event_set_group_id(event, group) }
        return Event(taking: event)
    }

    /// A group id no one has used yet in this process, for the streams a source starts together.
    ///
    /// The corresponding C function is `gst_util_group_id_next`.
    ///
    /// - Returns: A new group id (never 0, GStreamer's "no group").
    public static func nextGroupID() -> UInt { UInt(gst_util_group_id_next()) }

    /// A stream-start event's stream id and group id (nil when it has none). Nil for another kind of event.
    ///
    /// The corresponding C functions are `gst_event_parse_stream_start` and `gst_event_parse_group_id`.
    public var streamStart: (streamID: String, groupID: UInt?)? {
        guard pointer.pointee.type == GST_EVENT_STREAM_START else { return nil }
        var id: UnsafePointer<gchar>?
        gst_event_parse_stream_start(pointer, &id)
        var group: guint = 0
        let hasGroup = gst_event_parse_group_id(pointer, &group) != 0
        return (id.map { String(cString: $0) } ?? "", hasGroup ? UInt(group) : nil)
    }

    /// A request to play the streams with these ids and no others, sent with ``Element/send(_:)`` to a
    /// `playbin3` or `decodebin3` (the ids are those of the stream collection it posted). It answers with
    /// a streams-selected message once the switch is made.
    ///
    /// The corresponding C function is `gst_event_new_select_streams`.
    ///
    /// - Parameter streamIDs: The ids of the streams to play, one per kind usually (a video, an audio, a
    ///   subtitle stream).
    /// - Returns: A new select-streams event.
    /// - Throws: ``GStreamerError`` (invalid argument) for an empty list, which GStreamer refuses: to play no
    ///   stream of a kind, leave its id out of a list that names the others.
    public static func selectStreams(_ streamIDs: [String]) throws(GStreamerError) -> Event {
        guard !streamIDs.isEmpty else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "a select-streams event needs at least one stream id: name the streams to play")
        }
        var list: UnsafeMutablePointer<GList>?
        for id in streamIDs { list = g_list_append(list, g_strdup(id)) }
        // The event copies the strings.
        defer { g_list_free_full(list, g_free) }
        return Event(taking: gst_event_new_select_streams(list))
    }

    /// A select-streams event's stream ids. Nil for another kind of event.
    ///
    /// The corresponding C function is `gst_event_parse_select_streams`.
    public var selectedStreams: [String]? {
        guard pointer.pointee.type == GST_EVENT_SELECT_STREAMS else { return nil }
        var list: UnsafeMutablePointer<GList>?
        gst_event_parse_select_streams(pointer, &list)
        defer { g_list_free_full(list, g_free) }
        var ids: [String] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data { ids.append(String(cString: data.assumingMemoryBound(to: gchar.self))) }
            node = current.pointee.next
        }
        return ids
    }
}
