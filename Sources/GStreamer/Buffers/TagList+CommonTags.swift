import CGStreamer

// The tags most files and streams carry, by name: typed properties over TagList's generic access.

extension TagList {
    private func string(_ tag: String) -> String? {
        var text: UnsafeMutablePointer<gchar>?
        guard gst_tag_list_get_string(pointer, tag, &text) != 0 else { return nil }
        return String(takingGString: text)
    }

    private mutating func setString(_ tag: String, _ value: String?) {
        guard let value else { return remove(tag) }
        try? set(tag, value)
    }

    private func uint(_ tag: String) -> UInt? {
        var value: guint = 0
        guard gst_tag_list_get_uint(pointer, tag, &value) != 0 else { return nil }
        return UInt(value)
    }

    /// Replaces `tag`'s values by one boxed value of GType `type` (a GDate, a GstDateTime), which the
    /// list copies.
    private mutating func replace(_ tag: String, boxed: UnsafeRawPointer, type: GType) {
        var value = GValue()
        g_value_init(&value, type)
        defer { g_value_unset(&value) }
        g_value_set_boxed(&value, boxed)
        gst_tag_list_add_value(writablePointer(), GST_TAG_MERGE_REPLACE, tag, &value)
    }

    /// "title": the title of the work.
    public var title: String? {
        get { string("title") }
        set { setString("title", newValue) }
    }

    /// "artist": the person(s) responsible for the recording.
    public var artist: String? {
        get { string("artist") }
        set { setString("artist", newValue) }
    }

    /// "album": the album the work belongs to.
    public var album: String? {
        get { string("album") }
        set { setString("album", newValue) }
    }

    /// "comment": free text.
    public var comment: String? {
        get { string("comment") }
        set { setString("comment", newValue) }
    }

    /// "genre".
    public var genre: String? {
        get { string("genre") }
        set { setString("genre", newValue) }
    }

    /// "language-code": the language of the stream, as ISO 639-1 or 639-2 ("en", "deu").
    public var languageCode: String? {
        get { string("language-code") }
        set { setString("language-code", newValue) }
    }

    /// "image-orientation": how to turn the picture to show it upright ("rotate-90", "flip-rotate-0", ...).
    public var imageOrientation: String? {
        get { string("image-orientation") }
        set { setString("image-orientation", newValue) }
    }

    /// "codec": the stream's codec, as a human-readable name.
    public var codec: String? { string("codec") }
    /// "video-codec", such as "H.264 / AVC".
    public var videoCodec: String? { string("video-codec") }
    /// "audio-codec", such as "Free Lossless Audio Codec (FLAC)".
    public var audioCodec: String? { string("audio-codec") }
    /// "subtitle-codec".
    public var subtitleCodec: String? { string("subtitle-codec") }
    /// "container-format", such as "ISO MP4/M4A".
    public var containerFormat: String? { string("container-format") }
    /// "encoder": the encoder that made the stream.
    public var encoder: String? { string("encoder") }

    /// "bitrate": the exact or average bits per second.
    public var bitrate: UInt? { uint("bitrate") }
    /// "nominal-bitrate".
    public var nominalBitrate: UInt? { uint("nominal-bitrate") }
    /// "maximum-bitrate".
    public var maximumBitrate: UInt? { uint("maximum-bitrate") }
    /// "minimum-bitrate".
    public var minimumBitrate: UInt? { uint("minimum-bitrate") }

    /// "duration": the length in nanoseconds, when the tags say.
    public var duration: ClockTime? {
        var value: guint64 = 0
        guard gst_tag_list_get_uint64(pointer, "duration", &value) != 0, value != GstClockTime.max else { return nil }
        return ClockTime(value)
    }

    /// "date": the date the work was created (a calendar date, no time of day).
    ///
    /// The corresponding C functions are `gst_tag_list_get_date` and `g_date_new_dmy`.
    public var date: DateTime? {
        get {
            var date: UnsafeMutablePointer<GDate>?
            guard gst_tag_list_get_date(pointer, "date", &date) != 0, let date else { return nil }
            defer { g_date_free(date) }
            guard g_date_valid(date) != 0 else { return nil }
            return DateTime(
                year: Int(g_date_get_year(date)), month: Int(g_date_get_month(date).rawValue),
                day: Int(g_date_get_day(date)))
        }
        set { try? setDate(newValue) }
    }

    /// Sets "date" (nil removes it), throwing for a date a GDate cannot hold; the ``date`` setter, which
    /// cannot throw, leaves the tag as it was instead.
    ///
    /// The corresponding C functions are `g_date_valid_dmy` and `g_date_new_dmy`.
    ///
    /// - Parameter date: A calendar date with a year from 1 to 65535, a month and a day; its time of day,
    ///   if any, is not kept (see ``dateTime``).
    /// - Throws: ``GStreamerError`` (invalid argument) for a date without a month or day, or not in GDate's
    ///   calendar (year 70000, February 30).
    public mutating func setDate(_ date: DateTime?) throws(GStreamerError) {
        guard let date else { return remove("date") }
        guard let month = date.month, let day = date.day, (1...12).contains(month), (1...31).contains(day),
            (1...Int(UInt16.max)).contains(date.year),
            g_date_valid_dmy(GDateDay(day), GDateMonth(UInt32(month)), GDateYear(date.year)) != 0,
            let made = g_date_new_dmy(GDateDay(day), GDateMonth(UInt32(month)), GDateYear(date.year))
        else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "\(date) is no calendar date a tag can hold: give a year from 1 to 65535, a month and a day")
        }
        defer { g_date_free(made) }
        replace("date", boxed: made, type: g_date_get_type())
    }

    /// "datetime": the date and time the work was created, as precise as the tags say.
    ///
    /// The corresponding C functions are `gst_tag_list_get_date_time` and `gst_date_time_new`.
    public var dateTime: DateTime? {
        get {
            var value: OpaquePointer?
            guard gst_tag_list_get_date_time(pointer, "datetime", &value) != 0, let value else { return nil }
            defer { gst_date_time_unref(value) }
            return DateTime(value)
        }
        set { try? setDateTime(newValue) }
    }

    /// Sets "datetime" (nil removes it), throwing for a value GstDateTime cannot hold; the ``dateTime``
    /// setter, which cannot throw, leaves the tag as it was instead.
    ///
    /// The corresponding C function is `gst_date_time_new`.
    ///
    /// - Parameter dateTime: A date and time with a year from 1 to 9999, its fields given from the year down.
    /// - Throws: ``GStreamerError`` (invalid argument) naming the field out of range.
    public mutating func setDateTime(_ dateTime: DateTime?) throws(GStreamerError) {
        guard let dateTime else { return remove("datetime") }
        if let problem = dateTime.gstDateTimeProblem {
            throw GStreamerError(kind: .invalidArgument, message: "a datetime tag cannot hold it: \(problem)")
        }
        guard let made = dateTime.makeGstDateTime() else {
            throw GStreamerError(kind: .invalidArgument, message: "GStreamer refused the datetime \(dateTime)")
        }
        defer { gst_date_time_unref(made) }
        replace("datetime", boxed: UnsafeRawPointer(made), type: gst_date_time_get_type())
    }
}
