import Foundation
import Testing

/// `gstpipe plan-segments` on inputs a user meets in the wild (found by trying it on the clips in
/// ../shared/media): a file with no video, one whose headers describe media that is not there, and a
/// WebM whose stated length is shorter than its frames. Each is made here with ffmpeg.
@Suite("plan-segments on damaged and odd inputs", .enabled(if: FFmpegCut.isInstalled, "ffmpeg is not installed"))
struct PlanSegmentsInputTests {
    private func ffmpeg(_ arguments: [String]) throws {
        _ = try standardOutput(of: FFmpegCut.path, ["-v", "error", "-y"] + arguments)
    }

    @Test("A file without video (subtitles alone, audio alone) is refused at once, not planned or waited on")
    func noVideo() throws {
        let subtitled = try Media.subtitlesOnly("plan")
        let audio = Media.temporary("plan-audio-only", "mka")
        defer { [subtitled, audio].forEach { try? FileManager.default.removeItem(at: $0) } }
        try ffmpeg(["-f", "lavfi", "-i", "sine=duration=3", audio.path])
        for file in [subtitled, audio] {
            let started = Date()
            // Before: the subtitle-only file waited for video until VideoPackets' 120 s limit; the
            // audio-only one printed segments of 0 frames and exited 0.
            let plan = try CLI.run(["plan-segments", file.path, "--segment-seconds", "2"], timeout: 60)
            #expect(plan.status == 1, "\(plan.stdout)\(plan.stderr)")
            #expect(plan.stdout.isEmpty)
            #expect(plan.stderr.contains("\(file.path) has no video stream"), "\(plan.stderr)")
            #expect(Date().timeIntervalSince(started) < 50)
        }
    }

    @Test("An MP4 whose header describes 20 s of video with no media data after it is refused, not planned")
    func noMediaData() throws {
        let whole = Media.temporary("plan-whole", "mp4")
        let cut = Media.temporary("plan-no-data", "mp4")
        defer { [whole, cut].forEach { try? FileManager.default.removeItem(at: $0) } }
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=20", "-pix_fmt", "yuv420p", "-c:v", "libx264",
            "-preset", "ultrafast", "-movflags", "+faststart", whole.path
        ])
        // The header (moov first) and the start of the media data box: no sample is readable.
        let bytes = try Data(contentsOf: whole)
        let mdat = try #require(bytes.range(of: Data("mdat".utf8)))
        try bytes.prefix(mdat.upperBound + 64).write(to: cut)
        let plan = try CLI.run(["plan-segments", cut.path, "--segment-seconds", "5"], timeout: 120)
        #expect(plan.status == 1, "\(plan.stdout)\(plan.stderr)")
        #expect(plan.stdout.isEmpty, "\(plan.stdout)")
        #expect(plan.stderr.contains("no video frames could be read from \(cut.path)"), "\(plan.stderr)")
    }

    @Test(
        "A WebM whose Duration says less than its frames is planned to its last frame, with and without a stated rate",
        arguments: [true, false])
    func shortStatedLength(statedRate: Bool) throws {
        let written = Media.temporary("plan-vfr", "webm")
        let short = Media.temporary("plan-vfr-short", "webm")
        defer { [written, short].forEach { try? FileManager.default.removeItem(at: $0) } }
        // At a stated 20 fps; without one, frames 50 ms apart, then 60, 70, ... ms.
        let timing = statedRate ? [] : ["-vf", "setpts='(N*0.05+gte(N,10)*N*0.01)/TB'", "-fps_mode", "vfr"]
        let source = ["-f", "lavfi", "-i", "testsrc=size=160x120:rate=20", "-t", "4"]
        try ffmpeg(source + timing + ["-c:v", "libvpx", written.path])
        let counted = try standardOutput(
            of: FFProbe.path,
            [
                "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
                "-of",
                "csv=p=0", written.path
            ])
        let text = String(decoding: counted, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let frames = try #require(Int(text))
        // Its Duration (an 8-byte float in milliseconds) set to 400: what moviepy's no_duration.webm,
        // which has none, gets from GStreamer's discoverer (0.398 s of its 4.9).
        var bytes = try Data(contentsOf: written)
        let duration = try #require(bytes.range(of: Data([0x44, 0x89, 0x88])))
        let value = withUnsafeBytes(of: Double(400).bitPattern.bigEndian) { Data($0) }
        bytes.replaceSubrange(duration.upperBound..<duration.upperBound + 8, with: value)
        if !statedRate {
            // DefaultDuration (4 bytes of nanoseconds) made a Void element of the same size: no rate,
            // so the plan reads every frame's time, as for that clip.
            let rate = try #require(bytes.range(of: Data([0x23, 0xE3, 0x83, 0x84])))
            let void: [UInt8] = [0xEC, 0x86] + [UInt8](repeating: 0, count: 6)
            bytes.replaceSubrange(rate.lowerBound..<rate.upperBound + 4, with: void)
        }
        try bytes.write(to: short)
        let plan = try CLI.run(["plan-segments", short.path, "--segment-seconds", "2"], timeout: 120)
        #expect(plan.status == 0, "\(plan.stderr)")
        let rows = plan.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        // Before: one segment, 0 to 0.4 s, holding 8 frames (of 67 at variable rate, 80 at 20 fps).
        #expect(rows.map { Int($0[3]) ?? 0 }.reduce(0, +) == frames, "\(plan.stdout)")
        #expect(rows.count == 2, "\(plan.stdout)")
        #expect((Double(rows.last?[2] ?? "") ?? 0) > 3.9, "\(plan.stdout)")
    }
}

extension Media {
    /// A Matroska file holding one subtitle track and nothing else, as pymediainfo's sample.mkv (made
    /// with ffmpeg, which must be installed); the caller removes it.
    static func subtitlesOnly(_ name: String) throws -> URL {
        let subtitles = temporary("\(name)-subtitles", "srt")
        defer { try? FileManager.default.removeItem(at: subtitles) }
        let file = temporary("\(name)-subtitles-only", "mkv")
        try Data("1\n00:00:00,000 --> 00:00:01,000\nhello\n".utf8).write(to: subtitles)
        _ = try standardOutput(of: FFmpegCut.path, ["-v", "error", "-y", "-i", subtitles.path, file.path])
        return file
    }
}
