import Foundation
import Testing

@testable import gstpipe

/// `--start` and `--end` on video whose frames come at a variable rate: the frames ffmpeg's `-ss S -to E`
/// keeps (the first at or after S, not the one before it that is still on screen at S), the same
/// pictures, timestamps from zero, the audio cut to the same span. Starts on a frame, just after one
/// and just before one.
@Suite(
    "gstpipe IN --start S --end E on variable-rate video: the frames ffmpeg keeps",
    .enabled(if: FFmpegCut.isInstalled, "ffmpeg is not installed"))
struct TimeRangeVFRTests {
    @Test(
        "A variable-rate file made by ffmpeg (H.264 with B-frames): Matroska and MP4",
        arguments: [
            ("mkv", "0.103", "2"), ("mkv", "0.104", "2.5"), ("mkv", "0.102", "3.33"),
            ("mp4", "0.12", "1.9"), ("mp4", "0.121", "2.05"), ("mp4", "0.119", "3")
        ])
    func madeClip(container: String, start: String, end: String) async throws {
        let input = try Self.variableRateClip(container)
        defer { try? FileManager.default.removeItem(at: input) }
        try Self.cut(input, start: start, end: end, width: 320, height: 240, audio: true)
    }

    @Test(
        "Opus in Matroska: a start up to 7 ms after a frame keeps it, as ffmpeg (counting from the pre-skip) does",
        arguments: [("0.130", "2"), ("0.112", "2.5"), ("0.135", "3")])
    func opusClip(start: String, end: String) async throws {
        // ffmpeg's muxer moves the video 7 ms on (frames at 7, 57, 107, 127, 177 ms...): 0.130 and 0.112
        // come 3 and 5 ms after a frame, which ffmpeg keeps; 0.135 comes 8 ms after one, which it drops.
        let input = try Self.variableRateClip("mkv", audio: "libopus")
        defer { try? FileManager.default.removeItem(at: input) }
        try Self.cut(input, start: start, end: end, width: 320, height: 240, audio: true)
    }

    @Test(
        "The shared variable-rate clips (WebM from a recording, a phone's MP4)",
        arguments: [
            ("moviepy__no_duration.webm", "0.1", "1.5"), ("moviepy__no_duration.webm", "0.067", "0.6"),
            ("moviepy__no_duration.webm", "0.066", "2.2"), ("mediabunny__cursed-vfr.mp4", "1.1", "2.5"),
            ("mediabunny__cursed-vfr.mp4", "1.203507", "2")
        ])
    func sharedClip(name: String, start: String, end: String) throws {
        guard let input = Media.isPresent(name) else {
            print("skipped: ../shared/media/\(name) is absent")
            return
        }
        let size = try standardOutput(
            of: FFProbe.path,
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0",
                input.path
            ])
        let dimensions = String(decoding: size, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: ",").compactMap { Int($0) }
        try #require(dimensions.count == 2)
        let hasAudio = try !FFProbe(input).audio.isEmpty
        try Self.cut(input, start: start, end: end, width: dimensions[0], height: dimensions[1], audio: hasAudio)
    }

    /// Cuts `input` with gstpipe into Matroska and compares it with ffmpeg's cut.
    private static func cut(_ input: URL, start: String, end: String, width: Int, height: Int, audio: Bool) throws {
        let output = Media.temporary("range-vfr", "mkv")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run([input.path, "--start", start, "--end", end, "!", output.path], timeout: 180)
        #expect(result.status == 0, "\(result.stderr)")
        let ours = try FFmpegCut.grayFrames(output, width: width, height: height)
        let theirs = try FFmpegCut.grayFrames(input, width: width, height: height, cut: (start, end))
        #expect(
            ours.count == theirs.count && !ours.isEmpty, "frames kept: ours \(ours.count), ffmpeg's \(theirs.count)")
        // The first and last pictures are ffmpeg's, not a neighbour's (the frames before and after differ).
        if let first = ours.first, let theirFirst = theirs.first, let last = ours.last, let theirLast = theirs.last {
            #expect(FFmpegCut.psnr(first, theirFirst) > 35, "first frame: \(FFmpegCut.psnr(first, theirFirst)) dB")
            #expect(FFmpegCut.psnr(last, theirLast) > 35, "last frame: \(FFmpegCut.psnr(last, theirLast)) dB")
        }
        let video = try FFmpegCut.timestamps(output)
        #expect((video.first ?? 1) < 0.002, "timestamps start at zero: \(video.first ?? -1)")
        guard audio, let from = TimeRangeRequest.nanoseconds(start), let to = TimeRangeRequest.nanoseconds(end) else {
            return
        }
        // The audio spans end - start (ffmpeg's -to counts from the first frame kept), from zero, within
        // an audio frame or two (Vorbis's blocks are up to 2048 samples).
        let span = Double(to - from) / 1e9
        let sound = try FFmpegCut.timestamps(output, stream: "a")
        #expect((sound.first ?? 1) < 0.03, "audio from zero: \(sound.first ?? -1)")
        let length = try FFmpegCut.streamDuration(output, stream: "a") ?? sound.last ?? 0
        #expect(abs(length - span) < 0.1, "audio \(length) s for a range of \(span) s")
    }

    /// 4 s of 320x240 testsrc2 (a frame counter drawn in, so that every frame differs) whose frames
    /// come 50, 50 and 20 ms apart in turn (setpts, kept by `-fps_mode passthrough` in a millisecond
    /// time base), H.264 with B-frames, and 5 s of a tone: Vorbis in Matroska, AAC in MP4, or `audio`.
    /// GStreamer gives both a nominal rate (30/1 from Matroska's default duration, 25000/1001 guessed
    /// by qtdemux) that the frames are not on. Removed by the caller.
    static func variableRateClip(_ container: String, audio: String? = nil) throws -> URL {
        let url = Media.temporary("variable-rate", container)
        _ = try standardOutput(
            of: FFmpegCut.path,
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=4", "-f", "lavfi",
                "-i", "sine=frequency=440:sample_rate=48000:duration=5", "-vf",
                "settb=1/1000,setpts=N*40+mod(N\\,3)*10", "-fps_mode", "passthrough", "-enc_time_base:v", "1/1000",
                "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "30",
                "-c:a", audio ?? (container == "mp4" ? "aac" : "libvorbis"), url.path
            ])
        return url
    }
}
