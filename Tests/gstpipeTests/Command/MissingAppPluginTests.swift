import Foundation
import Testing

/// GStreamer without its app plugin (appsrc, appsink), on which every Swift element is built: an
/// error naming the missing element and its package, where a force-unwrap used to trap.
@Suite("Without the app plugin")
struct MissingAppPluginTests {
    @Test("gstpipe says which element is missing and which package provides it, and exits 1")
    func cli() throws {
        let registry = try RegistryWithout(plugin: "libgstapp.so")
        defer { try? FileManager.default.removeItem(at: registry.folder) }
        let result = try CLI.run(
            ["videotestsrc", "num-buffers=3", "!", "fakesink"], environment: registry.environment, timeout: 60)
        #expect(!result.signaled, "\(result.stderr)")
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot register the Swift elements"))
        #expect(
            result.stderr.contains(
                "no element \"appsrc\": it usually comes with the Debian package gstreamer1.0-plugins-base"))
    }

    @Test("A Swift element loaded as a plugin fails its state change with the same message, instead of crashing")
    func plugin() throws {
        let registry = try RegistryWithout(plugin: "libgstapp.so")
        defer { try? FileManager.default.removeItem(at: registry.folder) }
        let run = try PluginRun()
        defer { try? FileManager.default.removeItem(at: run.folder) }
        var environment = registry.environment
        environment["GST_PLUGIN_PATH_1_0"] = run.folder.path
        let result = try CLI.run(
            // Alone: with no appsrc the element has no pad to link (gst-launch would stop there).
            ["-q", "noise", "num-buffers=3"], executable: URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"),
            environment: environment, timeout: 60)
        #expect(!result.signaled, "\(result.stderr)")
        // gst-launch-1.0 exits -1 when the pipeline does not start.
        #expect(result.status == 255)
        let output = result.stdout + result.stderr
        #expect(
            output.contains(
                "no element \"appsrc\": it usually comes with the Debian package gstreamer1.0-plugins-base"),
            "\(output)")
    }
}
