import Foundation
import Testing

@Suite("gstpipe command line")
struct CLITests {
    @Test("noise num-buffers=100 ! gray ! fakesink exits 0")
    func fakesink() throws {
        let result = try CLI.run(["noise", "num-buffers=100", "!", "gray", "!", "fakesink"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("GST_DEBUG=5 prints GStreamer's own lines of every category at level 5 and the run still ends 0")
    func everyCategoryAtLevel5() throws {
        // Adding and removing a log function logs a line of its own at level 5, which comes back through the
        // writer that takes GStreamer's place at initialization: it must not hold its lock while it does so.
        let result = try CLI.run(
            ["videotestsrc", "num-buffers=1", "!", "fakesink"],
            environment: ["GST_DEBUG": "5", "GST_DEBUG_NO_COLOR": "1"],
            timeout: 30)
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        #expect(
            result.stderr.contains(" DEBUG ") && result.stderr.contains("videotestsrc"), "\(result.stderr.prefix(2000))"
        )
    }

    @Test("noise num-buffers=100 ! gray produces exactly 100 frames")
    func exactFrameCount() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-count-\(UUID()).raw")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try CLI.run(["noise", "num-buffers=100", "!", "gray", "!", "filesink", "location=\(file.path)"])
        #expect(result.status == 0, "\(result.stderr)")
        // I420 320x240: 320*240 luma + 2 * 160*120 chroma = 115200 bytes a frame.
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
        #expect(size == 100 * 115_200)
    }

    @Test(
        "Swift elements stand anywhere a GStreamer element can",
        arguments: [
            "videotestsrc num-buffers=50 ! gray ! fakesink",
            "videotestsrc num-buffers=20 ! tee name=t t. ! queue ! gray ! fakesink t. ! queue ! fakesink",
            "noise num-buffers=10 ! video/x-raw,width=320,height=240 ! gray ! fakesink",
            "( noise num-buffers=4 ! gray ) ! fakesink",
            "noise num-buffers=5 ! gray ! gray ! videoconvert ! video/x-raw,format=BGRx ! gray ! fakesink"
        ])
    func placements(description: String) throws {
        let result = try CLI.run(description.split(separator: " ").map(String.init))
        #expect(result.status == 0, "\(description): \(result.stderr)")
    }

    @Test(
        "A description GStreamer cannot construct exits 2 with GStreamer's message",
        arguments: [
            ("noise ! ! gray", "ERROR: erroneous pipeline: syntax error\n"),
            (
                "noise ! nosuchelement",
                "ERROR: erroneous pipeline: no element \"nosuchelement\"\n  `gst-inspect-1.0` lists the installed "
                    + "elements; more come with gstreamer1.0-plugins-good, -bad, -ugly and gstreamer1.0-libav.\n"
            ),
            (
                "noise nosuchprop=1 ! fakesink",
                "ERROR: erroneous pipeline: no property \"nosuchprop\" in element \"noise\"\n"
            ),
            (
                // gst-launch-1.0 only warns here and keeps -1: a run that never ends.
                "videotestsrc num-buffers=-2 ! fakesink",
                "ERROR: erroneous pipeline: value \"-2\" of type 'gint' is invalid or out of range for property "
                    + "'num-buffers' of type 'gint'\n"
            )
        ])
    func syntaxErrors(description: String, message: String) throws {
        let result = try CLI.run(description.split(separator: " ").map(String.init))
        #expect(result.status == 2)
        #expect(result.stderr == message)
    }

    @Test(
        "An element nothing can feed is a usage error, not a run that waits forever",
        arguments: [
            ("gray ! gray", "gray0"), ("videoconvert", "videoconvert0"), ("decodebin ! gray ! fakesink", "decodebin0"),
            ("noise num-buffers=3 ! gray ! fakesink fakesink", "fakesink1")
        ])
    func unfed(description: String, element: String) throws {
        let result = try CLI.run(description.split(separator: " ").map(String.init), timeout: 20)
        #expect(result.status == 2)
        #expect(result.stderr == "ERROR: \(element)'s sink pad is not linked: nothing can feed it\n")
    }

    @Test("A sink pad linked later from a sometimes pad is fed: uridecodebin ! gray runs")
    func linkedLater() async throws {
        let clip = try await Media.paddedSizeClip()  // I420: a format gray takes, straight from the decoder
        let result = try CLI.run(["uridecodebin", "uri=\(clip.absoluteString)", "!", "gray", "!", "fakesink"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("-m: tags cross a Swift filter to the sink, as through identity; nothing comes from inside it")
    func messagesNameTheSwiftElement() throws {
        let result = try CLI.run([
            "-m", "videotestsrc", "num-buffers=3", "!", "taginject", "tags=title=hello", "!", "gray", "!", "fakesink"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(
            lines.contains { $0.hasPrefix("Got message: tag from fakesink0: ") && $0.contains("title") }, "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("Got message: tag from gray0") }, "\(lines)")
        #expect(!lines.contains { $0.contains(" from appsink") || $0.contains(" from appsrc") }, "\(lines)")
    }

    @Test("GStreamer's latency tracer measures gray per element, as it does identity, 60 frames each")
    func latencyTracer() throws {
        func latencies(_ filter: String) throws -> Int {
            let result = try CLI.run(
                ["videotestsrc", "num-buffers=60", "!", filter, "!", "fakesink"],
                environment: [
                    "DISPLAY": nil, "WAYLAND_DISPLAY": nil, "GST_TRACERS": "latency(flags=element)",
                    "GST_DEBUG": "GST_TRACER:7", "GST_DEBUG_NO_COLOR": "1"
                ])
            #expect(result.status == 0, "\(result.stderr.suffix(500))")
            return result.stderr.split(separator: "\n").filter {
                $0.contains("element-latency, ") && $0.contains("element=(string)\(filter)0,")
            }.count
        }
        #expect(try latencies("identity") == 60)
        #expect(try latencies("gray") == 60)
    }

    @Test("No description is a usage error")
    func noDescription() throws {
        let result = try CLI.run([])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Missing the pipeline description"))
    }

    @Test("A runtime error exits 1 and names the element")
    func runtimeError() throws {
        let result = try CLI.run(["filesrc", "name=reader", "location=/nonexistent/in.mp4", "!", "fakesink"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("ERROR: from element reader: "))
        // GStreamer's message alone says "Resource not found.": the file is named from its debug text.
        #expect(
            result.stderr.hasPrefix(
                #"ERROR: from element reader: Resource not found. (No such file "/nonexistent/in.mp4")"#),
            "\(result.stderr)")
    }

    @Test("Caps gray cannot meet downstream are refused at link time, exit 2, in GStreamer's words")
    func negotiationError() throws {
        let result = try CLI.run(
            "noise num-buffers=3 ! video/x-raw,format=I420 ! gray ! video/x-raw,format=BGRA ! fakesink"
                .split(separator: " ").map(String.init))
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("ERROR: erroneous pipeline: could not link gray0 to fakesink0"))
    }

    @Test("A state-change failure downstream of a Swift element exits 1 naming the element")
    func downstreamFailure() throws {
        let result = try CLI.run(
            ["noise", "num-buffers=3", "!", "gray", "!", "filesink", "name=writer", "location=/nonexistent/dir/out.raw"]
        )
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("ERROR: from element writer: "))
    }

    @Test("No display: autovideosink neither crashes nor hangs; it says so and runs headless")
    func noDisplay() throws {
        let result = try CLI.run(["noise", "num-buffers=30", "!", "gray", "!", "autovideosink"], timeout: 30)
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                "gstpipe: no display (DISPLAY and WAYLAND_DISPLAY are unset): autovideosink runs headless, showing nothing"
            ))
    }

    @Test("Ctrl-C sends end of stream and exits 130")
    func interrupt() throws {
        let result = try CLI.run(["noise", "!", "gray", "!", "fakesink", "sync=true"], timeout: 30, interruptAfter: 1)
        #expect(result.status == 130)
        #expect(result.stderr.contains("interrupt: sending end of stream"))
    }

    @Test("Ctrl-C during an encode leaves a file that demuxes to its end")
    func interruptFinalizesFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-int-\(UUID()).mkv")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try CLI.run(
            [
                "noise", "!", "gray", "!", "videoconvert", "!", "jpegenc", "!", "matroskamux", "!", "filesink",
                "location=\(file.path)"
            ],
            timeout: 30, interruptAfter: 1.5)
        #expect(result.status == 130)
        let check = try CLI.run(
            ["filesrc", "location=\(file.path)", "!", "matroskademux", "!", "jpegdec", "!", "fakesink"], timeout: 30)
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test("A second Ctrl-C stops at once")
    func secondInterrupt() throws {
        // A paused-forever pipeline: the EOS cannot arrive, so only the second Ctrl-C ends it.
        let result = try CLI.run(
            [
                "noise", "!", "gray", "!", "queue", "max-size-buffers=1", "leaky=no", "!", "identity",
                "sleep-time=10000000", "!", "fakesink"
            ],
            timeout: 30, interruptAfter: 1, secondInterrupt: 2)
        #expect(result.status == 130)
    }

    @Test("--no-eos-on-shutdown stops at the first Ctrl-C")
    func noEOSOnShutdown() throws {
        let result = try CLI.run(
            ["--no-eos-on-shutdown", "noise", "!", "gray", "!", "fakesink", "sync=true"], timeout: 30, interruptAfter: 1
        )
        #expect(result.status == 130)
        #expect(!result.stderr.contains("sending end of stream"))
    }

    @Test("A real window under Xvfb shows the pipeline (skipped without Xvfb)")
    func xvfbWindow() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") else {
            print("SKIPPED: Xvfb is not installed (apt-get install xvfb)")
            return
        }
        let display = ":\(Int.random(in: 200...400))"
        let xvfb = Process()
        xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        xvfb.arguments = [display, "-screen", "0", "640x480x24"]
        // Xvfb must not inherit the test's output: it would hold the pipe open after the run.
        xvfb.standardOutput = FileHandle.nullDevice
        xvfb.standardError = FileHandle.nullDevice
        try xvfb.runUnblocked()
        defer {
            // SIGKILL: children of the test process may inherit a mask that blocks SIGTERM.
            kill(xvfb.processIdentifier, SIGKILL)
            xvfb.waitUntilExit()
        }
        Thread.sleep(forTimeInterval: 1)
        let result = try CLI.run(
            ["noise", "num-buffers=30", "!", "gray", "!", "autovideosink"], environment: ["DISPLAY": display],
            timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("runs headless"))
    }

    @Test("An unknown element exits 2 with the closest names")
    func closeMatches() throws {
        let result = try CLI.run(["videotestsrc", "!", "videoconvrt", "!", "fakesink"])
        #expect(result.status == 2)
        #expect(
            result.stderr == "ERROR: erroneous pipeline: no element \"videoconvrt\"\n  Did you mean: videoconvert?\n")
    }

    @Test("gstpipe inspect lists the Swift elements")
    func inspectList() throws {
        let result = try CLI.run(["inspect"])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                Swift elements:
                  audionoise  White noise audio source
                  gray        Grayscale renderer
                  mono        Mono mixer
                  noise       White noise video source
                  x264grayenc H.264 encoder for gray video (libx264, 4:0:0)

                Run gstpipe inspect NAME for an element's properties.

                """)
    }

    @Test("gstpipe inspect NAME prints type, range, default and description of each property")
    func inspectElement() throws {
        let noise = try CLI.run(["inspect", "noise"])
        #expect(noise.status == 0)
        #expect(
            noise.stdout.contains(
                "  num-buffers         : Number of frames to produce before end of stream (-1 = endless)\n"
                    + "                        gint. Range: -1 - 2147483647. Default: -1\n"))
        let native = try CLI.run(["inspect", "videotestsrc"])
        #expect(native.stdout.hasPrefix("videotestsrc: Video test source\n"))
        #expect(native.stdout.contains("  pattern             : Type of test pattern to generate\n"))
        let unknown = try CLI.run(["inspect", "gry"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("Did you mean: gray"))
    }

    @Test("-f FILE runs a description kept in a file, with comments and newlines")
    func descriptionFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-\(UUID()).pipeline")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-\(UUID()).raw")
        defer {
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: output)
        }
        try """
        # Three gray frames, one per line of the pipeline.
        noise num-buffers=3   # white noise
          ! gray
          ! filesink location=\(output.path)
        """.write(to: file, atomically: true, encoding: .utf8)
        let result = try CLI.run(["-f", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect((try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) == 3 * 115_200)
        let missing = try CLI.run(["-f", "/nonexistent/x.pipeline"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("Cannot read the description file /nonexistent/x.pipeline: check the path."))
    }

    @Test("--graph draws the pipeline as it ran, with negotiated caps (.dot, and .svg through Graphviz)")
    func graph() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-graph-\(UUID())")
        let dot = base.appendingPathExtension("dot")
        let svg = base.appendingPathExtension("svg")
        defer {
            try? FileManager.default.removeItem(at: dot)
            try? FileManager.default.removeItem(at: svg)
        }
        let description = [
            "videotestsrc", "num-buffers=3", "!", "video/x-raw,format=I420", "!", "gray", "!", "fakesink"
        ]
        let result = try CLI.run(["--graph", dot.path] + description)
        #expect(result.status == 0)
        let text = try String(contentsOf: dot, encoding: .utf8)
        #expect(text.hasPrefix("digraph pipeline {"))
        #expect(text.contains("GstGray\\ngray0"))
        #expect(text.contains("format: I420"))
        let bad = try CLI.run(["--graph", "/tmp/x.txt"] + description)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--graph takes a .svg, .png or .dot file, not /tmp/x.txt."))
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dot") else {
            print("SKIPPED: Graphviz is not installed, so no .svg")
            return
        }
        let drawn = try CLI.run(["--graph", svg.path] + description)
        #expect(drawn.status == 0)
        #expect(drawn.stderr.contains("gstpipe: pipeline graph written to \(svg.path)"))
        #expect(try String(contentsOf: svg, encoding: .utf8).contains("<svg"))
    }
}
