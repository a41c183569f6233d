import Foundation
import Testing

/// What an input file carries beside its pictures, kept through `gstpipe IN ! gray ! OUT` as
/// `ffmpeg -i IN OUT` keeps it: orientation, pixel aspect ratio, metadata. Each input is made here
/// with ffmpeg, and each output is read with ffprobe, against ffmpeg's own output where it has one.
@Suite("gstpipe keeps what ffmpeg keeps: orientation, aspect ratio, metadata, VP9 with alpha")
struct FileKeepsTests {
    /// 320x240 stored, with a display matrix turning it a quarter turn (ffmpeg 5.1 writes the
    /// `rotate` metadata as a matrix when it copies a stream, not when it encodes one).
    static func rotatedClip() throws -> URL {
        let plain = Media.temporary("plain", "mp4")
        defer { try? FileManager.default.removeItem(at: plain) }
        try FFmpeg.run(["-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-t", "2", "-c:v", "libx264", plain.path])
        let rotated = Media.temporary("rotated", "mp4")
        try FFmpeg.run(["-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=90", rotated.path])
        return rotated
    }

    @Test("A display matrix is applied: in.mp4 ! gray ! out.mp4 shows the size ffmpeg's output shows, upright")
    func autorotate() throws {
        let input = try Self.rotatedClip()
        let ours = Media.temporary("upright", "mp4")
        let theirs = Media.temporary("ffmpeg-upright", "mp4")
        defer { [input, ours, theirs].forEach { try? FileManager.default.removeItem(at: $0) } }
        #expect(try FFProbe.Video(input).rotation != nil, "the input has a display matrix")

        try FFmpeg.run(["-i", input.path, theirs.path])
        let result = try CLI.run([input.path, "!", "gray", "!", ours.path])
        #expect(result.status == 0, "\(result.stderr)")

        let expected = try FFProbe.Video(theirs)
        let output = try FFProbe.Video(ours)
        #expect(expected.width == 240 && expected.height == 320)
        #expect(output.width == expected.width && output.height == expected.height)
        #expect(output.rotation == nil, "turned, so no matrix to turn it again")
        let frames = try FFmpeg.frameCount(ours)
        #expect(frames == 50)
    }

    @Test("An orientation tag from taginject, after the caps and through gray, turns a generated source's output")
    func taggedThroughGray() throws {
        let output = Media.temporary("tagged", "mp4")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run([
            "videotestsrc", "num-buffers=10", "!", "video/x-raw,width=320,height=240", "!", "taginject",
            "tags=image-orientation=rotate-90", "!", "gray", "!", output.path
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let video = try FFProbe.Video(output)
        #expect(video.width == 240 && video.height == 320)
    }

    @Test("--no-autorotate keeps the stored size and writes the input's display matrix, as ffmpeg -noautorotate")
    func noAutorotate() throws {
        let input = try Self.rotatedClip()
        let ours = Media.temporary("stored", "mp4")
        let theirs = Media.temporary("ffmpeg-stored", "mp4")
        defer { [input, ours, theirs].forEach { try? FileManager.default.removeItem(at: $0) } }

        try FFmpeg.run(["-noautorotate", "-i", input.path, theirs.path])
        let result = try CLI.run(["--no-autorotate", input.path, "!", "gray", "!", ours.path])
        #expect(result.status == 0, "\(result.stderr)")

        let expected = try FFProbe.Video(theirs)
        let output = try FFProbe.Video(ours)
        #expect(output.width == 320 && output.height == 240)
        #expect(output.width == expected.width && output.height == expected.height)
        #expect(output.rotation != nil)
        #expect(output.rotation == expected.rotation)
        #expect(output.rotation == (try FFProbe.Video(input).rotation))
    }

    @Test(
        "A 2:1 pixel aspect ratio is kept: the same SAR and display aspect as ffmpeg's output",
        arguments: ["mp4", "mkv"])
    func pixelAspectRatio(fileExtension: String) throws {
        let input = Media.temporary("sar", "mp4")
        let ours = Media.temporary("sar-out", fileExtension)
        let theirs = Media.temporary("ffmpeg-sar", fileExtension)
        defer { [input, ours, theirs].forEach { try? FileManager.default.removeItem(at: $0) } }
        try FFmpeg.run([
            "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-t", "1", "-vf", "setsar=2/1", "-c:v", "libx264",
            input.path
        ])
        try FFmpeg.run(["-i", input.path, theirs.path])
        let result = try CLI.run([input.path, "!", "gray", "!", ours.path])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try FFProbe.Video(ours)
        #expect(output.sampleAspectRatio == "2:1")
        #expect(output.displayAspectRatio == "8:3")
        let expected = try FFProbe.Video(theirs)
        #expect(output.sampleAspectRatio == expected.sampleAspectRatio)
        #expect(output.displayAspectRatio == expected.displayAspectRatio)
    }

    /// Matroska names the tags in capitals (COMMENTS for comment) and the language by its
    /// bibliographic code (fre for fra). mp4mux, qtmux and matroskamux write the time of writing as
    /// the creation time, unless gstpipe writes the input's over it.
    @Test(
        "Title, artist, comment, creation time and the audio's language are kept",
        arguments: [("mp4", "mp4"), ("mp4", "mov"), ("mp4", "mkv"), ("mp4", "webm"), ("mkv", "mp4")])
    func metadata(inputExtension: String, outputExtension: String) throws {
        let input = Media.temporary("tags", inputExtension)
        let output = Media.temporary("tags-out", outputExtension)
        defer { [input, output].forEach { try? FileManager.default.removeItem(at: $0) } }
        try FFmpeg.run([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-f", "lavfi", "-i", "sine=duration=1", "-t", "1",
            "-c:v", "libx264", "-c:a", "aac", "-metadata", "title=A title", "-metadata", "artist=An artist",
            "-metadata", "comment=A comment", "-metadata", "creation_time=2020-01-02T03:04:05Z",
            "-metadata:s:a:0", "language=fra", input.path
        ])
        let result = try CLI.run([input.path, "!", "gray", "!", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let tags = try FFProbe.Tags(output)
        #expect(tags.format("title") == "A title")
        #expect(tags.format("artist") == "An artist")
        #expect((tags.format("comment") ?? tags.format("comments")) == "A comment")
        #expect(["fra", "fre"].contains(tags.audio["language"] ?? ""))
        #expect(
            tags.format("creation_time")?.hasPrefix("2020-01-02T03:04:05") == true,
            "the input's, not the time of writing: \(tags.format("creation_time") ?? "none")")
    }

    @Test("A Matroska title with non-ASCII letters, quotes and a backslash comes out as written")
    func matroskaEscapes() throws {
        let input = Media.temporary("escapes", "mp4")
        let output = Media.temporary("escapes-out", "mkv")
        defer { [input, output].forEach { try? FileManager.default.removeItem(at: $0) } }
        let title = #"Café "quoted" \ back"#
        try FFmpeg.run([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-t", "1", "-c:v", "libx264", "-metadata",
            "title=\(title)", input.path
        ])
        let result = try CLI.run([input.path, "!", "gray", "!", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FFProbe.Tags(output).format("title") == title)
    }

    /// WebM with AlphaMode set and no alpha in its first frame, as some writers make it: GStreamer
    /// 1.22's alpha decoders refuse it (VP8: "Cannot handle streams without an initial alpha
    /// buffer"; VP9: a not-negotiated data flow error).
    @Test("VP8 and VP9 flagged with alpha are decoded without it, with a note", arguments: ["libvpx", "libvpx-vp9"])
    func alpha(codec: String) throws {
        let input = Media.temporary("alpha", "webm")
        let output = Media.temporary("alpha-out", "mp4")
        defer { [input, output].forEach { try? FileManager.default.removeItem(at: $0) } }
        try FFmpeg.run([
            "-f", "lavfi", "-i", "testsrc=size=64x64:rate=10", "-t", "1", "-c:v", codec, "-metadata:s:v",
            "alpha_mode=1",
            input.path
        ])
        let refused = try CLI.run(
            [input.path, "!", "gray", "!", output.path],
            environment: ["GST_PLUGIN_FEATURE_RANK": "vp8alphadecodebin:MAX,vp9alphadecodebin:MAX"])
        #expect(refused.status == 1, "GStreamer's alpha decoder refuses it: \(refused.stderr)")

        let result = try CLI.run([input.path, "!", "gray", "!", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr
                == "gstpipe: \(input.path) has an alpha channel: decoding its colour alone (gstpipe writes no alpha)\n")
        #expect(try FFmpeg.frameCount(output) == 10)
    }

    @Test(
        "moviepy__no_duration.webm (VP9 with alpha, no alpha in its first frame) converts",
        .enabled(if: Media.isPresent("moviepy__no_duration.webm") != nil, "../shared/media is absent"))
    func sharedAlphaClip() throws {
        let input = try #require(Media.isPresent("moviepy__no_duration.webm"))
        let output = Media.temporary("no-duration", "mp4")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run([input.path, "!", "gray", "!", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("has an alpha channel"))
        #expect(try FFmpeg.frameCount(output) == (try FFmpeg.frameCount(input)))
    }
}

/// ffmpeg, to make test material and to show what it keeps.
enum FFmpeg {
    static let path = "/usr/bin/ffmpeg"

    /// Runs ffmpeg quietly, overwriting its output; throws with its error text when it fails.
    static func run(_ arguments: [String]) throws {
        let result = try CLI.run(["-v", "error", "-y"] + arguments, executable: URL(fileURLWithPath: path))
        guard result.status == 0 else { throw Failure(message: result.stderr) }
    }

    /// The frames of the first video stream, as ffprobe decodes them.
    static func frameCount(_ url: URL) throws -> Int? {
        let json = try FFProbe.json(
            ["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames"], url)
        return ((json["streams"] as? [[String: Any]])?.first?["nb_read_frames"] as? String).flatMap { Int($0) }
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { "ffmpeg failed: \(message)" }
    }
}

extension FFProbe {
    /// ffprobe's JSON for `entries` of `url`.
    static func json(_ entries: [String], _ url: URL) throws -> [String: Any] {
        let result = try CLI.run(
            ["-v", "error"] + entries + ["-of", "json", url.path], executable: URL(fileURLWithPath: path))
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
    }

    /// The first video stream as it is stored, and how it is to be shown.
    struct Video {
        let width: Int?
        let height: Int?
        let sampleAspectRatio: String?
        let displayAspectRatio: String?
        /// The display matrix's rotation in degrees, nil without one.
        let rotation: Int?

        init(_ url: URL) throws {
            let json = try FFProbe.json(
                [
                    "-select_streams", "v:0", "-show_entries",
                    "stream=width,height,sample_aspect_ratio,display_aspect_ratio:stream_side_data=rotation"
                ], url)
            let stream = (json["streams"] as? [[String: Any]])?.first ?? [:]
            width = stream["width"] as? Int
            height = stream["height"] as? Int
            sampleAspectRatio = stream["sample_aspect_ratio"] as? String
            displayAspectRatio = stream["display_aspect_ratio"] as? String
            rotation = (stream["side_data_list"] as? [[String: Any]])?.compactMap { $0["rotation"] as? Int }.first
        }
    }

    /// The container's tags, and the first audio stream's.
    struct Tags {
        let format: [String: String]
        let audio: [String: String]

        /// The container's tag `key`, in whatever case the container names it.
        func format(_ key: String) -> String? {
            format.first { $0.key.lowercased() == key }?.value
        }

        init(_ url: URL) throws {
            let json = try FFProbe.json(["-show_entries", "format_tags:stream=codec_type:stream_tags"], url)
            format = (json["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
            let streams = json["streams"] as? [[String: Any]] ?? []
            audio = streams.first { $0["codec_type"] as? String == "audio" }?["tags"] as? [String: String] ?? [:]
        }
    }
}
