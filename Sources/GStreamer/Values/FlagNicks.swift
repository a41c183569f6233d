import CGStreamer

// Flags by nick, the way gst-inspect-1.0 shows them and gst-launch-1.0 takes them ("video+audio").
// GStreamer's own serialization (gst_value_serialize) writes the flags' long names instead ("Render
// the video stream+Render the audio stream"), which no user types and no one reads back as a nick.

extension GScalar {
    /// The nicks of the flags set in `bits` of the flags type `type`, in GLib's order (lowest bit
    /// first). Bits the type does not define are left out.
    ///
    /// The corresponding C function is `g_flags_get_first_value`, for each bit set.
    static func nicks(ofFlags bits: guint, type: GType) -> [String] {
        let flagsClass = g_type_class_ref(type)?.assumingMemoryBound(to: GFlagsClass.self)
        defer { g_type_class_unref(flagsClass) }
        var remaining = bits
        var nicks: [String] = []
        while remaining != 0, let entry = g_flags_get_first_value(flagsClass, remaining), entry.pointee.value != 0 {
            nicks.append(String(cString: entry.pointee.value_nick))
            remaining &= ~entry.pointee.value
        }
        return nicks
    }

    /// `bits` as one string of nicks joined by `+`, as gst_value_serialize lays flags out but with
    /// nicks: no flag set is the type's zero value by nick when it has one ("none"), else "0".
    static func serialize(flags bits: guint, type: GType) -> String {
        let nicks = nicks(ofFlags: bits, type: type)
        guard nicks.isEmpty else { return nicks.joined(separator: "+") }
        let flagsClass = g_type_class_ref(type)?.assumingMemoryBound(to: GFlagsClass.self)
        defer { g_type_class_unref(flagsClass) }
        guard let zero = g_flags_get_first_value(flagsClass, 0), zero.pointee.value == 0 else { return "0" }
        return String(cString: zero.pointee.value_nick)
    }
}
