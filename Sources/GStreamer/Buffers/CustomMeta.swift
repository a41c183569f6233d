import CGStreamer

/// Custom metas: the application's own data attached to buffers under a name, as a ``Structure``, with no
/// C code (GStreamer 1.20's custom metas). Register the name once, then add and read it on any buffer;
/// it travels with the buffer through elements that pass buffers on (identity, queue, tee).
///
/// The corresponding C type is `GstCustomMeta`.
public enum CustomMeta {
    /// Registers a custom meta named `name`; registering a name again does nothing.
    ///
    /// The corresponding C function is `gst_meta_register_custom`.
    ///
    /// - Parameters:
    ///   - name: The meta's name, such as "gstpipe-detections"; a GType name: letters, digits and `-_+`,
    ///     starting with a letter.
    ///   - tags: What the meta depends on, such as "video" or "orientation": elements that change that
    ///     aspect of a buffer drop metas tagged with it.
    /// - Throws: ``GStreamerError`` (invalid argument) when the name is not a valid type name, or already
    ///   names a meta that is not a custom one; also when GStreamer cannot be initialized.
    public static func register(_ name: String, tags: [String] = []) throws(GStreamerError) {
        try GStreamer.initialize()
        if let info = gst_meta_get_info(name) {
            guard gst_meta_info_is_custom(info) != 0 else {
                throw GStreamerError(
                    kind: .invalidArgument,
                    message: "\"\(name)\" names a meta that is not a custom one: choose another name")
            }
            return
        }
        guard isTypeName(name) else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "\"\(name)\" is not a valid meta name: use letters, digits and -_+, starting with a letter")
        }
        var cTags = tags.map { strdup($0) } + [nil]
        defer { cTags.forEach { free($0) } }
        let info = cTags.withUnsafeMutableBufferPointer { pointers in
            pointers.baseAddress!.withMemoryRebound(to: UnsafePointer<gchar>?.self, capacity: pointers.count) {
                gst_meta_register_custom(name, $0, nil, nil, nil)
            }
        }
        guard info != nil else {
            throw GStreamerError(
                kind: .invalidArgument, message: "GStreamer refused to register the meta \"\(name)\"")
        }
    }

    /// GLib's rule for type names, which a meta's name becomes: GLib aborts on a bad one.
    private static func isTypeName(_ name: String) -> Bool {
        let isLetter = { (scalar: Unicode.Scalar) in scalar.isASCII && scalar.properties.isAlphabetic }
        guard name.utf8.count >= 3, let first = name.unicodeScalars.first, isLetter(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            isLetter($0) || ("0"..."9").contains($0) || "-_+".unicodeScalars.contains($0)
        }
    }
}

extension Buffer {
    /// Adds the custom meta `name` with the fields of `structure` (its name is not kept: the meta's is),
    /// on a copy of the buffer's metadata when others hold it too. A buffer carries a custom meta once:
    /// adding it again adds a second one, which ``customMeta(_:)`` does not see.
    ///
    /// The corresponding C functions are `gst_buffer_add_custom_meta` and `gst_custom_meta_get_structure`.
    ///
    /// - Parameters:
    ///   - name: The meta's name, registered with ``CustomMeta/register(_:tags:)``.
    ///   - structure: The fields to carry.
    /// - Throws: ``GStreamerError`` (invalid argument) when no custom meta of that name is registered.
    public func addCustomMeta(_ name: String, _ structure: Structure) throws(GStreamerError) {
        guard let info = gst_meta_get_info(name), gst_meta_info_is_custom(info) != 0 else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "no custom meta \"\(name)\" is registered: call CustomMeta.register first")
        }
        modify { buffer in
            guard let meta = gst_buffer_add_custom_meta(buffer, name) else { return }
            guard let fields = gst_custom_meta_get_structure(meta) else { return }
            structure.withUnsafeGstStructure { source in
                _ = gst_structure_foreach(
                    source,
                    { field, value, destination in
                        gst_structure_id_set_value(
                            destination!.assumingMemoryBound(to: GstStructure.self), field, value)
                        return 1
                    }, fields)
            }
        }
    }

    /// The fields of the custom meta `name`, as a structure named after it; nil when the buffer has none.
    ///
    /// The corresponding C functions are `gst_buffer_get_custom_meta` and `gst_custom_meta_get_structure`.
    ///
    /// - Parameter name: The meta's name.
    /// - Returns: A copy of its fields.
    public func customMeta(_ name: String) -> Structure? {
        read { buffer in
            guard let meta = gst_buffer_get_custom_meta(buffer, name) else { return nil }
            guard let fields = gst_custom_meta_get_structure(meta) else { return nil }
            return Structure(copying: fields)
        }
    }
}
