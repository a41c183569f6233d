import CGStreamer

extension String {
    /// The text of a string GLib allocated for the caller (`gst_caps_to_string`, `gst_value_serialize`,
    /// `gst_object_get_name`, ...), which is freed once read: the one place such a string is owned.
    ///
    /// - Parameter text: The string, handed over; nil for NULL.
    init?(takingGString text: UnsafeMutablePointer<gchar>?) {
        guard let text else { return nil }
        defer { g_free(text) }
        self.init(cString: text)
    }
}
