import Foundation
import Testing

@testable import gstpipe

/// `gstpipe plan-segments` and `gstpipe join`: a file cut into segments on frame boundaries, each
/// transcoded apart, joined back into the frames a single run writes, without a missing, doubled or
/// misplaced frame at a join.
@Suite("gstpipe plan-segments and join", .enabled(if: FFmpegCut.isInstalled, "ffmpeg is not installed"))
struct SegmentTests {
    @Test("Segments of N seconds on frame boundaries of 30000/1001: contiguous, the last ending the range")
    func plan() async throws {
        let input = try await Media.countedClip("mp4")
        let text = try CLI.run(["plan-segments", input.path, "--segment-seconds", "3"])
        #expect(text.status == 0, "\(text.stderr)")
        let rows = text.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.count == 4)
        #expect(rows.map { $0[0] } == ["0", "1", "2", "3"])
        // The video's end, not the container's (its AAC track ends a little later): 300 frames.
        #expect(rows.last?[2] == "10.010000000")
        #expect(rows.map { Int($0[3]) ?? 0 }.reduce(0, +) == 300)
        #expect(rows.first?[1] == "0.000000000")
        // Frame 90 at 30000/1001 is 3.003 s: the first boundary at or after 3 s.
        #expect(rows.first?[2] == "3.003000000")
        for (row, next) in zip(rows, rows.dropFirst()) { #expect(row[2] == next[1]) }
        #expect(rows.dropLast().map { $0[3] } == ["90", "90", "90"])
        let json = try CLI.run([
            "plan-segments", input.path, "--segment-seconds", "3", "--start", "1", "--end", "7", "--json"
        ])
        #expect(json.status == 0, "\(json.stderr)")
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(plan["frameRate"] as? String == "30000/1001")
        #expect((plan["durationNs"] as? Int ?? 0) > 9_900_000_000)
        let segments = try #require(plan["segments"] as? [[String: Any]])
        // Frame 30 is at 1.001 s, frame 210 at 7.007 s.
        #expect(segments.first?["startNs"] as? Int == 1_001_000_000)
        #expect(segments.last?["end"] as? String == "7.007000000")
        #expect(segments.map { $0["frames"] as? Int ?? 0 }.reduce(0, +) == 210 - 30)
        // An end past the file plans to the video's end: no segment past it.
        let past = try CLI.run(["plan-segments", input.path, "--segment-seconds", "3", "--end", "100"])
        #expect(past.status == 0, "\(past.stderr)")
        #expect(past.stdout == text.stdout, "\(past.stdout)")
    }

    @Test(
        "plan-segments ends with the video, read from the last 10 s, or from the start when the video ends earlier",
        arguments: [(30.0, 30.5, "30.000000000", 750), (5.0, 25.0, "5.000000000", 125)])
    func planVideoEnd(video: Double, audio: Double, end: String, frames: Int) throws {
        let input = Media.temporary("video-end", "mp4")
        defer { try? FileManager.default.removeItem(at: input) }
        _ = try standardOutput(
            of: FFmpegCut.path,
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=\(video)", "-f", "lavfi",
                "-i", "sine=duration=\(audio)", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", "-g",
                "50", "-c:a", "aac", input.path
            ])
        let plan = try CLI.run(["plan-segments", input.path, "--segment-seconds", "4"])
        #expect(plan.status == 0, "\(plan.stderr)")
        let rows = plan.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.last?[2] == end, "\(plan.stdout)")
        #expect(rows.map { Int($0[3]) ?? 0 }.reduce(0, +) == frames, "\(plan.stdout)")
    }

    @Test("plan-segments refuses a missing file (1) and a bad length (2)")
    func planErrors() throws {
        #expect(try CLI.run(["plan-segments", "/nonexistent.mp4", "--segment-seconds", "3"]).status == 1)
        #expect(try CLI.run(["plan-segments", "/nonexistent.mp4", "--segment-seconds", "0"]).status == 2)
    }

    @Test(
        "Segments transcoded apart and joined: the single run's frames, pts one frame apart, audio muxed",
        arguments: ["mp4", "mkv"])
    func join(container: String) async throws {
        let input = try await Media.countedClip("mp4")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-segments-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (segments, _, planned) = try VariableRateJoin.transcode(
            input, segmentSeconds: "2.5", into: folder, container: container)
        let audio = folder.appendingPathComponent("audio.\(container == "mp4" ? "m4a" : "mka")")
        #expect(try CLI.run([input.path, "--no-video", "!", audio.path], timeout: 120).status == 0)
        let single = folder.appendingPathComponent("single.\(container)")
        #expect(try CLI.run([input.path, "--no-audio", "!", "gray", "!", single.path], timeout: 120).status == 0)
        let joined = folder.appendingPathComponent("joined.\(container)")
        let result = try CLI.run(["join", joined.path] + segments + ["--audio", audio.path], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")

        let ours = try FFmpegCut.grayFrames(joined, width: 320, height: 240)
        let reference = try FFmpegCut.grayFrames(single, width: 320, height: 240)
        #expect(
            ours.count == 300 && reference.count == 300 && planned == 300, "\(ours.count) \(reference.count) \(planned)"
        )
        let worst = zip(ours, reference).map { FFmpegCut.psnr($0, $1) }.min() ?? 0
        #expect(worst > 35, "every frame is the single run's: worst \(worst) dB")
        let video = try FFmpegCut.timestamps(joined)
        #expect(video.count == 300)
        let steps = zip(video, video.dropFirst()).map { $1 - $0 }
        #expect(
            steps.allSatisfy { abs($0 - 1001.0 / 30000) < 0.0011 },
            "no gap or overlap: \(steps.min() ?? 0)...\(steps.max() ?? 0)")
        #expect(try FFProbe(joined).audio.count == 1)
    }

    @Test("200 segments joined (a few open at once): 1200 frames, pts one frame apart")
    func manySegments() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-many-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // ffmpeg's segment muxer: 40 s at 30 fps, a key frame and a new file every 0.2 s.
        _ = try standardOutput(
            of: FFmpegCut.path,
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=30:duration=40", "-pix_fmt", "yuv420p",
                "-c:v", "libx264", "-preset", "ultrafast", "-bf", "0", "-g", "6", "-force_key_frames",
                "expr:gte(t,n_forced*0.2)", "-f", "segment", "-segment_time", "0.2", "-reset_timestamps", "1",
                folder.appendingPathComponent("seg%03d.mp4").path
            ])
        let segments = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .map { folder.appendingPathComponent($0).path }
        try #require(segments.count == 200, "\(segments.count) segments")
        let joined = folder.appendingPathComponent("joined.mp4")
        let result = try CLI.run(["join", joined.path] + segments, timeout: 240)
        #expect(result.status == 0, "\(result.stderr)")
        let video = try FFmpegCut.timestamps(joined)
        #expect(video.count == 1200)
        let steps = zip(video, video.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { abs($0 - 1.0 / 30) < 0.0011 }, "\(steps.min() ?? 0)...\(steps.max() ?? 0)")
    }

    @Test("A join that fails leaves no output: a missing segment (1), segments of two encodings (1)")
    func joinFailures() async throws {
        let input = try await Media.countedClip("mp4")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-badjoin-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = folder.appendingPathComponent("small.mp4").path
        let large = folder.appendingPathComponent("large.mp4").path
        #expect(
            try CLI.run([
                input.path, "--start", "0", "--end", "1", "--no-audio", "!", "videoscale", "!",
                "video/x-raw,width=160,height=120", "!", small
            ]).status == 0)
        #expect(try CLI.run([input.path, "--start", "1", "--end", "2", "--no-audio", "!", large]).status == 0)
        let output = folder.appendingPathComponent("out.mp4")
        var result = try CLI.run(["join", output.path, small, folder.appendingPathComponent("none.mp4").path])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        // The reason, not the demuxer's not-linked error that follows the refusal: in either order, and
        // again (which segment's pad comes first is a race).
        for order in [[small, large], [large, small], [small, large], [large, small, small]] {
            result = try CLI.run(["join", output.path] + order, timeout: 60)
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("join takes segments of one size, codec and frame rate"), "\(result.stderr)")
            let namesBoth = result.stderr.contains("width=(int)160") && result.stderr.contains("width=(int)320")
            #expect(namesBoth, "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("Segments of a variable-frame-rate clip are refused by join without --starts, naming the frame rate (1)")
    func variableFrameRate() throws {
        guard let input = Media.isPresent("mediabunny__cursed-vfr.mp4") else {
            print("skipped: ../shared/media/mediabunny__cursed-vfr.mp4 is absent")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-vfrjoin-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("0.mp4").path
        let second = folder.appendingPathComponent("1.mp4").path
        #expect(
            try CLI.run([input.path, "--start", "0", "--end", "3", "--no-audio", "!", "gray", "!", first]).status == 0)
        #expect(
            try CLI.run([input.path, "--start", "3", "--end", "6", "--no-audio", "!", "gray", "!", second]).status == 0)
        let output = folder.appendingPathComponent("out.mkv")
        let result = try CLI.run(["join", output.path, first, second], timeout: 60)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("give --starts"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
