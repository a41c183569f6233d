import CGStreamer
import CGStreamerShim

/// Process-wide GStreamer set-up.
public enum GStreamer {
    private static let initialization: Result<Void, GStreamerError> = {
        let first = gst_is_initialized() == 0
        var error: UnsafeMutablePointer<GError>?
        if gst_init_check(nil, nil, &error) == 0 {
            let failure = GStreamerError(taking: error, kind: .core, source: nil)
            return .failure(failure)
        }
        // Before a pipeline's thread can log (see DefaultWriter); in a host that initialized GStreamer
        // itself (a plugin's), only once a handler needs it.
        if first { DefaultWriter.takeOver() }
        return .success(())
    }()

    /// Initializes GStreamer once for the process; later calls return at once. Safe from any thread.
    ///
    /// The corresponding C function is `gst_init_check`.
    ///
    /// - Throws: ``GStreamerError`` (core) with GStreamer's message when `gst_init_check` fails (no display is
    ///   not a failure; a broken registry or plugin path can be); every later call throws the same error.
    public static func initialize() throws(GStreamerError) {
        try initialization.get()
    }

    /// The version of the GStreamer library loaded at run time, such as "1.22.0".
    ///
    /// The corresponding C function is `gst_version`.
    public static var version: String {
        var major: guint = 0, minor: guint = 0, micro: guint = 0, nano: guint = 0
        gst_version(&major, &minor, &micro, &nano)
        return "\(major).\(minor).\(micro)"
    }

    /// Whether an element factory of this name is known to the registry (plugins or Swift elements).
    /// GStreamer is initialized first: before that the registry is empty, and a test trait such as
    /// `.enabled(if: GStreamer.hasElement(named: "souphttpsrc"))`, evaluated before any test runs,
    /// skipped its test on every machine.
    ///
    /// The corresponding C function is `gst_element_factory_find`.
    ///
    /// - Parameter name: The factory's name, such as "x264enc".
    /// - Returns: Whether the factory exists; false when GStreamer cannot be initialized.
    public static func hasElement(named name: String) -> Bool {
        guard (try? initialize()) != nil else { return false }
        guard let factory = gst_element_factory_find(name) else { return false }
        gst_object_unref(UnsafeMutableRawPointer(factory))
        return true
    }

    /// The classification ("klass") of the element factory named `name`, such as
    /// "Filter/Converter/Audio"; nil when there is no such factory.
    ///
    /// The corresponding C function is `gst_element_factory_get_metadata` with "klass".
    ///
    /// - Parameter name: The factory's name.
    /// - Returns: The classification, or nil.
    public static func classification(ofElement name: String) -> String? {
        guard let factory = gst_element_factory_find(name) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(factory)) }
        return gst_element_factory_get_metadata(factory, "klass").map { String(cString: $0) }
    }

    /// The names of every element factory in the registry, sorted.
    ///
    /// The corresponding C function is `gst_registry_get_feature_list`.
    ///
    /// - Returns: The factory names, sorted.
    public static func elementNames() -> [String] {
        // Every element factory: gst_element_factory_list_get_elements would skip plain filters
        // (klass "Filter/Converter/Video" names no decoder, encoder, sink, ...).
        let list = gst_registry_get_feature_list(gst_registry_get(), gst_element_factory_get_type())
        defer { gst_plugin_feature_list_free(list) }
        var names: [String] = []
        var node = list
        while let current = node {
            if let feature = current.pointee.data?.assumingMemoryBound(to: GstObject.self),
                let name = feature.pointee.name
            {
                names.append(String(cString: name))
            }
            node = current.pointee.next
        }
        return names.sorted()
    }
}
