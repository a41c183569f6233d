import CGStreamer

extension ElementFactory {
    /// The names of the installed element factories whose classification ("klass", such as
    /// "Visualization" or "Codec/Decoder/Video") has every one of `words` among its `/`-separated
    /// parts, sorted by name: how an application finds, say, the visualizations playbin can use.
    ///
    /// The corresponding C functions are `gst_registry_get_feature_list` and
    /// `gst_element_factory_get_metadata` (`GST_ELEMENT_METADATA_KLASS`).
    ///
    /// - Parameter words: The classification's parts that must all appear, such as `["Visualization"]`.
    /// - Returns: The factories' names; empty when none matches.
    /// - Throws: ``GStreamerError`` when GStreamer cannot be initialized.
    public static func names(classifiedAs words: String...) throws(GStreamerError) -> [String] {
        try GStreamer.initialize()
        // Every element factory in the registry: gst_element_factory_list_get_elements's types (source,
        // decoder, ...) leave out factories of no such kind, the visualizations among them.
        let list = gst_registry_get_feature_list(gst_registry_get(), gst_element_factory_get_type())
        defer { gst_plugin_feature_list_free(list) }
        var names: [String] = []
        var node = list
        while let current = node {
            node = current.pointee.next
            guard let factory = current.pointee.data else { continue }
            let klass = gst_element_factory_get_metadata(OpaquePointer(factory), "klass")
            let parts = Set((klass.map { String(cString: $0) } ?? "").split(separator: "/").map(String.init))
            if words.allSatisfy(parts.contains) {
                let object = factory.assumingMemoryBound(to: GstObject.self)
                names.append(String(takingGString: gst_object_get_name(object)) ?? "")
            }
        }
        return names.sorted()
    }
}
