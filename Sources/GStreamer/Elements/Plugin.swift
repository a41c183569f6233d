import CGStreamer
import GstPipeSupport
import Synchronization

/// A GStreamer plugin written in Swift: the descriptor GStreamer looks for when it loads a shared
/// library from GST_PLUGIN_PATH. A library product named `gstNAME` (file libgstNAME.so) exports it
/// from one function:
///
/// ```swift
/// @_cdecl("gst_plugin_NAME_get_desc")
/// public func pluginDescriptor() -> UnsafeRawPointer {
///     Plugin.descriptor(name: "NAME", description: "...", version: "1.0") { plugin in
///         try MediaIOElements.registerFilter(name: "myfilter", ..., plugin: plugin) { _ in MyFilter() }
///     }
/// }
/// ```
///
/// The corresponding C macro is `GST_PLUGIN_DEFINE`.
public enum Plugin {
    private static let registration = Locked<(@Sendable (UnsafeMutableRawPointer) throws -> Void)?>(nil)
    private static let descriptorStorage = Locked<UnsafeMutablePointer<GstPluginDesc>?>(nil)

    /// The plugin's descriptor, made once; `register` runs when GStreamer loads the plugin, with the
    /// GstPlugin to register elements into (pass it as `plugin:` to the registration functions).
    ///
    /// - Parameters:
    ///   - name: The plugin's name: the `NAME` of `libgstNAME.so` and of `gst_plugin_NAME_get_desc`.
    ///   - description: One sentence on the plugin, shown by `gst-inspect-1.0`.
    ///   - version: The plugin's version, such as "1.0".
    ///   - license: The license GStreamer records (one of those GStreamer knows, such as "MIT/X11" or "LGPL").
    ///   - package: The package name shown by `gst-inspect-1.0`.
    ///   - origin: Where the plugin comes from, a URL.
    ///   - register: Registers the elements into the GstPlugin it is given, on the thread loading the plugin.
    /// - Returns: A pointer to the `GstPluginDesc`, which lives for the rest of the process.
    /// - Throws: Nothing itself. When `register` throws, the error is printed and the plugin fails to load
    ///   (GStreamer then leaves it out of the registry).
    public static func descriptor(
        name: String, description: String, version: String, license: String = "MIT/X11",
        package: String = "gstpipe", origin: String = "https://github.com/gstpipe/gstpipe",
        register: @escaping @Sendable (UnsafeMutableRawPointer) throws -> Void
    ) -> UnsafeRawPointer {
        registration.withLock { $0 = register }
        return descriptorStorage.withLock { storage in
            if let existing = storage { return UnsafeRawPointer(existing) }
            let descriptor = UnsafeMutablePointer<GstPluginDesc>.allocate(capacity: 1)
            // Strings live as long as the process: GStreamer keeps pointers to them.
            descriptor.initialize(
                to: GstPluginDesc(
                    major_version: GST_VERSION_MAJOR, minor_version: GST_VERSION_MINOR, name: strdup(name),
                    description: strdup(description),
                    plugin_init: { plugin in
                        guard let plugin, let register = Plugin.registration.withLock({ $0 }) else { return 0 }
                        do {
                            try register(UnsafeMutableRawPointer(plugin))
                            return 1
                        } catch {
                            print("gstpipe plugin: \(error)")
                            return 0
                        }
                    },
                    version: strdup(version), license: strdup(license), source: strdup(package),
                    package: strdup(package),
                    origin: strdup(origin), release_datetime: nil, _gst_reserved: (nil, nil, nil, nil)))
            storage = descriptor
            return UnsafeRawPointer(descriptor)
        }
    }
}
