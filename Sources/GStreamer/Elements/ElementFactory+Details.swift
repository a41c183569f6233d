import CGStreamer

// What a factory's elements can be, read without making one, and what a pad can carry now.

extension ElementFactory {
    /// What a factory says of the elements it makes, read without making one.
    public struct Details: Sendable {
        /// The factory's name, such as "audiotestsrc".
        public var name: String
        /// Its long name, such as "Audio test source".
        public var longName: String
        /// GStreamer's "klass", such as "Source/Audio".
        public var classification: String
        /// What the element does.
        public var description: String
        /// Every pad its elements can have.
        public var padTemplates: [PadTemplate]
    }

    /// What the factory named `factory` says of its elements, without making one.
    ///
    /// The corresponding C functions are `gst_element_factory_find`, `gst_element_factory_get_metadata`
    /// and `gst_element_factory_get_static_pad_templates`.
    ///
    /// - Parameter factory: The factory's name, such as "audiotestsrc".
    /// - Returns: Its long name, classification, description and pad templates.
    /// - Throws: ``GStreamerError`` (invalid argument, naming the package to install) when no such factory
    ///   is installed.
    public static func details(of factory: String) throws(GStreamerError) -> Details {
        try GStreamer.initialize()
        guard let found = gst_element_factory_find(factory) else { throw missing(factory) }
        defer { gst_object_unref(UnsafeMutableRawPointer(found)) }
        func metadata(_ key: String) -> String {
            gst_element_factory_get_metadata(found, key).map { String(cString: $0) } ?? ""
        }
        var templates: [PadTemplate] = []
        var node = UnsafeMutablePointer(mutating: gst_element_factory_get_static_pad_templates(found))
        while let current = node {
            if let data = current.pointee.data {
                templates.append(PadTemplate(data.assumingMemoryBound(to: GstStaticPadTemplate.self)))
            }
            node = current.pointee.next
        }
        return Details(
            name: factory, longName: metadata("long-name"), classification: metadata("klass"),
            description: metadata("description"), padTemplates: templates)
    }
}

extension Pad {
    /// The caps the pad can carry now, within `filter`: its template's before negotiation, narrowed by
    /// its peer and its element once linked.
    ///
    /// The corresponding C function is `gst_pad_query_caps`.
    ///
    /// - Parameter filter: Caps to intersect the answer with; nil for none.
    /// - Returns: The caps, in the pad's order of preference.
    public func queryCaps(filter: Caps? = nil) -> Caps {
        Caps(taking: gst_pad_query_caps(pointer, filter?.pointer))
    }
}
