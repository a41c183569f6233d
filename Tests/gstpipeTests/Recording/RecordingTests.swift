import Foundation
import Testing

/// `--record`: a live source recorded into rotating files read back with ffprobe (frames, lengths,
/// timestamps, names, creation times), kill -9 in the middle, retention by age and by size (at each close
/// and on the clock), a small disk that fills, usage errors; `gstpipe recordings` listing the files and
/// writing a span back (every frame of the files joined).
@Suite(
    "Recording: --record rotates files that each play, retention deletes the oldest, recordings lists and cuts spans",
    .serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: FFProbe.path), "ffprobe is not installed"))
struct RecordingTests {
    /// 30 frames a second of a moving test pattern, live.
    static let live = [
        "videotestsrc", "is-live=true", "pattern=ball", "!", "video/x-raw,width=320,height=240,framerate=30/1"
    ]
    static let frame = 1.0 / 30

    /// What ffprobe reads of one file: its frames' timestamps (seconds), length and creation time.
    struct Probe {
        var timestamps: [Double]
        var duration: Double?
        var creationTime: String?
        /// ffprobe read the file without an error.
        var plays: Bool
    }

    static func probe(_ url: URL) throws -> Probe {
        let result = try CLI.run(
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries",
                "frame=pts_time:format=duration:format_tags=creation_time",
                "-of", "json", url.path
            ],
            executable: URL(fileURLWithPath: FFProbe.path), timeout: 30)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        let frames = json["frames"] as? [[String: Any]] ?? []
        let format = json["format"] as? [String: Any]
        return Probe(
            timestamps: frames.compactMap { ($0["pts_time"] as? String).flatMap(Double.init) },
            duration: (format?["duration"] as? String).flatMap(Double.init),
            creationTime: (format?["tags"] as? [String: Any])?["creation_time"] as? String,
            plays: result.status == 0 && result.stderr.isEmpty)
    }

    /// The frames ffprobe decodes in `url`'s video (`-count_frames`).
    static func countFrames(_ url: URL) throws -> Int {
        let result = try CLI.run(
            [
                "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
                "-of", "csv=p=0", url.path
            ],
            executable: URL(fileURLWithPath: FFProbe.path), timeout: 30)
        return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The files under `folder`, relative paths sorted, hidden ones (being written) included.
    static func files(under folder: URL) -> [String] {
        let walker = FileManager.default.enumerator(atPath: folder.path)
        var found: [String] = []
        while let path = walker?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder),
                !isFolder.boolValue
            {
                found.append(path)
            }
        }
        return found.sorted()
    }

    static func folder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-record-\(name)-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test(
        "Files of 2 s from the same encoding as out.mp4: every one plays, frames add up, names and creation times agree"
    )
    func rotates() throws {
        let folder = try Self.folder("rotate")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.mp4")
        let pattern = folder.appendingPathComponent("rec/%Y-%m-%d/%H-%M-%S.mp4").path
        let result = try CLI.run(
            Self.live + ["!", "videoconvert", "!", output.path, "--record", pattern, "--record-segment", "2"],
            timeout: 40, interruptAfter: 8)
        #expect(result.status == 130, "\(result.stderr)")
        let names = Self.files(under: folder.appendingPathComponent("rec"))
        #expect(names.count >= 3, "\(names)")
        #expect(!names.contains { $0.contains(".partial") }, "a file left under its temporary name: \(names)")
        var recorded = 0
        var starts: [Date] = []
        for (position, name) in names.enumerated() {
            #expect(
                name.range(
                    of: #"^[0-9]{4}-[0-9]{2}-[0-9]{2}/[0-9]{2}-[0-9]{2}-[0-9]{2}\.mp4$"#, options: .regularExpression)
                    != nil, "\(name)")
            let probe = try Self.probe(folder.appendingPathComponent("rec/\(name)"))
            #expect(probe.plays, "\(name) does not play")
            #expect(probe.timestamps.count > 0, "\(name) has no frame")
            recorded += probe.timestamps.count
            // Cut on the key frame asked for at each 2 s: every file but the last holds 2 s, to a frame.
            if position < names.count - 1 {
                #expect(abs((probe.duration ?? 0) - 2) <= Self.frame + 0.001, "\(name): \(probe.duration ?? 0) s")
                #expect(probe.timestamps.count == 60, "\(name): \(probe.timestamps.count) frames")
            }
            let steps = zip(probe.timestamps, probe.timestamps.dropFirst()).map { $1 - $0 }
            #expect((steps.max() ?? 0) <= 2 * Self.frame + 0.001, "\(name): a gap of \(steps.max() ?? 0) s")
            // The name is the local time of the start, and so is the creation time (to the second).
            let local = DateFormatter()
            local.locale = Locale(identifier: "en_US_POSIX")
            local.dateFormat = "yyyy-MM-dd/HH-mm-ss'.mp4'"
            let named = try #require(local.date(from: name))
            let created = try #require(probe.creationTime.flatMap { ISO8601DateFormatter.withFractions.date(from: $0) })
            #expect(abs(created.timeIntervalSince(named)) < 0.001, "\(name) created \(probe.creationTime ?? "")")
            starts.append(named)
        }
        // One after the other, 2 s apart (names truncate to the second).
        for (earlier, later) in zip(starts, starts.dropFirst()) {
            #expect(abs(later.timeIntervalSince(earlier) - 2) <= 1, "\(starts)")
        }
        // The same frames as the file beside: one encoder's output, teed.
        let written = try Self.probe(output)
        #expect(
            recorded == written.timestamps.count, "recorded \(recorded) frames, out.mp4 has \(written.timestamps.count)"
        )

        // recordings --json: the same files, end to end.
        let listing = try CLI.run(["recordings", folder.appendingPathComponent("rec").path, "--json"])
        #expect(listing.status == 0, "\(listing.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any])
        let listed = try #require(json["files"] as? [[String: Any]])
        #expect(listed.count == names.count)
        #expect((json["gaps"] as? [Any])?.isEmpty == true, "\(listing.stdout)")
        let spans = listed.compactMap { file -> (Date, Date, Double)? in
            guard let start = (file["start"] as? String).flatMap(ISO8601DateFormatter.withFractions.date(from:)),
                let end = (file["end"] as? String).flatMap(ISO8601DateFormatter.withFractions.date(from:)),
                let duration = file["duration"] as? Double
            else { return nil }
            return (start, end, duration)
        }
        #expect(spans.count == names.count)
        for (earlier, later) in zip(spans, spans.dropFirst()) {
            #expect(abs(later.0.timeIntervalSince(earlier.1)) < 0.002, "not end to end: \(listing.stdout)")
        }
        #expect(abs(spans.reduce(0) { $0 + $1.2 } - Double(recorded) * Self.frame) < 0.01)

        // A span across a file's edge, cut inside files at both ends: 3 s exactly, to a frame.
        let first = try #require(spans.first)
        let from = first.0.addingTimeInterval(0.5)
        let to = from.addingTimeInterval(3)
        let span = folder.appendingPathComponent("span.mp4")
        let cut = try CLI.run([
            "recordings", folder.appendingPathComponent("rec").path, "--from",
            ISO8601DateFormatter.withFractions.string(from: from),
            "--to", ISO8601DateFormatter.withFractions.string(from: to), "--output", span.path
        ])
        #expect(cut.status == 0, "\(cut.stderr)")
        let spanProbe = try Self.probe(span)
        #expect(abs((spanProbe.duration ?? 0) - 3) <= Self.frame + 0.001, "span of \(spanProbe.duration ?? 0) s")
        #expect(abs(spanProbe.timestamps.count - 90) <= 1, "\(spanProbe.timestamps.count) frames")

        // Two whole files: joined as they are (no encoding again), 4 s, every frame of both (x264's B-frames
        // are presented after the length mp4mux writes: unless the recording mends it, qtdemux reading them
        // back dropped the last frames of each).
        let whole = folder.appendingPathComponent("whole.mp4")
        let join = try CLI.run([
            "recordings", folder.appendingPathComponent("rec").path, "--from",
            ISO8601DateFormatter.withFractions.string(from: spans[0].0),
            "--to", ISO8601DateFormatter.withFractions.string(from: spans[1].1), "--output", whole.path
        ])
        #expect(join.status == 0, "\(join.stderr)")
        let joined = try Self.probe(whole)
        let sources = try names.prefix(2).map { try Self.countFrames(folder.appendingPathComponent("rec/\($0)")) }
        #expect(sources.count == 2 && sources.allSatisfy { $0 > 0 }, "\(sources)")
        #expect(
            try Self.countFrames(whole) == sources.reduce(0, +), "\(sources) joined into \(joined.timestamps.count)")
        #expect(joined.timestamps.count == sources.reduce(0, +), "\(sources) joined into \(joined.timestamps.count)")
        #expect(abs((joined.duration ?? 0) - 4) <= Self.frame + 0.001, "\(joined.duration ?? 0) s")
    }

    @Test(
        "kill -9: every renamed file plays, the one being written stays .partial; --record-keep deletes the oldest"
    )
    func killedAndKept() throws {
        let folder = try Self.folder("kill")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pattern = folder.appendingPathComponent("%H-%M-%S.mp4").path
        let result = try CLI.run(
            Self.live + ["!", "gray", "--record", pattern, "--record-segment", "1", "--record-keep", "3s"],
            timeout: 40, interruptAfter: 8, signal: SIGKILL)
        let killed = Date()
        #expect(result.signaled && result.status == SIGKILL)
        let names = Self.files(under: folder)
        let whole = names.filter { !$0.hasPrefix(".") }
        let partial = names.filter { $0.hasPrefix(".") }
        #expect(partial.count <= 1 && partial.allSatisfy { $0.hasSuffix(".mp4.partial") }, "\(names)")
        #expect(whole.count >= 2, "\(names)")
        for name in whole {
            let probe = try Self.probe(folder.appendingPathComponent(name))
            #expect(probe.plays && probe.timestamps.count >= 25, "\(name): \(probe.timestamps.count) frames")
        }
        // About 6 s recorded in files of 1 s, 3 s kept: the oldest are gone, the newest are not.
        let ages = try whole.map { name -> Double in
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
            return killed.timeIntervalSince(try #require(attributes[.modificationDate] as? Date))
        }
        #expect(whole.count <= 5, "\(whole)")
        #expect((ages.max() ?? 99) < 3 + 1.5, "a file older than kept: \(ages)")
    }

    @Test(
        "Retention runs on the clock too: with a minute's segments, old files go on time, never the one being written")
    func retentionOnTime() throws {
        let folder = try Self.folder("keep")
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = folder.appendingPathComponent("events.jsonl")
        // Two files of an earlier run: a large one older than the other, which --record-max-size takes at
        // the first round, and a small one, which --record-keep takes 3 s after its last write.
        let large = folder.appendingPathComponent("00-00-01.mp4")
        let small = folder.appendingPathComponent("00-00-02.mp4")
        try Data(count: 2_000_000).write(to: large)
        try Data(count: 1000).write(to: small)
        let written = Date()
        try FileManager.default.setAttributes(
            [.modificationDate: written.addingTimeInterval(-1)], ofItemAtPath: large.path)
        try FileManager.default.setAttributes([.modificationDate: written], ofItemAtPath: small.path)
        let result = try CLI.run(
            Self.live + [
                "!", "gray", "--record", folder.appendingPathComponent("%H-%M-%S.mp4").path, "--record-segment", "60",
                "--record-keep", "3s", "--record-max-size", "1900K", "--events", events.path
            ],
            timeout: 40, interruptAfter: 8)
        #expect(result.status == 130, "\(result.stderr)")
        let lines = try String(contentsOf: events, encoding: .utf8).split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        func time(_ line: [String: Any]) -> Date? {
            (line["time"] as? String).flatMap(ISO8601DateFormatter.withFractions.date(from:))
        }
        let started = try #require(lines.first { $0["event"] as? String == "started" }.flatMap(time))
        let deleted = Dictionary(
            lines.filter { $0["event"] as? String == "recording_deleted" }.compactMap { line in
                (line["path"] as? String).flatMap { path in time(line).map { (path, $0) } }
            }, uniquingKeysWith: { first, _ in first })
        print("retention: started \(started), written \(written), deleted \(deleted)")
        // Each at the first round of retention after it was due (every 2 s), long before a file closed.
        let largeAt = try #require(deleted[large.path], "\(lines)")
        let smallAt = try #require(deleted[small.path], "\(lines)")
        #expect(
            largeAt.timeIntervalSince(started) < 2 + 1, "the large file went \(largeAt.timeIntervalSince(started)) s in"
        )
        let late = smallAt.timeIntervalSince(written) - 3
        #expect(late >= 0 && late < 2 + 1, "the small file went \(late) s after it was due")
        #expect(deleted.count == 2, "\(deleted)")
        // The run's own file, written all along and closed at the end, is whole and kept.
        let names = Self.files(under: folder).filter { $0.hasSuffix(".mp4") }
        #expect(names.count == 1, "\(names)")
        let probe = try Self.probe(folder.appendingPathComponent(names.first ?? "none"))
        #expect(probe.plays && probe.timestamps.count >= 150, "\(names): \(probe.timestamps.count) frames")
    }

    @Test(
        "A 2 MB disk: --record-max-size keeps under it and the run goes on; without it the disk fills, the run ends 1"
    )
    func smallDisk() throws {
        let folder = try Self.folder("tmpfs")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard succeeds("/usr/bin/unshare", ["-m", "mount", "-t", "tmpfs", "-o", "size=2M", "tmpfs", folder.path]) else {
            Issue.record("cannot mount a tmpfs in a mount namespace here (unshare -m needs root)")
            return
        }
        let gstpipe = CLI.binary.path
        // Snow: x264 cannot make it small (about 250 kB a second at 2 Mbit/s).
        let video = Self.live.joined(separator: " ").replacingOccurrences(of: "240,", with: "480,")
            .replacingOccurrences(of: "320", with: "640").replacingOccurrences(of: "ball", with: "snow")
        func run(_ options: String, seconds: Int) throws -> CLIResult {
            // The tmpfs lives in the namespace of the shell that mounts it, which runs gstpipe and lists it.
            let script = """
                mount -t tmpfs -o size=2M tmpfs \(folder.path) && \
                timeout --preserve-status -s INT \(seconds) \(gstpipe) -q \(video) ! gray \
                --record \(folder.path)/%H-%M-%S.mp4 \
                --record-segment 1 \(options); echo "status=$?"; ls -la \(folder.path); du -sb \(folder.path)
                """
            return try CLI.run(
                ["-m", "sh", "-c", script], executable: URL(fileURLWithPath: "/usr/bin/unshare"), timeout: 40)
        }
        let kept = try run("--record-max-size 700K", seconds: 8)
        #expect(kept.stdout.contains("status=130"), "\(kept.stdout)\n\(kept.stderr)")
        let used = kept.stdout.split(separator: "\n").last.flatMap { Int($0.split(separator: "\t").first ?? "") } ?? 0
        // The limit plus the file being written (about 250 kB a second at 640x480).
        #expect(used > 0 && used < 700 * 1024 + 400 * 1024, "\(kept.stdout)")
        #expect(!kept.stderr.contains("ERROR"), "\(kept.stderr)")

        let full = try run("", seconds: 30)
        #expect(full.stdout.contains("status=1\n"), "\(full.stdout)\n\(full.stderr)")
        #expect(full.stderr.contains("recording") && full.stderr.contains("failed: No space left"), "\(full.stderr)")
        #expect(full.stderr.contains("the run ends"))
    }

    @Test(
        "Usage errors exit 2: a file input, a source that is not live, a folder in the way, a bad pattern or time"
    )
    func usageErrors() throws {
        let folder = try Self.folder("usage")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("plain")
        try Data("x".utf8).write(to: file)
        let pattern = folder.appendingPathComponent("r/%H-%M-%S.mp4").path
        let cases: [([String], String)] = [
            (
                [file.path, "!", "gray", "!", folder.appendingPathComponent("o.mp4").path, "--record", pattern],
                "records live inputs"
            ),
            (["videotestsrc", "!", "gray", "--record", pattern], "is not live"),
            (Self.live + ["!", "gray", "--record", file.path + "/%S.mp4"], "is a file, not a folder"),
            (
                Self.live + ["!", "gray", "--record", folder.appendingPathComponent("%H.mp4").path],
                "must hold the seconds"
            ),
            (Self.live + ["!", "gray", "--record", folder.appendingPathComponent("%S.avi").path], ".mp4"),
            (Self.live + ["!", "gray", "--record", pattern, "--record-keep", "3x"], "--record-keep takes a duration"),
            (
                Self.live + ["!", "gray", "--record", pattern, "--record-max-size", "lots"],
                "--record-max-size takes a size"
            ),
            (["recordings", folder.path, "--from", "yesterday"], "ISO 8601"),
            (
                [
                    "recordings", folder.path, "--from", "2026-01-01T00:00:00Z", "--to", "2026-01-01T00:01:00Z",
                    "--output", "x.avi"
                ],
                "no recording holds"
            )
        ]
        for (arguments, words) in cases {
            let result = try CLI.run(arguments, timeout: 20)
            #expect(result.status == (words == "no recording holds" ? 1 : 2), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("r").path))
    }
}

extension ISO8601DateFormatter {
    /// 2026-11-28T05:49:28.000Z, as ffprobe and `recordings --json` write times.
    static var withFractions: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
