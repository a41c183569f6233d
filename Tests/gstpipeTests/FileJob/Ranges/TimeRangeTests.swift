import Foundation
import Testing

@testable import gstpipe

/// `--start`, `--end` and `--duration`: the frames ffmpeg's `-ss S -to E` keeps when it decodes,
/// compared frame for frame (the running time is drawn into every frame), timestamps from zero, the
/// audio cut to the same span, and clear errors.
@Suite("gstpipe IN --start S --end E: a part of a file", .enabled(if: FFmpegCut.isInstalled, "ffmpeg is not installed"))
struct TimeRangeTests {
    @Test("Times read as seconds (up to 9 decimals) or HH:MM:SS.mmm, exactly")
    func times() {
        #expect(TimeRangeRequest.nanoseconds("12") == 12_000_000_000)
        #expect(TimeRangeRequest.nanoseconds("12.5") == 12_500_000_000)
        #expect(TimeRangeRequest.nanoseconds("0.000000001") == 1)
        #expect(TimeRangeRequest.nanoseconds("01:02:03.250") == 3_723_250_000_000)
        #expect(TimeRangeRequest.nanoseconds("2:03") == 123_000_000_000)
        // Past about 31 years a time is refused rather than overflowing (20000000000 s trapped).
        #expect(TimeRangeRequest.nanoseconds("1000000000") == 1_000_000_000_000_000_000)
        for bad in ["", "x", "1.", ".5", "1.0000000001", "1:60", "-1", "1:2:3:4", "1e3", "20000000000", "1000000001"] {
            #expect(TimeRangeRequest.nanoseconds(bad) == nil, "\(bad)")
        }
        #expect(TimeRangeRequest.seconds(12_500_000_000) == "12.500000000")
    }

    @Test("Messages print times as a user writes them: 2 s, 2.5 s, HH:MM:SS.mmm from a minute on")
    func spokenTimes() {
        #expect(TimeRangeRequest.spoken(2_000_000_000) == "2 s")
        #expect(TimeRangeRequest.spoken(2_500_000_000) == "2.5 s")
        #expect(TimeRangeRequest.spoken(0) == "0 s")
        #expect(TimeRangeRequest.spoken(1) == "0.000000001 s")
        #expect(TimeRangeRequest.spoken(10_043_666_666, decimals: 3) == "10.044 s")
        #expect(TimeRangeRequest.spoken(59_999_600_000, decimals: 3) == "00:01:00")
        #expect(TimeRangeRequest.spoken(3_723_250_000_000) == "01:02:03.25")
        #expect(TimeRangeRequest.spoken(90_000_000_000) == "00:01:30")
    }

    @Test(
        "The frames ffmpeg -ss S -to E keeps, the same pictures, timestamps from zero, audio of the same span",
        arguments: [
            ("mp4", "2.5", "5"), ("mkv", "3.01", "9.2"), ("mp4", "1.02", "4.99"), ("mkv", "00:00:07.300", "9.9")
        ])
    func cutAsFFmpeg(container: String, start: String, end: String) async throws {
        let input = try await Media.countedClip(container)
        let output = Media.temporary("range", container)
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run([input.path, "--start", start, "--end", end, "!", output.path], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let ours = try FFmpegCut.grayFrames(output, width: 320, height: 240)
        let theirs = try FFmpegCut.grayFrames(input, width: 320, height: 240, cut: (start, end))
        #expect(ours.count == theirs.count, "frames kept: ours \(ours.count), ffmpeg's \(theirs.count)")
        #expect(ours.count > 50)
        // Each frame shows its own time: the first and the last must be ffmpeg's, not a neighbour.
        if let first = ours.first, let theirFirst = theirs.first, let last = ours.last, let theirLast = theirs.last {
            #expect(FFmpegCut.psnr(first, theirFirst) > 35, "first frame: \(FFmpegCut.psnr(first, theirFirst)) dB")
            #expect(FFmpegCut.psnr(last, theirLast) > 35, "last frame: \(FFmpegCut.psnr(last, theirLast)) dB")
            #expect(FFmpegCut.psnr(first, ours[1]) < 35, "neighbouring frames differ (the clip moves)")
        }
        let video = try FFmpegCut.timestamps(output)
        #expect(
            (video.first ?? 1) < 0.002, "timestamps start at zero (Matroska rounds to the ms): \(video.first ?? -1)")
        let steps = zip(video, video.dropFirst()).map { $1 - $0 }
        #expect(
            steps.allSatisfy { $0 > 0.03 && $0 < 0.037 }, "one frame apart: \(steps.min() ?? 0)...\(steps.max() ?? 0)")
        // The audio spans what the video does, within one audio frame (AAC: 1024 samples at 48 kHz).
        let span = Double(ours.count) * 1001 / 30000
        let audio = try FFmpegCut.timestamps(output, stream: "a")
        #expect((audio.first ?? 1) < 0.03, "audio from zero: \(audio.first ?? -1)")
        if let audioDuration = try FFmpegCut.streamDuration(output, stream: "a") {
            #expect(abs(audioDuration - span) < 0.0214 + 0.034, "audio \(audioDuration) s for video \(span) s")
        } else {
            #expect((audio.last ?? 0) > span - 0.06, "audio reaches the end: \(audio.last ?? 0) of \(span)")
        }
    }

    @Test("A range near the end of the file is cut too: the last frames, and the run ends at the file's end")
    func nearTheEnd() async throws {
        let input = try await Media.countedClip("mp4")
        let output = Media.temporary("range-end", "mp4")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run([input.path, "--start", "9", "!", output.path], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("ends early"), "\(result.stderr)")
        let ours = try FFmpegCut.grayFrames(output, width: 320, height: 240)
        let theirs = try FFmpegCut.grayFrames(input, width: 320, height: 240, cut: ("9", "10.5"))
        #expect(ours.count == theirs.count && ours.count == 30, "\(ours.count) frames, ffmpeg \(theirs.count)")
    }

    @Test(
        "A Matroska file written without its duration (a live recording): the range is cut from the real length, not GStreamer's estimate"
    )
    func streamableMatroska() async throws {
        // matroskademux estimates such a file's length from what it read so far: 0.23 s for this 3 s
        // file, which made --start 2 "past the end" and cut --duration to a fraction of a second.
        let input = try await Media.madeFile(
            "streamable.mkv",
            "videotestsrc num-buffers=90 pattern=ball ! video/x-raw,width=160,height=120,framerate=30/1 ! "
                + "vp8enc deadline=1 ! matroskamux streamable=true ! filesink location=%@")
        let output = Media.temporary("range-streamable", "mkv")
        defer { try? FileManager.default.removeItem(at: output) }
        var result = try CLI.run([input.path, "--start", "2", "!", output.path], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FFmpegCut.grayFrames(output, width: 160, height: 120).count == 30)
        result = try CLI.run([input.path, "--start", "0.5", "--duration", "2", "!", output.path], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FFmpegCut.grayFrames(output, width: 160, height: 120).count == 60)
        result = try CLI.run([input.path, "--start", "4", "!", output.path], timeout: 120)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("--start 4 s is past the end of \(input.path), which lasts 3 s:"), "\(result.stderr)"
        )
    }

    @Test("--duration counts from --start; --no-audio writes video alone, --no-video audio alone (.mka)")
    func durationAndStreams() async throws {
        let input = try await Media.countedClip("mp4")
        let video = Media.temporary("range-video", "mp4")
        let sound = Media.temporary("range-sound", "mka")
        defer {
            try? FileManager.default.removeItem(at: video)
            try? FileManager.default.removeItem(at: sound)
        }
        var result = try CLI.run([input.path, "--start", "1.001", "--duration", "2.002", "--no-audio", "!", video.path])
        #expect(result.status == 0, "\(result.stderr)")
        let probe = try FFProbe(video)
        #expect(probe.audio.isEmpty && probe.video.count == 1)
        #expect(try FFmpegCut.grayFrames(video, width: 320, height: 240).count == 60)
        result = try CLI.run([input.path, "--start", "0", "--end", "4", "--no-video", "!", sound.path])
        #expect(result.status == 0, "\(result.stderr)")
        let soundProbe = try FFProbe(sound)
        #expect(soundProbe.video.isEmpty && soundProbe.audio.map(\.codec) == ["vorbis"])
        #expect(abs((soundProbe.duration ?? 0) - 4) < 0.05, "\(soundProbe.duration ?? 0)")
    }

    @Test(
        "Exit 2 naming the mistake: start past the end, end before start, --end with --duration, a live input",
        arguments: [
            (["--start", "20"], "past the end"), (["--start", "5", "--end", "2"], "ends (2 s) before it starts (5 s)"),
            (["--start", "1", "--end", "2", "--duration", "1"], "not both"), (["--start", "1.x"], "takes seconds"),
            (["--start", "10000000000", "--duration", "10000000000"], "at most 1000000000")
        ])
    func errors(options: [String], says: String) async throws {
        let input = try await Media.countedClip("mp4")
        let output = Media.temporary("range-error", "mp4")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run([input.path] + options + ["!", output.path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(says), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test("A start just past the end of a 32-frame clip names a length that is before it (1.066 s, not 1.067 s)")
    func pastTheEndByLessThanAMillisecond() async throws {
        let input = try await Media.madeFile(
            "short32.mp4",
            "videotestsrc num-buffers=32 ! video/x-raw,framerate=30/1 ! x264enc ! mp4mux ! filesink location=%@")
        let output = Media.temporary("range-short", "mp4")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run([input.path, "--start", "1.0667", "!", output.path], timeout: 120)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("which lasts 1.066 s:"), "\(result.stderr)")
    }

    @Test("A file the demuxer cannot seek in (IVF): --start and --end alone end with exit 1 saying so, not a hang")
    func unseekableInput() async throws {
        let input = try await Media.madeFile(
            "unseekable.ivf",
            "videotestsrc num-buffers=150 ! video/x-raw,width=160,height=120,framerate=30/1 ! vp8enc deadline=1 ! "
                + "avmux_ivf ! filesink location=%@")
        let output = Media.temporary("range-unseekable", "mp4")
        defer { try? FileManager.default.removeItem(at: output) }
        for options in [["--start", "2"], ["--end", "2"]] {
            // Well under VideoPackets' own time limit: the refused seek itself must end the reads.
            let result = try CLI.run([input.path] + options + ["!", output.path], timeout: 90)
            #expect(result.status == 1, "\(options): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("cannot seek"), "\(options): \(result.stderr)")
        }
    }

    @Test("A file of fewer video packets than VideoPackets waits for before its seek: its frames around a start")
    func framesAroundStartOfAShortFile() async throws {
        let input = try await Media.madeFile(
            "five-frames.mkv",
            "videotestsrc num-buffers=5 ! video/x-raw,width=160,height=120,framerate=10/1 ! vp8enc deadline=1 ! "
                + "matroskamux ! filesink location=%@")
        let frames = await FramesAroundStart.read(input.path, start: 250_000_000)
        #expect(frames?.before == 200_000_000 && frames?.first == 300_000_000, "\(String(describing: frames))")
    }

    @Test("A range on a live input is refused (exit 2) before anything connects")
    func liveInput() throws {
        let output = Media.temporary("range-live", "mp4")
        let result = try CLI.run(["udp://127.0.0.1:5999", "--start", "1", "!", output.path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("live input"), "\(result.stderr)")
    }

    @Test(
        "The shared sample clips are cut as ffmpeg cuts them",
        arguments: ["filetype__sample.mp4", "filetype__sample.mkv", "filetype__sample.webm"])
    func sharedClips(name: String) throws {
        guard let input = Media.isPresent(name) else {
            print("skipped: ../shared/media/\(name) is absent")
            return
        }
        let output = Media.temporary("range-shared", "mkv")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run(
            [input.path, "--start", "1.1", "--end", "3.3", "--no-audio", "!", output.path], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let size = try standardOutput(
            of: FFProbe.path,
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0",
                input.path
            ])
        let dimensions = String(decoding: size, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: ",").compactMap { Int($0) }
        try #require(dimensions.count == 2)
        let ours = try FFmpegCut.grayFrames(output, width: dimensions[0], height: dimensions[1])
        let theirs = try FFmpegCut.grayFrames(input, width: dimensions[0], height: dimensions[1], cut: ("1.1", "3.3"))
        #expect(ours.count == theirs.count && !ours.isEmpty, "ours \(ours.count), ffmpeg \(theirs.count)")
    }
}
