import Foundation
import GStreamer
import Testing

@Suite("encodebin and the transcoder: files written to a profile, read back with ffprobe")
struct EncodeBinTests {
    static var hasTools: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe")
            && ["x264enc", "mp4mux", "vp8enc", "vorbisenc", "webmmux"].allSatisfy { GStreamer.hasElement(named: $0) }
            && (GStreamer.hasElement(named: "avenc_aac") || GStreamer.hasElement(named: "voaacenc"))
    }

    /// What ffprobe reads from a file: the container's format names, and per stream its codec, size
    /// and the frames it decoded.
    struct Probe: Decodable {
        struct Stream: Decodable {
            var codec_name: String
            var codec_type: String
            var width: Int?
            var height: Int?
            var nb_read_frames: String?
        }
        struct Format: Decodable { var format_name: String }
        var streams: [Stream]
        var format: Format

        func stream(_ type: String) -> Stream? { streams.first { $0.codec_type == type } }
    }

    static func probe(_ path: String) throws -> Probe {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = [
            "-v", "error", "-count_frames", "-show_entries",
            "stream=codec_name,codec_type,width,height,nb_read_frames:format=format_name", "-of", "json", path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONDecoder().decode(Probe.self, from: data)
    }

    /// Writes 30 frames of videotestsrc and 43 buffers of audiotestsrc to an MP4 of H.264 at 160x96
    /// (a restriction of the profile's) and AAC, through an EncodeBin built in code.
    static func writeMP4(_ path: String) async throws {
        let profile = try EncodingProfile.container(
            "video/quicktime,variant=iso",
            streams: [
                // A presence makes encodebin create the stream's pad up front: requestPad finds it.
                .video("video/x-h264", restriction: "video/x-raw,width=160,height=96", presence: 1),
                .audio("audio/mpeg,mpegversion=4"),
            ])
        let pipeline = try Pipeline(name: "mp4")
        let video = try Element(factory: "videotestsrc")
        try video.set("num-buffers", 30)
        let audio = try Element(factory: "audiotestsrc")
        try audio.set("num-buffers", 43)
        let encoder = try EncodeBin(profile: profile)
        let sink = try Element(factory: "filesink")
        try sink.set("location", path)
        try pipeline.add(video, audio, encoder, sink)
        try #require(video.pad(named: "src")).link(to: encoder.requestPad(for: Caps("video/x-raw")))
        try #require(audio.pad(named: "src")).link(to: encoder.requestPad(for: Caps("audio/x-raw")))
        try encoder.link(to: sink)
        try await pipeline.run()
    }

    static func folder() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("encodebin-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test(
        "Test sources through an EncodeBin with a Swift-made profile give an MP4 of 30 H.264 frames at 160x96 and AAC",
        .enabled(if: hasTools, "needs ffprobe, x264enc, mp4mux, an AAC encoder, vp8enc, vorbisenc and webmmux"),
        .timeLimit(.minutes(2)))
    func mp4FromSwiftProfile() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("clip.mp4").path
        try await Self.writeMP4(path)
        let probe = try Self.probe(path)
        #expect(probe.format.format_name.contains("mp4"))
        let video = try #require(probe.stream("video"))
        #expect(video.codec_name == "h264")
        #expect(video.width == 160 && video.height == 96)
        #expect(video.nb_read_frames == "30")
        #expect(probe.stream("audio")?.codec_name == "aac")
    }

    @Test(
        "Transcoder.encode turns that MP4 into WebM with VP8 and Vorbis (a serialized profile), or VP8 alone",
        .enabled(if: hasTools, "needs ffprobe, x264enc, mp4mux, an AAC encoder, vp8enc, vorbisenc and webmmux"),
        .timeLimit(.minutes(2)))
    func transcodeToWebM() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("clip.mp4").path
        try await Self.writeMP4(input)

        let both = directory.appendingPathComponent("both.webm").path
        try await Transcoder.encode(
            from: input, to: both, profile: EncodingProfile(string: "video/webm:video/x-vp8:audio/x-vorbis"))
        let probe = try Self.probe(both)
        #expect(probe.format.format_name.contains("webm"))
        #expect(probe.stream("video")?.codec_name == "vp8")
        #expect(probe.stream("video")?.width == 160)
        #expect(probe.stream("video")?.nb_read_frames == "30")
        #expect(probe.stream("audio")?.codec_name == "vorbis")

        // The profile has no audio stream: the decoded audio is dropped, not an error.
        let videoOnly = directory.appendingPathComponent("video.webm").path
        try await Transcoder.encode(
            from: "file://" + input, to: videoOnly, profile: EncodingProfile(string: "video/webm:video/x-vp8"))
        #expect(try Self.probe(videoOnly).streams.map(\.codec_name) == ["vp8"])
    }

    @Test(
        "An encoder that does not exist fails with the caps and the missing-plugin detail, without hanging",
        .enabled(if: hasTools, "needs ffprobe, x264enc, mp4mux, an AAC encoder, vp8enc, vorbisenc and webmmux"),
        .timeLimit(.minutes(2)))
    func missingEncoder() async throws {
        let profile = try EncodingProfile.container(
            "video/quicktime,variant=iso", streams: [.video("video/x-nonexistent")])
        let refusal = try #require(throws: GStreamerError.self) { try EncodeBin(profile: profile) }
        // mp4mux takes no video/x-nonexistent, so encodebin reports the muxer as the missing part.
        #expect(refusal.message.hasPrefix(
            "encodebin refused the profile video/quicktime, variant=(string)iso:video/x-nonexistent: missing "))
        #expect(refusal.message.contains("(installer detail gstreamer|1.0|"))

        // A profile encodebin builds, asked for a kind of stream it has none of.
        let videoOnly = try EncodeBin(profile: .container("video/webm", streams: [.video("video/x-vp8")]))
        let padError = try #require(throws: GStreamerError.self) { try videoOnly.requestPad(for: Caps("audio/x-raw")) }
        #expect(padError.message.contains(
            "has no pad for audio/x-raw: no stream of its profile (video video/x-vp8) takes it"))

        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("clip.mp4").path
        try await Self.writeMP4(input)
        let error = await #expect(throws: GStreamerError.self) {
            try await Transcoder.encode(
                from: input, to: directory.appendingPathComponent("out.mp4").path, profile: profile)
        }
        #expect(error?.message == refusal.message)
    }
}
