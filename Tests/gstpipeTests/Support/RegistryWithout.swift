import Foundation

/// A GStreamer that has every system plugin but one, for the paths taken when an element is not
/// installed: a folder of links to the system's plugins less that one, and a registry of its own
/// (so the real one is left alone). Remove `folder` when done.
struct RegistryWithout {
    let folder: URL
    /// The environment a gstpipe run sees that GStreamer through.
    let environment: [String: String?]

    /// Fails when `plugin` (such as "libgstx264.so") is not installed here: there would be nothing
    /// to leave out, and the test would prove nothing.
    init(plugin: String) throws {
        let pkgConfig = Process()
        pkgConfig.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        pkgConfig.arguments = ["pkg-config", "--variable=pluginsdir", "gstreamer-1.0"]
        let pipe = Pipe()
        pkgConfig.standardOutput = pipe
        try pkgConfig.runUnblocked()
        pkgConfig.waitUntilExit()
        let pluginsDirectory = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let plugins = try FileManager.default.contentsOfDirectory(atPath: pluginsDirectory)
        guard plugins.contains(plugin) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(pluginsDirectory)/\(plugin)"])
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-without-\(UUID())")
        let pluginsCopy = folder.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: pluginsCopy, withIntermediateDirectories: true)
        for other in plugins where other.hasSuffix(".so") && other != plugin {
            try FileManager.default.createSymbolicLink(
                atPath: pluginsCopy.appendingPathComponent(other).path,
                withDestinationPath: "\(pluginsDirectory)/\(other)")
        }
        environment = [
            "DISPLAY": nil, "WAYLAND_DISPLAY": nil, "GST_PLUGIN_SYSTEM_PATH_1_0": pluginsCopy.path,
            "GST_REGISTRY_1_0": folder.appendingPathComponent("registry.bin").path
        ]
    }
}
