import Foundation
import GstPipeSupport
import Synchronization
import Testing

@testable import gstpipe

/// `--reconnect`: a camera (gst-rtsp-server through its Python binding) killed with SIGKILL and
/// started again while gstpipe relays it through `gray` to its own RTSP output, which ffmpeg watches
/// the whole time, in a network namespace with loopback alone. The viewer must stay connected and
/// keep getting frames of one size with timestamps that never jump, the slate among them while the
/// camera is away; gstpipe must say each loss and each return once, without the password. Recorded, the
/// camera's sound runs on unbroken across a restart, and an MP4's audio ends with its video.
@Suite(
    "Inputs that come back: --reconnect", .serialized,
    .enabled(if: FFProbe.isInstalled, "ffmpeg and ffprobe are not installed"),
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"))
struct ReconnectTests {
    static let secret = "Cam-pa55-Zq9"

    @Test("The schedule: 1, 2, 4 ... 30 s between tries; --reconnect-max gives up on time; usage errors; health")
    func schedule() async throws {
        let schedule = ReconnectSchedule()
        #expect((1...8).map { schedule.delay(beforeAttempt: $0) } == [1, 2, 4, 8, 16, 30, 30, 30].map { .seconds($0) })
        #expect(!schedule.givesUp(away: .seconds(86_400)))
        let bounded = ReconnectSchedule(giveUpAfter: .seconds(10))
        #expect(!bounded.givesUp(away: .seconds(9)) && bounded.givesUp(away: .seconds(10)))
        // The last wait is cut short so that giving up is on time.
        #expect(bounded.sleep(beforeAttempt: 4, away: .seconds(7)) == .seconds(3))

        let file = try CLI.run(["videotestsrc", "num-buffers=5", "!", "fakesink", "--reconnect"], timeout: 20)
        #expect(file.status == 2 && file.stderr.contains("--reconnect opens a network input again"), "\(file.stderr)")
        let alone = try CLI.run(["rtsp://127.0.0.1:9/cam", "!", "fakesink", "--reconnect-max", "5"], timeout: 20)
        #expect(alone.status == 2 && alone.stderr.contains("add --reconnect"), "\(alone.stderr)")

        // What metrics and event lines read: each change once, a return after a loss counted.
        let health = InputHealth()
        let seen = Locked<[InputHealth.State]>([])
        health.onChange { change in seen.withLock { $0.append(change.state) } }
        var changes = health.changes.makeAsyncIterator()
        health.record(.starting, reason: "refused")
        health.record(.delivering)
        health.record(.away, reason: "it sent nothing for 2 s")
        health.record(.delivering, awayFor: .seconds(4))
        health.finish()
        var streamed: [InputHealth.Change] = []
        while let change = await changes.next() { streamed.append(change) }
        #expect(streamed.map(\.state) == [.starting, .delivering, .away, .delivering])
        #expect(seen.withLock { $0 } == streamed.map(\.state))
        #expect(streamed.map(\.reconnects) == [0, 0, 0, 1] && health.reconnects == 1)
        #expect(streamed[2].reason == "it sent nothing for 2 s" && streamed[3].awayFor == .seconds(4))
    }

    @Test("--reconnect-max: an input never there ends the run with exit 1 once the time is up")
    func givesUp() async throws {
        let namespace = try await NetworkNamespace()
        let started = Date()
        let result = await namespace.run(
            CLI.binary.path,
            [
                "rtsp://viewer:\(Self.secret)@127.0.0.1:8554/cam", "!", "gray", "!", "fakesink", "--reconnect",
                "--reconnect-max", "3", "--timeout", "1"
            ]
        ).finish(timeout: 30)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("cannot read rtsp://viewer:***@127.0.0.1:8554/cam yet:"), "\(result.stderr)")
        #expect(result.stderr.contains("not there after 3 s of trying (--reconnect-max)"), "\(result.stderr)")
        #expect(!result.stderr.contains(Self.secret), "\(result.stderr)")
        #expect(elapsed >= 3 && elapsed < 12, "\(elapsed) s")
    }

    @Test("A camera killed and started again (at another size the second time): the viewer never notices")
    func cameraRestarts() async throws {
        let namespace = try await NetworkNamespace()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-reconnect-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("gstpipe.log")
        let progress = folder.appendingPathComponent("progress")
        let events = folder.appendingPathComponent("events.jsonl")

        var camera = namespace.run("/usr/bin/python3", ["-c", Self.camera, "8554", "320", "240", "30"])
        #expect(await namespace.waitForTCP(8554))
        let relay = namespace.run(
            "/bin/sh",
            [
                "-c", "exec \"$0\" \"$@\" 2>\(log.path)", CLI.binary.path,
                "rtsp://viewer:\(Self.secret)@127.0.0.1:8554/cam", "!", "gray", "!", "rtsp://127.0.0.1:8555/out",
                "--reconnect", "--reconnect-max", "8", "--timeout", "2", "--events", events.path
            ])
        #expect(await namespace.waitForTCP(8555))
        let viewer = namespace.run(
            "/usr/bin/ffmpeg",
            [
                "-hide_banner", "-nostdin", "-nostats", "-progress", progress.path, "-rtsp_transport", "tcp", "-i",
                "rtsp://127.0.0.1:8555/out", "-vf", "showinfo", "-f", "null", "-"
            ])
        let watch = ViewerWatch(progress: progress)
        // The count read every tenth of a second, for the longest stall (ffmpeg writes it twice a second).
        let polling = Task {
            while !Task.isCancelled {
                _ = await watch.frames()
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        defer { polling.cancel() }
        #expect(await watch.waitFor(frames: 30, timeout: 30), "the viewer got no frames")
        let memoryBefore = Self.residentKiB(of: relay)

        var backAt: [Int] = []
        for (round, size) in [(320, 240), (352, 288)].enumerated() {
            camera.signal(SIGKILL)
            _ = await camera.finish(timeout: 5)
            try await Task.sleep(for: .seconds(1))
            camera = namespace.run("/usr/bin/python3", ["-c", Self.camera, "8554", "\(size.0)", "\(size.1)", "25"])
            let back = await Self.waitFor("input back", count: round + 1, in: log, timeout: 25)
            #expect(back, "\(Self.read(log))")
            backAt.append(await watch.frames())
        }
        // Frames of the camera after its last return, through to the viewer.
        #expect(await watch.waitFor(frames: (backAt.last ?? 0) + 45, timeout: 20))
        let memoryAfter = Self.residentKiB(of: relay)

        // Gone for good: the relay gives up --reconnect-max after the loss, and ends.
        camera.signal(SIGKILL)
        _ = await camera.finish(timeout: 5)
        let relayed = await relay.finish(timeout: 30)
        let stderr = Self.read(log)
        let viewed = await viewer.finish(timeout: 15)
        let stalls = await watch.longestStall()
        let frames = Self.frames(in: viewed.stderr)
        print(
            "reconnect: viewer \(await watch.frames()) frames (\(frames.count) shown), back at frames \(backAt), "
                + "longest stall \(stalls) s, largest pts step \(Self.largestStep(frames)) s, "
                + "luma runs \(Self.runs(of: frames.map(\.luma))), RSS \(memoryBefore) -> \(memoryAfter) KiB\n"
                + stderr)

        #expect(relayed.status == 1 && stderr.contains("(--reconnect-max): giving up (input lost: "), "\(stderr)")
        #expect(stderr.components(separatedBy: "gstpipe: input lost: ").count - 1 == 3, "\(stderr)")
        #expect(stderr.components(separatedBy: "gstpipe: input back after ").count - 1 == 2, "\(stderr)")
        #expect(!stderr.contains(Self.secret) && !viewed.stderr.contains(Self.secret))
        // The events say the same as stderr: three losses (the last one for good) and two returns.
        let kinds = try String(contentsOf: events, encoding: .utf8).split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["event"] as? String
        }
        #expect(kinds.filter { $0 == "input_lost" }.count == 3, "\(kinds)")
        #expect(kinds.filter { $0 == "input_back" }.count == 2, "\(kinds)")
        #expect(!(try String(contentsOf: events, encoding: .utf8)).contains(Self.secret))
        // The viewer stayed until the relay ended (the server's end of stream), with frames all along.
        #expect(frames.count >= (backAt.last ?? 0) + 45, "\(frames.count) frames")
        #expect(frames.allSatisfy { $0.size == "320x240" }, "\(Set(frames.map(\.size)))")
        // A frame is 33 ms; the filler comes in after 100 ms without one.
        #expect(Self.largestStep(frames) < 0.2, "a jump in the viewer's timestamps")
        // The camera's bars, then the slate while it was away, then the bars again.
        let lumas = frames.map(\.luma)
        #expect(
            lumas.firstIndex { $0 < 70 }.map { slate in lumas[slate...].contains { $0 > 90 } } ?? false,
            "no slate, or no camera after it, reached the viewer: \(Self.runs(of: lumas))")
        #expect(stalls < 3, "the viewer got no frame for \(stalls) s")
    }

    @Test("A recording across a camera restart: its audio runs on unbroken, silent while the camera was away")
    func audioAcrossRestart() async throws {
        let namespace = try await NetworkNamespace()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-reconnect-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("gstpipe.log")
        // Matroska: its timestamps are the pipeline's own, where MP4 shifts each track by an edit list of its
        // own (the H.264 reordering delay) and keeps the AAC encoder's priming, which blur the lengths.
        let recording = folder.appendingPathComponent("rec.mkv")

        var camera = namespace.run("/usr/bin/python3", ["-c", Self.camera, "8554", "320", "240", "25", "audio"])
        #expect(await namespace.waitForTCP(8554))
        let relay = namespace.run(
            "/bin/sh",
            [
                "-c", "exec \"$0\" \"$@\" 2>\(log.path)", CLI.binary.path, "rtsp://127.0.0.1:8554/cam", "!",
                recording.path, "--reconnect", "--timeout", "2", "--reconnect-max", "20"
            ])
        #expect(await Self.waitFor(bytes: 30_000, in: recording, timeout: 20), "\(Self.read(log))")
        try await Task.sleep(for: .seconds(2))
        camera.signal(SIGKILL)
        _ = await camera.finish(timeout: 5)
        try await Task.sleep(for: .seconds(2))
        camera = namespace.run("/usr/bin/python3", ["-c", Self.camera, "8554", "320", "240", "25", "audio"])
        // Back, and still back 3 s later: on a loaded machine a camera just started may be lost once more.
        let said = { (text: String) in Self.read(log).components(separatedBy: text).count - 1 }
        var steady = false
        let deadline = Date().addingTimeInterval(40)
        while !steady && Date() < deadline {
            let lost = said("gstpipe: input lost: ")
            guard lost >= 1 && said("gstpipe: input back after ") == lost else {
                try await Task.sleep(for: .milliseconds(200))
                continue
            }
            try await Task.sleep(for: .seconds(3))
            steady = said("gstpipe: input lost: ") == lost
        }
        #expect(steady, "\(Self.read(log))")
        relay.signal(SIGINT)
        let relayed = await relay.finish(timeout: 30)
        camera.signal(SIGKILL)
        _ = await camera.finish(timeout: 5)
        let stderr = Self.read(log)

        let audio = try Self.packets(of: "a", in: recording)
        let video = try Self.packets(of: "v", in: recording)
        // Where each packet starts against where the one before it ended (Matroska counts milliseconds).
        let steps = zip(audio, audio.dropFirst()).map { $1.pts - $0.pts }
        let gaps = zip(audio, audio.dropFirst()).map { $1.pts - ($0.pts + $0.duration) }
        let span = { (packets: [(pts: Double, duration: Double)]) -> Double in
            guard let first = packets.first, let last = packets.last else { return 0 }
            return last.pts + last.duration - first.pts
        }
        let silences = try Self.silences(in: recording)
        let stepRange = "steps \(steps.min() ?? 0)...\(steps.max() ?? 0) s, largest gap \(gaps.max() ?? 0) s"
        print(
            "reconnect audio: \(audio.count) audio packets, \(stepRange), audio \(span(audio)) s, "
                + "video \(span(video)) s (\(video.count) frames), starts: audio \(audio.first?.pts ?? -1) s, video "
                + "\(video.first?.pts ?? -1) s, silences \(silences)\n\(stderr)")
        #expect(relayed.status == 130 || relayed.status == 0, "\(stderr)")
        let losses = stderr.components(separatedBy: "gstpipe: input lost: ").count - 1
        #expect(losses >= 1, "\(stderr)")
        #expect(!stderr.contains("audio of"), "\(stderr)")
        // Audio all along: each packet starts where the one before it ended (no hole), none goes backwards.
        #expect(audio.count > 100, "\(audio.count) audio packets")
        #expect(steps.allSatisfy { $0 >= 0 } && gaps.allSatisfy { $0 < 0.0015 }, "audio \(stepRange)")
        // Starting with the video's first frame, and as long as the video, which the camera's absence did not
        // shorten either (the slate).
        #expect(
            abs((audio.first?.pts ?? -1) - (video.first?.pts ?? 1)) < 0.041,
            "audio starts at \(audio.first?.pts ?? -1) s, video at \(video.first?.pts ?? -1) s")
        #expect(
            span(video) > 8 && abs(span(audio) - span(video)) < 0.1, "audio \(span(audio)) s, video \(span(video)) s")
        // The tone, then silence for each time the camera was away (2 s, and the time it took to be found
        // lost, the first time), then the tone again.
        let total = span(audio)
        #expect(
            silences.count == losses && silences.first.map { $0.start > 1 && $0.end - $0.start > 1.5 } == true
                && silences.allSatisfy { $0.end < total - 1 },
            "silences \(silences) in \(total) s")
    }

    @Test(
        "An MP4 recorded from a camera with sound, stopped with SIGINT: its audio ends with its video, within an AAC frame"
    )
    func mp4EndsTogether() async throws {
        let namespace = try await NetworkNamespace()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-reconnect-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = folder.appendingPathComponent("rec.mp4")
        let camera = namespace.run("/usr/bin/python3", ["-c", Self.camera, "8554", "320", "240", "25", "audio"])
        #expect(await namespace.waitForTCP(8554))
        let relay = namespace.run(
            CLI.binary.path, ["rtsp://127.0.0.1:8554/cam", "!", recording.path, "--reconnect", "--timeout", "2"])
        // The file grows from its first fragment of samples on (mp4mux writes its moov at the end).
        #expect(await Self.waitFor(bytes: 100_000, in: recording, timeout: 20))
        try await Task.sleep(for: .seconds(2))
        relay.signal(SIGINT)
        let relayed = await relay.finish(timeout: 30)
        camera.signal(SIGKILL)
        _ = await camera.finish(timeout: 5)
        #expect(relayed.status == 130, "\(relayed.stderr)")
        // Where each stream's presentation ends, as ffprobe reads it (edit lists applied).
        func end(_ stream: String) throws -> Double {
            let data = try standardOutput(
                of: FFProbe.path,
                [
                    "-v", "error", "-select_streams", "\(stream):0", "-show_entries", "stream=start_time,duration",
                    "-of", "csv=p=0", recording.path
                ])
            let fields =
                String(decoding: data, as: UTF8.self).split(separator: "\n").first?.split(separator: ",")
                .compactMap { Double($0) } ?? []
            return fields.count == 2 ? fields[0] + fields[1] : 0
        }
        let (video, audio) = (try end("v"), try end("a"))
        print("mp4 ends: video \(video) s, audio \(audio) s")
        #expect(video > 2, "video \(video) s")
        // One AAC frame: 1024 samples at 48 kHz.
        #expect(abs(audio - video) <= 1024.0 / 48000, "video ends at \(video) s, audio at \(audio) s")
    }

    // MARK: Helpers

    /// Each packet of the first `stream` ("a", "v") in `file`, as ffprobe reads them: pts and duration in seconds.
    static func packets(of stream: String, in file: URL) throws -> [(pts: Double, duration: Double)] {
        let data = try standardOutput(
            of: FFProbe.path,
            [
                "-v", "error", "-select_streams", "\(stream):0", "-show_entries", "packet=pts_time,duration_time",
                "-of", "csv=p=0", file.path
            ])
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",").map { Double($0) }
            guard fields.count == 2, let pts = fields[0], let duration = fields[1] else { return nil }
            return (pts, duration)
        }.sorted { $0.pts < $1.pts }
    }

    /// The spans of `file`'s audio quieter than -50 dB for half a second or more, as ffmpeg's
    /// silencedetect finds them, in seconds from the audio's start.
    static func silences(in file: URL) throws -> [(start: Double, end: Double)] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = [
            "-hide_banner", "-nostdin", "-i", file.path, "-vn", "-af", "silencedetect=noise=-50dB:d=0.5", "-f", "null",
            "-"
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.runUnblocked()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let starts = text.matches(of: #/silence_start: ([0-9.]+)/#).compactMap { Double($0.1) }
        let ends = text.matches(of: #/silence_end: ([0-9.]+)/#).compactMap { Double($0.1) }
        let open = Array(repeating: Double.infinity, count: max(0, starts.count - ends.count))
        return zip(starts, ends + open).map { ($0, $1) }
    }

    /// Waits until `file` holds at least `bytes`.
    static func waitFor(bytes: Int, in file: URL, timeout: TimeInterval) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
            if size >= bytes { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// A live test pattern at rtsp://127.0.0.1:PORT/cam, WIDTHxHEIGHT at RATE frames a second: colour
    /// bars, whose luma averages near 120, against the slate's near 60; with a fifth argument, a 440 Hz
    /// tone beside it (Opus, 48 kHz stereo).
    static let camera = """
        import sys, gi
        gi.require_version('Gst', '1.0'); gi.require_version('GstRtspServer', '1.0')
        from gi.repository import Gst, GstRtspServer, GLib
        Gst.init(None)
        port, width, height, rate = sys.argv[1:5]
        audio = (' audiotestsrc is-live=true wave=sine freq=440 volume=0.5 ! audio/x-raw,rate=48000,channels=2 '
                 '! opusenc ! rtpopuspay name=pay1 pt=97' if len(sys.argv) > 5 else '')
        server = GstRtspServer.RTSPServer(); server.set_address('127.0.0.1'); server.set_service(port)
        factory = GstRtspServer.RTSPMediaFactory()
        factory.set_launch('( videotestsrc is-live=true ! video/x-raw,width=%s,height=%s,framerate=%s/1 '
                           '! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=15 '
                           '! rtph264pay name=pay0 pt=96%s )' % (width, height, rate, audio))
        factory.set_shared(True)
        server.get_mount_points().add_factory('/cam', factory)
        server.attach(None)
        GLib.MainLoop().run()
        """

    /// One frame the viewer decoded, from ffmpeg's showinfo: its time, size and mean luma.
    struct Frame {
        let time: Double
        let size: String
        let luma: Int
    }

    static func frames(in stderr: String) -> [Frame] {
        stderr.matches(of: #/pts_time:([0-9.]+).*? s:(\d+x\d+).*? mean:\[(\d+)/#).compactMap { match in
            guard let time = Double(match.1), let luma = Int(match.3) else { return nil }
            return Frame(time: time, size: String(match.2), luma: luma)
        }
    }

    /// The largest step between two frames' timestamps.
    static func largestStep(_ frames: [Frame]) -> Double {
        zip(frames, frames.dropFirst()).map { $1.time - $0.time }.max() ?? 0
    }

    /// "120x139 58x40 ...": each run of frames of one mean luma (rounded to tens) and its length.
    static func runs(of lumas: [Int]) -> String {
        var runs: [(Int, Int)] = []
        for luma in lumas.map({ ($0 + 5) / 10 * 10 }) {
            if runs.last?.0 == luma { runs[runs.count - 1].1 += 1 } else { runs.append((luma, 1)) }
        }
        return runs.map { "\($0.0)x\($0.1)" }.joined(separator: " ")
    }

    /// The file's text; "" while it is missing or empty. Read through FileHandle, not String(contentsOf:): in
    /// Swift 6.3.1's Foundation that one reads a file of size 0 in chunks (Linux has such files with contents) and
    /// never frees its 4 KiB buffer when the file is empty, as ffmpeg's progress file is until its first report,
    /// which LeakSanitizer reports at the end of the test run.
    static func read(_ file: URL) -> String {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return "" }
        defer { try? handle.close() }
        return (try? handle.readToEnd()).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Waits until `file` says `text` `count` times.
    static func waitFor(_ text: String, count: Int, in file: URL, timeout: TimeInterval) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if read(file).components(separatedBy: text).count - 1 >= count { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// The resident memory of `process` in KiB (0 once it has gone).
    static func residentKiB(of process: Spawned) -> Int {
        let status = read(URL(fileURLWithPath: "/proc/\(process.process.processIdentifier)/status"))
        return status.firstMatch(of: #/VmRSS:\s+(\d+)/#).flatMap { Int($0.1) } ?? 0
    }
}

/// ffmpeg's `-progress` file, read while it runs: the frames decoded so far, and the longest time
/// the count stood still.
actor ViewerWatch {
    private let progress: URL
    private var last = 0
    private var lastChange = Date()
    private var stall: TimeInterval = 0

    init(progress: URL) { self.progress = progress }

    /// The frames decoded so far.
    func frames() -> Int {
        let text = ReconnectTests.read(progress)
        let count = text.matches(of: #/frame=(\d+)/#).last.flatMap { Int($0.1) } ?? 0
        let now = Date()
        if count != last {
            if last > 0 { stall = max(stall, now.timeIntervalSince(lastChange)) }
            last = count
            lastChange = now
        }
        return count
    }

    /// Waits until the viewer has decoded `frames`, reading the count every tenth of a second.
    func waitFor(frames wanted: Int, timeout: TimeInterval) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if frames() >= wanted { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// The longest the count stood still while watched, in seconds.
    func longestStall() -> Double { (stall * 10).rounded() / 10 }
}

extension NetworkNamespace {
    /// Waits until something accepts TCP connections on 127.0.0.1:`port` in the namespace.
    func waitForTCP(_ port: Int) async -> Bool {
        let probe =
            "for i in $(seq 300); do (exec 3<>/dev/tcp/127.0.0.1/\(port)) 2>/dev/null && exit 0; sleep 0.1; done; "
            + "exit 1"
        return await run("/bin/bash", ["-c", probe]).finish(timeout: 40).status == 0
    }
}
