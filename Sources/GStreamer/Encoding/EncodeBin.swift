import CGStreamer

/// GStreamer's `encodebin`: given an ``EncodingProfile``, it picks and links the converters, encoders
/// and muxer that turn raw (or already encoded) streams into the profile's format. Link each stream to
/// a pad from ``requestPad(for:)`` and its `src` pad to a sink.
///
/// GStreamer 1.22 has no `encodebin2` (it arrived in 1.24); this is `encodebin`, whose one source pad
/// gives the container's bytes.
///
///     let encoder = try EncodeBin(profile: profile)
///     try pipeline.add(source, encoder, sink)
///     try source.pad(named: "src")!.link(to: try encoder.requestPad(for: Caps("video/x-raw")))
///     try encoder.link(to: sink)
public final class EncodeBin: Bin, @unchecked Sendable {
    // No state of its own: everything lives in the GstElement, which is thread-safe (see Element).

    /// An `encodebin` encoding to `profile`.
    ///
    /// The corresponding C function is `gst_element_factory_make("encodebin", name)`, then the `profile`
    /// property.
    ///
    /// - Parameters:
    ///   - profile: What to produce.
    ///   - name: The element's name, or nil for a numbered one ("encodebin0").
    /// - Throws: ``GStreamerError`` (invalid argument) when `encodebin` is not installed (naming its package),
    ///   a presence in `profile` is out of range, or encodebin refuses the profile (naming the muxer or
    ///   encoder that is missing, with GStreamer's installer detail); also when GStreamer cannot be
    ///   initialized.
    public convenience init(profile: EncodingProfile, name: String? = nil) throws(GStreamerError) {
        try GStreamer.initialize()
        let gstProfile = try profile.makeGstProfile()
        defer { g_object_unref(UnsafeMutableRawPointer(gstProfile)) }
        guard let element = gst_element_factory_make("encodebin", name) else {
            throw ElementFactory.missing("encodebin")
        }
        self.init(element, owned: true)
        // encodebin builds the muxer (and the pads of streams with a presence) as the profile is set, and
        // drops a profile it cannot build, failing later at the state change with no word of why. What it
        // lacks it posts as missing-plugin messages: a bus of our own hears them.
        let bus = gst_bus_new()!
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        gst_element_set_bus(element, bus)
        defer { gst_element_set_bus(element, nil) }
        var value = GValue()
        g_value_init(&value, gst_encoding_profile_get_type())
        defer { g_value_unset(&value) }
        g_value_set_object(&value, UnsafeMutableRawPointer(gstProfile))
        g_object_set_property(UnsafeMutablePointer<GObject>(OpaquePointer(element)), "profile", &value)
        guard self.profile == nil else { return }
        var missing: [String] = []
        while let message = gst_bus_pop(bus) {
            defer { gst_message_unref(message) }
            guard gst_is_missing_plugin_message(message) != 0 else { continue }
            let text = String(takingGString: gst_missing_plugin_message_get_description(message)) ?? "a plugin"
            let detail = String(takingGString: gst_missing_plugin_message_get_installer_detail(message)) ?? "?"
            // encodebin also names the muxer when the muxer there is takes none of a stream's formats.
            let muxer = text.hasSuffix(" muxer") ? " or one that takes every stream's format" : ""
            missing.append("missing \(text)\(muxer) (installer detail \(detail))")
        }
        throw GStreamerError(
            kind: .invalidArgument,
            message: "encodebin refused the profile \((try? profile.serialized()) ?? "\(profile.format)"): "
                + (missing.isEmpty ? "it could not build it" : missing.joined(separator: "; ")),
            source: name)
    }

    /// The profile encodebin encodes to, as it holds it.
    ///
    /// The corresponding C function is `g_object_get_property` for `profile`.
    public var profile: EncodingProfile? {
        var value = GValue()
        g_value_init(&value, gst_encoding_profile_get_type())
        defer { g_value_unset(&value) }
        g_object_get_property(UnsafeMutablePointer<GObject>(OpaquePointer(pointer)), "profile", &value)
        return g_value_get_object(&value).map { EncodingProfile(reading: OpaquePointer($0)) }
    }

    /// A sink pad for a stream of `caps` (raw, such as `video/x-raw`, or already in a stream profile's
    /// format), made for the profile's stream that takes it. Encodebin adds the elements for that stream
    /// now; when one is missing it also posts a missing-plugin message on the bus. A stream profile with a
    /// presence (1 or more) has its pads made with the profile: the first unlinked one that takes `caps` is
    /// returned.
    ///
    /// The corresponding C function is `g_signal_emit_by_name` for encodebin's `request-pad` action signal.
    ///
    /// - Parameter caps: The caps of the stream to be linked.
    /// - Returns: The pad, to link the stream's source pad to.
    /// - Throws: ``GStreamerError`` (invalid argument) naming `caps` and the profile's streams when no stream
    ///   of the profile takes them, or the encoder for it is missing.
    public func requestPad(for caps: Caps) throws(GStreamerError) -> Pad {
        if case .pad(let pad) = try emit("request-pad", .caps(caps)) { return pad }
        // A stream profile with a presence makes its pads up front (video_0), and request-pad then refuses.
        let free = pads.first { $0.direction == .sink && !$0.isLinked && $0.queryCaps().canIntersect(caps) }
        if let free { return free }
        guard let profile else {
            throw GStreamerError(
                kind: .invalidArgument, message: "\(name) has no pad for \(caps): it holds no profile", source: name)
        }
        let streams = profile.streams(of: .video) + profile.streams(of: .audio)
        let formats = streams.map { "\($0.kind.rawValue) \($0.format)" }.joined(separator: ", ")
        throw GStreamerError(
            kind: .invalidArgument,
            message: "\(name) has no pad for \(caps): no stream of its profile (\(formats)) takes it, or its encoder "
                + "is missing (encodebin then posts a missing-plugin message naming it)",
            source: name)
    }
}
