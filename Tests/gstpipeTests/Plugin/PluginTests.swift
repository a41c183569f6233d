import Foundation
import Testing

/// Runs a program with GST_PLUGIN_PATH on a folder holding only libgstgstpipe.so, and a registry of
/// its own (so a stale cache cannot hide a broken plugin).
struct PluginRun {
    let folder: URL

    init(library: String = "libgstgstpipe.so") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-plugin-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The plugin built beside the test bundle.
        let built = CLI.binary.deletingLastPathComponent().appendingPathComponent(library)
        try FileManager.default.copyItem(at: built, to: folder.appendingPathComponent(library))
    }

    func run(_ executable: String, _ arguments: [String]) throws -> CLIResult {
        try CLI.run(
            arguments, executable: URL(fileURLWithPath: executable),
            environment: [
                "GST_PLUGIN_PATH": folder.path, "GST_REGISTRY": folder.appendingPathComponent("registry.bin").path
            ])
    }
}

@Suite("The Swift elements as a GStreamer plugin")
struct PluginTests {
    @Test("gst-inspect-1.0 gray prints the plugin, pad templates and properties")
    func inspect() throws {
        let result = try PluginRun().run("/usr/bin/gst-inspect-1.0", ["gray"])
        #expect(result.status == 0, "\(result.stderr)")
        for line in [
            "  Long-name                Grayscale renderer", "  Name                     gstpipe",
            "  Version                  0.1.0", "  SINK template: 'sink'", "  SRC template: 'src'",
            "  gray8               : Emit GRAY8 (one plane) instead of the input's format", "  matrix              : "
        ] {
            #expect(result.stdout.contains(line), "missing: \(line)")
        }
    }

    @Test("gst-launch-1.0 noise num-buffers=100 ! gray runs to the end: 100 frames")
    func launch() throws {
        let run = try PluginRun()
        let file = run.folder.appendingPathComponent("out.raw")
        let result = try run.run(
            "/usr/bin/gst-launch-1.0",
            ["-q", "noise", "num-buffers=100", "!", "gray", "!", "filesink", "location=\(file.path)"])
        #expect(result.status == 0, "\(result.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
        #expect(size == 100 * 115_200)
    }

    @Test("gst-launch-1.0 audionoise ! mono: the audio elements load from the plugin too (one channel, every sample)")
    func launchAudio() throws {
        let run = try PluginRun()
        let file = run.folder.appendingPathComponent("out.raw")
        let result = try run.run(
            "/usr/bin/gst-launch-1.0",
            [
                "-q", "audionoise", "num-buffers=25", "samplesperbuffer=480", "!",
                "audio/x-raw,format=S16LE,channels=2", "!",
                "mono", "!", "audio/x-raw,channels=1", "!", "filesink", "location=\(file.path)"
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
        #expect(size == 25 * 480 * 2)
    }

    @Test("A Python program pulls gray frames through PyGObject (skipped without python3-gst-1.0)")
    func python() throws {
        let run = try PluginRun()
        let check = try run.run("/usr/bin/python3", ["-c", "import gi; gi.require_version('Gst', '1.0')"])
        guard check.status == 0 else {
            print("SKIPPED: python3-gst-1.0 is not installed (scripts/setup.sh installs it)")
            return
        }
        let script = """
            import gi
            gi.require_version("Gst", "1.0")
            from gi.repository import Gst
            Gst.init(None)
            pipeline = Gst.parse_launch(
                "videotestsrc num-buffers=10 ! video/x-raw,format=RGB,width=8,height=2 ! gray ! appsink name=out sync=false")
            sink = pipeline.get_by_name("out")
            pipeline.set_state(Gst.State.PLAYING)
            frames = 0
            while True:
                sample = sink.emit("pull-sample")
                if sample is None:
                    break
                buffer = sample.get_buffer()
                ok, info = buffer.map(Gst.MapFlags.READ)
                data = bytes(info.data)
                buffer.unmap(info)
                assert all(data[i] == data[i + 1] == data[i + 2] for i in range(0, 24, 3)), data
                frames += 1
            pipeline.set_state(Gst.State.NULL)
            print("gray frames:", frames)
            """
        let result = try run.run("/usr/bin/python3", ["-c", script])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "gray frames: 10\n")
    }
}

@Suite("A user's own element as a plugin (Examples/ThresholdPlugin)")
struct UserPluginTests {
    @Test("gst-launch-1.0 loads libgstthreshold.so: every output pixel is black or white")
    func threshold() throws {
        let run = try PluginRun(library: "libgstthreshold.so")
        let file = run.folder.appendingPathComponent("out.raw")
        let result = try run.run(
            "/usr/bin/gst-launch-1.0",
            [
                "-q", "videotestsrc", "num-buffers=3", "pattern=smpte", "!",
                "video/x-raw,format=GRAY8,width=64,height=48",
                "!", "threshold", "level=100", "!", "filesink", "location=\(file.path)"
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try Data(contentsOf: file)
        #expect(bytes.count == 3 * 64 * 48)
        #expect(Set(bytes) == [0, 255])
    }
}
