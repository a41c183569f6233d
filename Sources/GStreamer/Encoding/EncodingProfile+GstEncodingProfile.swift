import CGStreamer

// GstEncodingProfile is an opaque GObject (Swift sees an OpaquePointer). The Swift value is the
// profile; a GstEncodingProfile is made from it only for as long as GStreamer needs one.

extension EncodingProfile {
    /// A profile from GStreamer's serialized form: a colon-separated list whose first entry is the
    /// container and the others its streams, each `[restriction->]format[+preset][|presence]`, such as
    /// `"video/webm:video/x-vp8:audio/x-vorbis"` or
    /// `"video/quicktime,variant=iso:video/x-raw,width=320,height=240->video/x-h264:audio/mpeg,mpegversion=4"`;
    /// also a target's name and profile (`"webm"`, `"webm/default"`) from GStreamer's encoding targets.
    ///
    /// The corresponding C function is `gst_value_deserialize` on a `GstEncodingProfile` value
    /// (`gst_encoding_profile_from_string` arrived after GStreamer 1.22).
    ///
    /// - Parameter string: The serialized profile.
    /// - Throws: ``GStreamerError`` (invalid argument) naming `string` and, where one is at fault, the entry
    ///   that is not caps; also when GStreamer cannot be initialized.
    public init(string: String) throws(GStreamerError) {
        try GStreamer.initialize()
        // GStreamer 1.22 logs critical warnings for entries that are not caps, and quietly drops every
        // entry after an empty one: both are refused here first, with the entry named.
        let entries = Self.entries(of: string)
        for (index, entry) in entries.enumerated() {
            guard let bad = Self.badCaps(inEntry: entry) else { continue }
            throw GStreamerError(
                kind: .invalidArgument,
                message: "\"\(string)\" is not an encoding profile: entry \(index + 1) "
                    + (bad.isEmpty ? "is empty" : "\"\(bad)\" is not caps")
                    + " (write container:stream:stream, each [restriction->]caps[+preset][|presence])")
        }
        var value = GValue()
        g_value_init(&value, gst_encoding_profile_get_type())
        defer { g_value_unset(&value) }
        guard gst_value_deserialize(&value, string) != 0, let object = g_value_get_object(&value) else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "\"\(string)\" is not an encoding profile: GStreamer could not read it as caps or as an "
                    + "encoding target's name (write container:stream:stream, such as "
                    + "video/webm:video/x-vp8:audio/x-vorbis)")
        }
        self.init(reading: OpaquePointer(object))
    }

    /// The profile in GStreamer's serialized form, which ``init(string:)`` reads back: formats,
    /// restrictions and presence (GStreamer 1.22 writes neither names nor presets).
    ///
    /// The corresponding C function is `gst_value_serialize`.
    ///
    /// - Returns: The serialized profile, such as `"video/webm:video/x-vp8:audio/x-vorbis"`.
    /// - Throws: ``GStreamerError`` (invalid argument) when a presence is negative or too large.
    public func serialized() throws(GStreamerError) -> String {
        let profile = try makeGstProfile()
        defer { g_object_unref(UnsafeMutableRawPointer(profile)) }
        var value = GValue()
        g_value_init(&value, gst_encoding_profile_get_type())
        defer { g_value_unset(&value) }
        g_value_set_object(&value, UnsafeMutableRawPointer(profile))
        return String(takingGString: gst_value_serialize(&value)) ?? ""
    }

    /// Reads a GstEncodingProfile (borrowed) and its stream profiles.
    init(reading profile: OpaquePointer) {
        let nick = gst_encoding_profile_get_type_nick(profile).map { String(cString: $0) }
        var streams: [EncodingProfile] = []
        if nick == "container" {
            var list = gst_encoding_container_profile_get_profiles(profile)
            while let node = list {
                if let child = node.pointee.data { streams.append(EncodingProfile(reading: OpaquePointer(child))) }
                list = UnsafePointer(node.pointee.next)
            }
        }
        self.init(
            kind: Kind(rawValue: nick ?? "") ?? .container,
            format: gst_encoding_profile_get_format(profile).map { Caps(taking: $0) } ?? Caps.any,
            restriction: gst_encoding_profile_get_restriction(profile).map { Caps(taking: $0) },
            preset: gst_encoding_profile_get_preset(profile).map { String(cString: $0) },
            elementFactory: gst_encoding_profile_get_preset_name(profile).map { String(cString: $0) },
            presence: Int(gst_encoding_profile_get_presence(profile)),
            name: gst_encoding_profile_get_name(profile).map { String(cString: $0) },
            description: gst_encoding_profile_get_description(profile).map { String(cString: $0) },
            streams: streams)
    }

    /// A new GstEncodingProfile (one reference, the caller's) for this profile and its streams.
    func makeGstProfile() throws(GStreamerError) -> OpaquePointer {
        guard let presence = UInt32(exactly: presence) else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "presence \(presence) of the \(kind.rawValue) profile \(format) is out of range: "
                    + "give 0 (any number of streams) up to \(UInt32.max)")
        }
        let profile: OpaquePointer
        switch kind {
        case .container:
            profile = gst_encoding_container_profile_new(name, description, format.pointer, preset)
            for stream in streams {
                // add_profile takes over the child's reference.
                let child = try stream.makeGstProfile()
                gst_encoding_container_profile_add_profile(profile, child)
            }
        case .video:
            profile = gst_encoding_video_profile_new(format.pointer, preset, restriction?.pointer, presence)
        case .audio:
            profile = gst_encoding_audio_profile_new(format.pointer, preset, restriction?.pointer, presence)
        }
        if kind != .container {
            if let name { gst_encoding_profile_set_name(profile, name) }
            if let description { gst_encoding_profile_set_description(profile, description) }
        }
        if let elementFactory { gst_encoding_profile_set_preset_name(profile, elementFactory) }
        return profile
    }

    /// The serialized form's entries, split at colons outside quoted strings.
    private static func entries(of string: String) -> [Substring] {
        var entries: [Substring] = []
        var start = string.startIndex
        var quoted = false
        for index in string.indices {
            switch string[index] {
            case "\"": quoted.toggle()
            case ":" where !quoted:
                entries.append(string[start..<index])
                start = string.index(after: index)
            default: continue
            }
        }
        entries.append(string[start...])
        return entries
    }

    /// The part of an entry (`[restriction->]caps[+preset][|presence]`) that is not caps: "" for an empty
    /// entry, nil when every part is caps.
    private static func badCaps(inEntry entry: Substring) -> String? {
        let withoutPresence = entry.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)[0]
        var pieces = withoutPresence.split(separator: "->", omittingEmptySubsequences: false)
        if let last = pieces.popLast() {
            pieces.append(last.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)[0])
        }
        for piece in pieces {
            let caps = trimmed(piece)
            if caps.isEmpty { return "" }
            // gst_caps_from_string logs a critical warning for a structure name GStreamer refuses.
            let names = caps.split(separator: ";").map { trimmed($0.split(separator: ",", maxSplits: 1).first ?? "") }
            guard names.allSatisfy({ Structure.isValidName($0) || $0 == "ANY" || $0 == "EMPTY" }),
                let parsed = gst_caps_from_string(caps)
            else { return caps }
            gst_caps_unref(parsed)
        }
        return nil
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
