import CGStreamer

/// The klass of an element factory, GStreamer's own word for what an element is and works on:
/// "Filter/Converter/Audio" (audioconvert), "Sink/Video" (autovideosink), "Codec/Muxer" (mp4mux).
/// gstpipe reads it to tell a description that carries sound from one that carries pictures.
///
/// Stopgap, and the one place the command line calls C: the core reads a factory's metadata
/// (`Element.longName` and `elementDescription`, in ElementInfo.swift) but has no public accessor for
/// the klass yet. When it gains one, such as `Element.classification`, this file goes. Asking
/// gst-inspect-1.0 instead would cost a process (about 36 ms) per element and would not know the
/// Swift elements, which only this process registers.
enum FactoryKlass {
    /// The klass of the factory named `name`, or nil when there is no such factory (a Swift element
    /// counts once registered).
    ///
    /// The corresponding C function is `gst_element_factory_get_metadata` with
    /// `GST_ELEMENT_METADATA_KLASS`.
    static func of(_ name: String) -> String? {
        guard let factory = gst_element_factory_find(name) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(factory)) }
        return gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS).map { String(cString: $0) }
    }
}
