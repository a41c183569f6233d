import Foundation
import Testing

@testable import gstpipe

/// `gstpipe plan-segments` and `gstpipe join --starts` on variable-frame-rate inputs: segments planned
/// on the frames themselves, transcoded apart, joined at their planned starts, give the single run's
/// frames at the single run's timestamps, read back by ffprobe (`-show_entries frame=pts_time`).
@Suite("gstpipe join of a variable-frame-rate input", .enabled(if: FFmpegCut.isInstalled, "ffmpeg is not installed"))
struct SegmentVariableRateTests {
    @Test(
        "A clip made with frames 1/30 and 1/15 s apart: segments between frames joined at the single run's pts",
        arguments: ["mp4", "mkv"])
    func madeClip(container: String) async throws {
        let input = try Media.variableRateClip()
        defer { try? FileManager.default.removeItem(at: input) }
        // 1.45 s falls between frames (1.4333 and 1.5): the planner moves each boundary to a frame.
        let join = try VariableRateJoin.run(input, segmentSeconds: "1.45", container: container)
        #expect(join.single.count == 120, "the single run's frames: \(join.single.count)")
        #expect(join.planned == 120, "the plan's frames: \(join.planned)")
        join.expectSameFrames()
        // Still variable: frames 1/30 and 1/15 s apart, as in the input.
        let steps = Set(zip(join.joined, join.joined.dropFirst()).map { (($1 - $0) * 1000).rounded() })
        #expect(steps == [33, 67], "\(steps)")
    }

    @Test(
        "moviepy's fire2.mp4 (25 frames, B-frames) in segments of 0.5 s joined into .mp4: 25 frames, the last lasting",
        .enabled(
            if: Media.isPresent("moviepy__fire2.mp4") != nil, "../shared/media/moviepy__fire2.mp4 is absent"))
    func lastFrameKept() async throws {
        let input = try #require(Media.isPresent("moviepy__fire2.mp4"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-vfr-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (segments, starts, planned) = try VariableRateJoin.transcode(
            input, segmentSeconds: "0.5", into: folder, container: "mp4")
        #expect(planned == 25 && segments.count > 1, "\(planned) frames in \(segments)")
        let joined = folder.appendingPathComponent("joined.mp4")
        let result = try CLI.run(
            ["join", joined.path] + segments + ["--starts", starts.joined(separator: ",")], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        // ffprobe dropped the last frame when mp4mux wrote it lasting 0 (24 frames).
        let frames = try VariableRateJoin.framePTS(joined)
        #expect(frames.count == 25, "\(frames)")
        let duration = try VariableRateJoin.streamDuration(joined)
        #expect(duration.map { $0 - (frames.last ?? 0) > 0.05 } == true, "\(String(describing: duration)), \(frames)")
        // One segment alone, without --starts: its own length (the last frame lasting 0, it ended on
        // that frame's pts, in a time base of 1/1215752192 s from the caps' rate of 1000000000/1).
        let last = try #require(segments.last)
        let alone = folder.appendingPathComponent("alone.mp4")
        let single = try CLI.run(["join", alone.path, last], timeout: 120)
        #expect(single.status == 0, "\(single.stderr)")
        let expected = try #require(try VariableRateJoin.streamDuration(URL(fileURLWithPath: last)))
        let got = try VariableRateJoin.streamDuration(alone)
        #expect(got.map { abs($0 - expected) < 0.00015 } == true, "\(String(describing: got)), segment \(expected)")
        let segmentFrames = try VariableRateJoin.framePTS(URL(fileURLWithPath: last))
        #expect(try VariableRateJoin.framePTS(alone) == segmentFrames)
    }

    @Test(
        "Frames turning variable after 2 s (H.264 stated 30/1): planned on the frames, as farm/run reads the plan",
        arguments: ["mp4", "mkv"])
    func turnsVariableLater(container: String) async throws {
        let input = try Media.lateVariableRateClip(container)
        defer { try? FileManager.default.removeItem(at: input) }
        // The container states 30/1, and the first 2 s keep to it (the frames after them stay on its grid,
        // every other boundary without a frame): planned on that rate, it counted 179 frames and said
        // 30/1, so farm/run joined without --starts (mp4 segments refused, mkv frames moved 1 ms and more).
        let plan = try CLI.run(["plan-segments", input.path, "--segment-seconds", "1.45", "--json"])
        #expect(plan.status == 0, "\(plan.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any]
        #expect(json?["frameRate"] is NSNull, "\(plan.stdout)")
        let segments = json?["segments"] as? [[String: Any]] ?? []
        #expect(segments.compactMap { $0["frames"] as? Int }.reduce(0, +) == 120, "\(plan.stdout)")
        // Joined as Matroska from the Matroska clip, whose times are whole milliseconds: from the MP4
        // clip each segment's times and its start round to the millisecond apart (1 ms off at most).
        guard container == "mkv" else { return }
        let join = try VariableRateJoin.run(input, segmentSeconds: "1.45", container: container)
        #expect(join.single.count == 120, "the single run's frames: \(join.single.count)")
        #expect(join.planned == 120, "the plan's frames: \(join.planned)")
        join.expectSameFrames()
        // Still 1/30 s, then 1/15 s apart (in milliseconds: 33 or 34, 66 or 67).
        let steps = zip(join.joined, join.joined.dropFirst()).map { (($1 - $0) * 30).rounded() }
        #expect(steps == Array(repeating: 1, count: 60) + Array(repeating: 2, count: 59), "\(steps)")
    }

    @Test(
        "mediabunny's cursed-vfr.mp4 in segments of 3 s, joined: the single run's frames at its timestamps",
        .enabled(
            if: Media.isPresent("mediabunny__cursed-vfr.mp4") != nil,
            "../shared/media/mediabunny__cursed-vfr.mp4 is absent"))
    func cursedClip() async throws {
        let input = try #require(Media.isPresent("mediabunny__cursed-vfr.mp4"))
        let join = try VariableRateJoin.run(input, segmentSeconds: "3", container: "mp4")
        #expect(join.single.count > 30, "the single run's frames: \(join.single.count)")
        #expect(join.planned == join.single.count, "the plan's frames: \(join.planned)")
        join.expectSameFrames()
    }

    @Test(
        "plan-segments --start between frames of cursed-vfr.mp4: the plan starts on the first frame after it",
        .enabled(
            if: Media.isPresent("mediabunny__cursed-vfr.mp4") != nil,
            "../shared/media/mediabunny__cursed-vfr.mp4 is absent"))
    func planStartsOnAFrame() throws {
        let input = try #require(Media.isPresent("mediabunny__cursed-vfr.mp4"))
        let plan = try CLI.run(["plan-segments", input.path, "--segment-seconds", "1", "--start", "1.1"], timeout: 120)
        #expect(plan.status == 0, "\(plan.stderr)")
        // ffprobe: the frame after 1.1 s is at 64236/57600 s = 1.11520833… s; resolve's seek goes 1 ns before it.
        let first = plan.stdout.split(separator: "\n").first.map { $0.split(separator: " ") }
        #expect(first?.count == 4 && first?[1] == "1.115208333", "\(plan.stdout)")
    }

    @Test("join --starts refuses a count other than the segments' (2), falling starts (2), a bad time (2)")
    func startsErrors() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-starts-\(UUID()).mp4")
        for starts in ["0", "2,1", "0,x"] {
            let result = try CLI.run(["join", output.path, "/dev/null", "/dev/zero", "--starts", starts])
            #expect(result.status == 2, "--starts \(starts): \(result.stderr)")
            #expect(result.stderr.contains("--starts"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
    }
}

/// The steps of a join: plan, one gstpipe run per segment, join at the planned starts; and the same
/// pipeline on the whole file. Times are ffprobe's pts_time of every decoded frame, in seconds.
struct VariableRateJoin {
    var joined: [Double]
    var single: [Double]
    /// The frames plan-segments counted in its segments.
    var planned: Int

    /// Expects the same frames at the same times, within 0.15 ms (mp4mux counts a variable rate in
    /// 1/10000 s, Matroska in ms: the single run is rounded the same way).
    func expectSameFrames() {
        #expect(joined.count == single.count, "joined \(joined.count) frames, single \(single.count)")
        let moved = zip(joined, single).enumerated().filter { abs($0.element.0 - $0.element.1) > 0.00015 }
        #expect(moved.isEmpty, "frames at other times (index, joined, single): \(moved.prefix(5))")
    }

    static func run(_ input: URL, segmentSeconds: String, container: String) throws -> VariableRateJoin {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-vfr-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (segments, starts, planned) = try transcode(
            input, segmentSeconds: segmentSeconds, into: folder, container: container)
        #expect(segments.count > 1, "\(segments)")
        let single = folder.appendingPathComponent("single.\(container)")
        let whole = try CLI.run([input.path, "--no-audio", "!", "gray", "!", single.path], timeout: 300)
        #expect(whole.status == 0, "\(whole.stderr)")
        let joined = folder.appendingPathComponent("joined.\(container)")
        let result = try CLI.run(
            ["join", joined.path] + segments + ["--starts", starts.joined(separator: ",")], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        return VariableRateJoin(joined: try framePTS(joined), single: try framePTS(single), planned: planned)
    }

    /// plan-segments on `input`, and one `gstpipe IN --start S --end E --no-audio ! gray ! SEG` a
    /// segment: the segments' paths, their planned starts (as printed) and the frames planned.
    static func transcode(
        _ input: URL, segmentSeconds: String, into folder: URL, container: String
    ) throws -> (paths: [String], starts: [String], frames: Int) {
        let plan = try CLI.run(["plan-segments", input.path, "--segment-seconds", segmentSeconds])
        #expect(plan.status == 0, "\(plan.stderr)")
        var segments: [String] = []
        var starts: [String] = []
        var planned = 0
        for row in plan.stdout.split(separator: "\n").map({ $0.split(separator: " ").map(String.init) }) {
            let segment = folder.appendingPathComponent("seg\(row[0]).\(container)").path
            let result = try CLI.run(
                [input.path, "--start", row[1], "--end", row[2], "--no-audio", "!", "gray", "!", segment], timeout: 300)
            #expect(result.status == 0, "\(result.stderr)")
            segments.append(segment)
            starts.append(row[1])
            planned += Int(row[3]) ?? 0
        }
        return (segments, starts, planned)
    }

    /// The first video stream's duration in seconds, as ffprobe reads it; nil when it says none.
    static func streamDuration(_ url: URL) throws -> Double? {
        let data = try standardOutput(
            of: FFProbe.path,
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=duration", "-of", "csv=p=0", url.path])
        return Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Every decoded frame's pts_time, in presentation order.
    static func framePTS(_ url: URL) throws -> [Double] {
        let data = try standardOutput(
            of: FFProbe.path,
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", url.path])
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }.sorted()
    }
}

extension Media {
    /// 120 frames of 320x240 Motion JPEG in QuickTime, 1/30 or 1/15 s apart (6 s in all; ticks of
    /// 1/90000 s), made by ffmpeg from a 30 fps test source with a setpts expression: the stream says
    /// no rate, so the discoverer reports none.
    static func variableRateClip() throws -> URL {
        let url = temporary("variable-rate", "mov")
        let pts = "13500*floor(N/3)+3000*gt(mod(N,3),0)+4500*gt(mod(N,3),1)"
        _ = try standardOutput(
            of: FFmpegCut.path,
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30:duration=4", "-vf",
                "settb=1/90000,setpts='\(pts)'", "-fps_mode", "passthrough", "-pix_fmt", "yuvj420p", "-c:v", "mjpeg",
                "-q:v", "3", "-video_track_timescale", "90000", url.path
            ])
        return url
    }

    /// 120 frames of 320x240 H.264 (no B-frames) made by ffmpeg: 60 frames 1/30 s apart, then 60
    /// 1/15 s apart, in `container` (mp4 or mkv), which states the test source's 30/1.
    static func lateVariableRateClip(_ container: String) throws -> URL {
        let url = temporary("late-variable-rate", container)
        _ = try standardOutput(
            of: FFmpegCut.path,
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-frames:v", "120", "-vf",
                "settb=1/90000,setpts='if(lt(N,60),N*3000,180000+(N-60)*6000)'", "-fps_mode", "passthrough",
                "-c:v", "libx264", "-bf", "0", "-pix_fmt", "yuv420p", "-video_track_timescale", "90000", url.path
            ])
        return url
    }
}
