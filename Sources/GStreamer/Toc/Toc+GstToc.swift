import CGStreamer

// Converting between Toc and GstToc, both ways, and where GStreamer hands one out or takes one: the
// `toc` message a demuxer posts and the GstTocSetter interface of muxers.

extension Toc {
    /// Reads a GstToc (borrowed).
    init(reading toc: OpaquePointer) {
        scope = gst_toc_get_scope(toc) == GST_TOC_SCOPE_CURRENT ? .current : .global
        entries = Toc.entries(of: gst_toc_get_entries(toc))
    }

    private static func entries(of list: UnsafeMutablePointer<GList>?) -> [Entry] {
        var entries: [Entry] = []
        var node = list
        while let current = node {
            node = current.pointee.next
            guard let data = current.pointee.data else { continue }
            let entry = OpaquePointer(data)
            var start: gint64 = -1
            var stop: gint64 = -1
            gst_toc_entry_get_start_stop_times(entry, &start, &stop)
            let type = gst_toc_entry_get_entry_type(entry)
            let kind: Entry.Kind =
                switch type {
                case GST_TOC_ENTRY_TYPE_EDITION: .edition
                case GST_TOC_ENTRY_TYPE_CHAPTER: .chapter
                default: .other(String(cString: gst_toc_entry_type_get_nick(type)))
                }
            var title: String?
            if let tags = gst_toc_entry_get_tags(entry) {
                title = TagList(borrowing: tags)["title"]?.stringValue
            }
            entries.append(
                Entry(
                    kind: kind, uid: String(cString: gst_toc_entry_get_uid(entry)),
                    start: start < 0 ? nil : ClockTime(start), stop: stop < 0 ? nil : ClockTime(stop), title: title,
                    entries: Toc.entries(of: gst_toc_entry_get_sub_entries(entry))))
        }
        return entries
    }

    /// A new GstToc with this table's content; the caller owns it.
    func makeGstToc() -> OpaquePointer {
        let toc = gst_toc_new(scope == .current ? GST_TOC_SCOPE_CURRENT : GST_TOC_SCOPE_GLOBAL)!
        for entry in entries { gst_toc_append_entry(toc, Toc.makeEntry(entry)) }
        return toc
    }

    private static func makeEntry(_ entry: Entry) -> OpaquePointer {
        let type: GstTocEntryType =
            switch entry.kind {
            case .edition: GST_TOC_ENTRY_TYPE_EDITION
            case .chapter, .other: GST_TOC_ENTRY_TYPE_CHAPTER
            }
        let made = gst_toc_entry_new(type, entry.uid)!
        // A time past gint64 (ClockTime.max, GStreamer's "none") is unknown, as -1 says: not a trap.
        let (start, stop) = (
            entry.start.flatMap { gint64(exactly: $0) } ?? -1, entry.stop.flatMap { gint64(exactly: $0) } ?? -1
        )
        gst_toc_entry_set_start_stop_times(made, start, stop)
        if let title = entry.title {
            let tags = gst_tag_list_new_empty()!
            Value(title).withUnsafeGValue { gst_tag_list_add_value(tags, GST_TAG_MERGE_REPLACE, "title", $0) }
            gst_toc_entry_set_tags(made, tags)
        }
        for sub in entry.entries { gst_toc_entry_append_sub_entry(made, makeEntry(sub)) }
        return made
    }
}

extension PostedMessage {
    /// For a `toc` message (a demuxer's table of contents), the table; nil for any other message.
    ///
    /// The corresponding C function is `gst_message_parse_toc`.
    public var toc: Toc? {
        withUnsafeGstMessage { message -> Toc? in
            guard message.pointee.type == GST_MESSAGE_TOC else { return nil }
            var toc: OpaquePointer?
            var updated: gboolean = 0
            gst_message_parse_toc(message, &toc, &updated)
            guard let toc else { return nil }
            defer { gst_mini_object_unref(UnsafeMutablePointer<GstMiniObject>(toc)) }
            return Toc(reading: toc)
        }
    }
}

extension Element {
    /// True when the element takes a table of contents to write (`matroskamux`), through GstTocSetter.
    ///
    /// The corresponding C macro is `GST_IS_TOC_SETTER`.
    public var isTocSetter: Bool {
        g_type_check_instance_is_a(UnsafeMutablePointer(OpaquePointer(pointer)), gst_toc_setter_get_type()) != 0
    }

    /// Gives a muxer the table of contents to write, before it starts.
    ///
    /// The corresponding C function is `gst_toc_setter_set_toc`.
    ///
    /// - Parameter toc: The table; nil to clear it.
    /// - Throws: ``GStreamerError`` (invalid argument) when the element takes no table (``isTocSetter``).
    public func setToc(_ toc: Toc?) throws(GStreamerError) {
        guard isTocSetter else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "\(name) takes no table of contents (it is no GstTocSetter): give it to a muxer such as "
                    + "matroskamux", source: name)
        }
        let made = toc?.makeGstToc()
        gst_toc_setter_set_toc(OpaquePointer(pointer), made)
        if let made { gst_mini_object_unref(UnsafeMutablePointer<GstMiniObject>(made)) }
    }
}
