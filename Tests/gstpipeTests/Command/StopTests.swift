import Foundation
import MediaIO
import Testing

/// Every way a run ends early: keys in the terminal preview, SIGINT, SIGTERM, SIGHUP, kill -9.
@Suite("Stopping: the terminal preview's keys, SIGTERM and SIGHUP finalize files, kill -9 leaves a playable file")
struct StopTests {
    /// What a run in a real pseudo-terminal left: gstpipe's exit status, the terminal's modes after
    /// it (`stty -a` on the same terminal) and what it drew.
    struct TerminalRun {
        var status: Int32?
        var modes: [String]
        var drawn: String
        var seconds: Double
    }

    /// Runs gstpipe in a pseudo-terminal (util-linux `script`), typing `keys` into it (bytes into
    /// the terminal, not signals) or sending it `signal`, then reads the terminal's modes.
    static func onTerminal(
        _ arguments: [String], keys: [(after: TimeInterval, bytes: [UInt8])] = [],
        signal: (number: Int32, after: TimeInterval)? = nil
    ) throws -> TerminalRun {
        let pidFile = Media.temporary("pid", "txt")
        defer { try? FileManager.default.removeItem(at: pidFile) }
        let gstpipe = ([CLI.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        // exec keeps the pid written for gstpipe; stty sane starts from a terminal as a shell leaves it.
        let command =
            "stty sane; sh -c 'echo $$ > \(pidFile.path); exec \(gstpipe.replacingOccurrences(of: "'", with: "'\\''"))'; "
            + "echo gstpipe-status=$?; stty -a"
        if let signal {
            let number = signal.number
            DispatchQueue.global().asyncAfter(deadline: .now() + signal.after) {
                if let text = try? String(contentsOf: pidFile, encoding: .utf8),
                    let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
                {
                    kill(pid, number)
                }
            }
        }
        let started = Date()
        let result = try CLI.run(
            ["-q", "-e", "-c", command, "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script"),
            environment: [
                "DISPLAY": nil, "WAYLAND_DISPLAY": nil, "TERM": "xterm", "COLUMNS": "80", "LINES": "24",
                "SHELL": "/bin/sh"
            ], timeout: 30, input: keys)
        let seconds = Date().timeIntervalSince(started)
        let output = result.stdout
        guard let marker = output.range(of: "gstpipe-status=") else {
            return TerminalRun(status: nil, modes: [], drawn: output, seconds: seconds)
        }
        let after = output[marker.upperBound...]
        let status = Int32(after.prefix { $0.isNumber })
        let modes = after.split(whereSeparator: { $0.isWhitespace || $0 == ";" }).map(String.init)
        return TerminalRun(status: status, modes: modes, drawn: String(output[..<marker.lowerBound]), seconds: seconds)
    }

    /// The terminal as a shell wants it: signals from keys, line editing, echo; the cursor shown and
    /// no colour left on after the last thing drawn.
    static func expectGivenBack(_ run: TerminalRun, sourceLocation: SourceLocation = #_sourceLocation) {
        for mode in ["isig", "icanon", "echo"] {
            #expect(
                run.modes.contains(mode) && !run.modes.contains("-\(mode)"), "\(mode) after the run: \(run.modes)",
                sourceLocation: sourceLocation)
        }
        let hidden = run.drawn.range(of: "\u{1B}[?25l", options: .backwards)?.lowerBound
        let shown = run.drawn.range(of: "\u{1B}[?25h", options: .backwards)?.lowerBound
        if let hidden {
            #expect(shown.map { $0 > hidden } == true, "the cursor stays hidden", sourceLocation: sourceLocation)
        }
        let lastAttributes = run.drawn.matches(of: /\x1B\[[0-9;]*m/).last.map { String(run.drawn[$0.range]) }
        #expect(
            lastAttributes == nil || lastAttributes == "\u{1B}[0m" || lastAttributes == "\u{1B}[m",
            "colours left on: \(lastAttributes ?? "")", sourceLocation: sourceLocation)
    }

    static let hasScript = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
    static let preview = ["noise", "!", "gray", "!", "autovideosink"]

    @Test(
        "Keys typed into the terminal preview end it: Ctrl-C (exit 130), q and Escape (exit 0); the terminal comes back",
        .enabled(if: hasScript, "util-linux script is not installed"),
        arguments: [("Ctrl-C", 0x03, 130), ("q", UInt8(ascii: "q"), 0), ("Escape", 0x1B, 0)] as [(String, UInt8, Int32)]
    )
    func previewKeys(name: String, key: UInt8, status: Int32) throws {
        let run = try Self.onTerminal(Self.preview, keys: [(after: 3, bytes: [key])])
        #expect(run.status == status, "\(run.drawn.suffix(400))")
        #expect(run.seconds < 3 + 5, "exited \(run.seconds) s after start, the key was typed at 3 s")
        // The preview drew before the key: the key reached a terminal in raw mode.
        #expect(run.drawn.filter { "@8XS%t;:".contains($0) }.count > 500)
        Self.expectGivenBack(run)
    }

    @Test(
        "The terminal preview gives the terminal back after end of stream, an error and SIGTERM",
        .enabled(if: hasScript, "util-linux script is not installed"),
        arguments: ["end of stream", "error", "SIGTERM", "a second Ctrl-C"])
    func previewWaysOut(way: String) throws {
        let run: TerminalRun
        switch way {
        case "end of stream":
            run = try Self.onTerminal(["noise", "num-buffers=60", "!", "gray", "!", "autovideosink"])
            #expect(run.status == 0)
        case "error":
            run = try Self.onTerminal(["noise", "!", "gray", "!", "identity", "error-after=60", "!", "autovideosink"])
            #expect(run.status == 1)
        case "SIGTERM":
            run = try Self.onTerminal(Self.preview, signal: (SIGTERM, 3))
            #expect(run.status == 143)
            #expect(run.seconds < 3 + 5)
        default:
            // The first Ctrl-C's end of stream cannot get through an element that sleeps 10 s.
            run = try Self.onTerminal(
                ["noise", "!", "gray", "!", "identity", "sleep-time=10000000", "!", "autovideosink"],
                keys: [(after: 3, bytes: [0x03]), (after: 4, bytes: [0x03])])
            #expect(run.status == 130)
            #expect(run.seconds < 4 + 4)
        }
        Self.expectGivenBack(run)
    }

    /// A live encode to `file` stopped by `signal` after 3 s.
    static func liveEncode(to file: URL, stoppedBy signal: Int32, after seconds: TimeInterval = 3) throws -> CLIResult {
        try CLI.run(
            [
                "-q", "videotestsrc", "is-live=true", "!", "video/x-raw,width=320,height=240,framerate=30/1", "!",
                "gray", "!",
                file.path
            ],
            timeout: 60, interruptAfter: seconds, signal: signal)
    }

    @Test(
        "SIGTERM and SIGHUP end a live encode like Ctrl-C: the MP4 is finished and plays to its last frame",
        arguments: [(SIGTERM, 143), (SIGHUP, 129), (SIGINT, 130)] as [(Int32, Int32)])
    func signalFinalizesFile(signal: Int32, status: Int32) async throws {
        let file = Media.temporary("signal", "mp4")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try Self.liveEncode(to: file, stoppedBy: signal)
        #expect(result.status == status, "\(result.stderr)")
        #expect(!result.signaled)
        // An ordinary MP4: one moov after the media data, no fragments left at the top.
        let boxes = try MP4Boxes.topLevel(of: file)
        #expect(boxes.filter { $0 == "moov" }.count == 1 && !boxes.contains("moof"), "\(boxes)")
        let info = try Media.info(file)
        let duration = try #require(info.duration)
        #expect(duration > 1_000_000_000, "\(duration) ns")
        let frames = try await Media.frames(of: file)
        // Every frame decodes, the last one included: the frames cover the duration the file claims.
        #expect(frames.count >= 30)
        let (first, last) = (try #require(frames.first), try #require(frames.last))
        let end = Double(last.timestamp + (last.duration ?? 0) - first.timestamp) / 1e9
        #expect(
            abs(end - Double(duration) / 1e9) < 0.05,
            "frames end at \(end) s, the file says \(Double(duration) / 1e9) s")
        #expect(abs(Double(frames.count) - Double(duration) / 1e9 * 30) <= 1.5)
        if let probe = try FFprobe.video(of: file) {
            #expect(probe.frames == frames.count)
        }
    }

    @Test("Ctrl-C ends a pulled Swift source (audionoise, its own pad and task) by end of stream, every time")
    func pulledSourceInterrupted() throws {
        // GStreamer dropped the end of stream sent to an element without a sink pad: the run went on
        // until its second Ctrl-C, or forever.
        for _ in 0..<3 {
            let started = Date()
            let result = try CLI.run(
                ["audionoise", "!", "fakesink", "sync=true"], timeout: 30, interruptAfter: 1, signal: SIGINT)
            #expect(result.status == 130, "\(result.stderr)")
            #expect(!result.signaled)
            #expect(Date().timeIntervalSince(started) < 1 + 5)
        }
    }

    @Test("A second SIGTERM stops at once, even with a streaming thread stuck in a slow element")
    func secondSignal() throws {
        // The end of stream cannot get through an element that sleeps 10 s on every buffer.
        let started = Date()
        let result = try CLI.run(
            [
                "noise", "!", "gray", "!", "queue", "max-size-buffers=1", "!", "identity", "sleep-time=10000000", "!",
                "fakesink"
            ],
            timeout: 30, interruptAfter: 1, secondInterrupt: 2, signal: SIGTERM)
        #expect(Date().timeIntervalSince(started) < 2 + 3)
        #expect(result.status == 143)
        #expect(result.stderr.contains("SIGTERM: sending end of stream (send it again to stop at once)"))
    }

    @Test(
        "kill -9 during a live encode leaves a file that plays: MP4 and QuickTime in fragments, Matroska and WebM as they are",
        arguments: ["mp4", "mov", "mkv", "webm"])
    func killedOutright(fileExtension: String) throws {
        let file = Media.temporary("killed", fileExtension)
        defer { try? FileManager.default.removeItem(at: file) }
        // x264's lookahead holds about 1.7 s of frames at 30 fps (preset medium, ffmpeg's default):
        // what it holds is not written yet, and what is written plays up to the last whole fragment
        // (one second). So 6 s of running leave at least 2 s that play, with a second to spare for
        // start-up under a loaded test run.
        let result = try Self.liveEncode(to: file, stoppedBy: SIGKILL, after: 6)
        #expect(result.signaled && result.status == SIGKILL)
        if let probe = try FFprobe.video(of: file) {
            #expect(probe.frames >= 60, "\(probe.frames) frames play after kill -9 at 6 s")
            #expect(probe.decodeErrors.isEmpty, "\(probe.decodeErrors)")
        } else {
            let pipeline = try Pipeline(launch: "uridecodebin uri=\(file.absoluteString) ! fakesink name=out")
            let counter = try #require(pipeline.element(named: "out")?.pad(named: "sink")).countBuffers()
            try awaitEnd(pipeline)
            #expect(counter.count >= 60)
        }
    }

    private func awaitEnd(_ pipeline: Pipeline) throws {
        let done = DispatchSemaphore(value: 0)
        Task {
            try? await pipeline.run()
            done.signal()
        }
        _ = done.wait(timeout: .now() + 30)
    }

    @Test(
        "A live encode that ends by itself is an ordinary MP4; a local file's transcode is written plainly unless --crash-safe"
    )
    func fragmentsOnlyWhileRunning() async throws {
        let live = Media.temporary("live", "mp4")
        defer { try? FileManager.default.removeItem(at: live) }
        let ended = try CLI.run(
            [
                "-q", "videotestsrc", "is-live=true", "num-buffers=45", "!",
                "video/x-raw,width=160,height=120,framerate=30/1", "!",
                "gray", "!", live.path
            ])
        #expect(ended.status == 0, "\(ended.stderr)")
        let boxes = try MP4Boxes.topLevel(of: live)
        #expect(boxes.filter { $0 == "moov" }.count == 1 && !boxes.contains("moof"), "\(boxes)")
        // Written in fragments while running: their headers are inside the media data.
        #expect(try MP4Boxes.contains("moof", in: live))
        #expect(try await Media.frames(of: live).count == 45)

        let input = try await Media.clipWithoutAudio()
        for (options, fragmented) in [([String](), false), (["--crash-safe"], true)] {
            let output = Media.temporary("transcode", "mp4")
            defer { try? FileManager.default.removeItem(at: output) }
            let result = try CLI.run(options + ["-q", input.path, "!", "gray", "!", output.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try MP4Boxes.contains("moof", in: output) == fragmented, "\(options)")
            #expect(try await Media.frames(of: output).count == 250)
        }
    }
}

/// The boxes of an MP4 or QuickTime file.
enum MP4Boxes {
    /// The top-level boxes' types, in order.
    static func topLevel(of url: URL) throws -> [String] {
        let data = try Data(contentsOf: url)
        var types: [String] = []
        var offset = 0
        while offset + 8 <= data.count {
            var size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            if size == 1, offset + 16 <= data.count {
                size = data[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) }
            }
            types.append(type)
            guard size >= 8 else { break }
            offset += size
        }
        return types
    }

    /// True when a box of this type is anywhere in the file (its four letters after a size).
    static func contains(_ type: String, in url: URL) throws -> Bool {
        try Data(contentsOf: url).range(of: Data(type.utf8)) != nil
    }
}

/// ffprobe, a reader no one here wrote, when installed (scripts/setup.sh installs ffmpeg).
enum FFprobe {
    struct Video {
        var frames: Int
        var decodeErrors: String
    }

    static let path = ["/usr/bin/ffprobe", "/usr/local/bin/ffprobe"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The frames of the first video stream that decode, and what ffprobe said was wrong; nil without ffprobe.
    static func video(of url: URL) throws -> Video? {
        guard let path else { return nil }
        let result = try CLI.run(
            [
                "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries", "stream=nb_read_frames",
                "-of",
                "csv=p=0", url.path
            ],
            executable: URL(fileURLWithPath: path), timeout: 60)
        let frames = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        return Video(frames: frames, decodeErrors: result.stderr)
    }
}
