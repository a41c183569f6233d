import Foundation
import GStreamer
import Testing

@Suite("encodebin and the transcoder: files written to a profile, read back with ffprobe", .bounded)
struct EncodeBinTests {
    static var hasTools: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe")
            && ["x264enc", "mp4mux", "vp8enc", "vorbisenc", "webmmux"].allSatisfy { GStreamer.hasElement(named: $0) }
            && (GStreamer.hasElement(named: "avenc_aac") || GStreamer.hasElement(named: "voaacenc"))
    }

    static let needsTools: ConditionTrait = .enabled(
        if: hasTools, "needs ffprobe, x264enc, mp4mux, an AAC encoder, vp8enc, vorbisenc and webmmux")

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
            "stream=codec_name,codec_type,width,height,nb_read_frames:format=format_name", "-of", "json", path
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
                .audio("audio/mpeg,mpegversion=4")
            ])
        let pipeline = try Pipeline(name: "mp4")
        let encoder = try EncodeBin(profile: profile)
        let sink = try Element(factory: "filesink")
        try sink.set("location", path)
        try pipeline.add(encoder, sink)
        try encoder.link(to: sink)
        for (factory, buffers, raw) in [("videotestsrc", 30, "video/x-raw"), ("audiotestsrc", 43, "audio/x-raw")] {
            let source = try Element(factory: factory)
            try source.set("num-buffers", buffers)
            try pipeline.add(source)
            try #require(source.pad(named: "src")).link(to: encoder.requestPad(for: Caps(raw)))
        }
        try await pipeline.run()
    }

    /// A new folder holding clip.mp4 (``writeMP4(_:)``); the caller removes the folder.
    static func clip() async throws -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("encodebin-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("clip.mp4").path
        try await writeMP4(path)
        return (directory, path)
    }

    @Test(
        "Test sources through an EncodeBin with a Swift-made profile give an MP4 of 30 H.264 frames at 160x96 and AAC",
        needsTools, .timeLimit(.minutes(2)))
    func mp4FromSwiftProfile() async throws {
        let (directory, path) = try await Self.clip()
        defer { try? FileManager.default.removeItem(at: directory) }
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
        needsTools, .timeLimit(.minutes(2)))
    func transcodeToWebM() async throws {
        let (directory, input) = try await Self.clip()
        defer { try? FileManager.default.removeItem(at: directory) }

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
        needsTools, .timeLimit(.minutes(2)))
    func missingEncoder() async throws {
        let profile = try EncodingProfile.container(
            "video/quicktime,variant=iso", streams: [.video("video/x-nonexistent")])
        let refusal = try #require(throws: GStreamerError.self) { try EncodeBin(profile: profile) }
        // mp4mux takes no video/x-nonexistent, so encodebin reports the muxer as the missing part.
        #expect(
            refusal.message.hasPrefix(
                "encodebin refused the profile video/quicktime, variant=(string)iso:video/x-nonexistent: missing "))
        #expect(refusal.message.contains("(installer detail gstreamer|1.0|"))

        // A profile encodebin builds, asked for a kind of stream it has none of.
        let videoOnly = try EncodeBin(profile: .container("video/webm", streams: [.video("video/x-vp8")]))
        let padError = try #require(throws: GStreamerError.self) { try videoOnly.requestPad(for: Caps("audio/x-raw")) }
        #expect(
            padError.message.contains(
                "has no pad for audio/x-raw: no stream of its profile (video video/x-vp8) takes it"))

        let (directory, input) = try await Self.clip()
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = await #expect(throws: GStreamerError.self) {
            try await Transcoder.encode(
                from: input, to: directory.appendingPathComponent("out.mp4").path, profile: profile)
        }
        #expect(error?.message == refusal.message)
    }
}
