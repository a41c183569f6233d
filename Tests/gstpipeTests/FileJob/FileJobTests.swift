import Foundation
import GstPipeParsing
import MediaIO
import Testing

@testable import gstpipe

@Suite("gstpipe with files: input.mp4 ! gray ! output.mp4")
struct FileJobTests {
    @Test("in.mp4 ! gray ! out.mp4 keeps every frame and the audio, and the picture is gray")
    func keepsAudio() async throws {
        let input = try await Media.clipWithAudio()
        let output = Media.temporary("out", "mp4")
        defer { try? FileManager.default.removeItem(at: output) }
        // A badly sized muxing path hangs here (x264enc holds seconds of frames, the muxer waits).
        let result = try CLI.run([input.path, "!", "gray", "!", output.path], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty, "no progress line when stdout is not a terminal")
        let info = try Media.info(output)
        #expect(info.videoStreams == 1)
        #expect(info.audioStreams == 1)
        let duration = try #require(info.duration)
        #expect(duration > 3_900_000_000 && duration < 4_200_000_000)
        let frames = try await Media.frames(of: output)
        #expect(frames.count == 100)
        let spread = try frames.map(Media.chromaSpread).max() ?? 255
        #expect(spread <= 3, "chroma stays neutral after gray (x264 rounding aside)")
        let inputFrame = try #require(try await Media.frames(of: input).first)
        #expect(try Media.chromaSpread(inputFrame) > 60, "the input really has colour")
    }

    @Test("A file name ending a tee's branch is an output too: every frame in each file, the audio in the last one")
    func teeToTwoFiles() async throws {
        let input = try await Media.clipWithAudio()
        let first = Media.temporary("branch", "mp4")
        let second = Media.temporary("branch", "mkv")
        defer { [first, second].forEach { try? FileManager.default.removeItem(at: $0) } }
        let result = try CLI.run(
            [
                input.path, "!", "gray", "!", "tee", "name=t", "!", "queue", "!", first.path, "t.", "!", "queue", "!",
                second.path
            ], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "gstpipe: \(first.path) gets video only: the audio goes to one output\n")
        for (file, audio) in [(first, 0), (second, 1)] {
            let frames = try await Media.frames(of: file)
            #expect(frames.count == 100, "\(file.lastPathComponent)")
            #expect(try frames.map(Media.chromaSpread).max() ?? 255 <= 3, "\(file.lastPathComponent) is gray")
            #expect(try Media.info(file).audioStreams == audio, "\(file.lastPathComponent)")
        }
    }

    @Test("One image beside a video in a tee: the picture is the first frame, and the video keeps every frame")
    func teeImageAndVideo() async throws {
        let input = try await Media.clipWithAudio()
        let image = Media.temporary("tee-still", "png")
        let video = Media.temporary("tee-video", "mp4")
        defer { [image, video].forEach { try? FileManager.default.removeItem(at: $0) } }
        let result = try CLI.run(
            [input.path, "!", "tee", "name=t", "!", "queue", "!", image.path, "t.", "!", "queue", "!", video.path],
            timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        // An image encoder's own end of stream, answered up through the tee, stopped the video after a few frames.
        #expect(try await Media.frames(of: video).count == 100)
        #expect(try Media.info(video).audioStreams == 1)
        let still = try await Media.frames(of: image)
        #expect(still.count == 1)
        // The same picture as an image output alone writes: the first frame.
        let alone = Media.temporary("still-alone", "png")
        defer { try? FileManager.default.removeItem(at: alone) }
        #expect(try CLI.run([input.path, "!", alone.path], timeout: 60).status == 0)
        let reference = try #require(try await Media.frames(of: alone).first)
        #expect(try Media.luma(still[0]) == Media.luma(reference))
    }

    @Test(
        "An output inside a ( ... ) bin still gets the input's audio, through ghost pads across the bins",
        arguments: [
            (["(", "gray", "!", "OUT", ")"], "mp4"), (["(", "gray", "!", "OUT", ")"], "mkv"),
            (["gray", "!", "(", "queue", "!", "OUT", ")"], "mov")
        ])
    func outputInBin(description: [String], fileExtension: String) async throws {
        let input = try await Media.clipWithAudio()
        let output = Media.temporary("in-bin", fileExtension)
        defer { try? FileManager.default.removeItem(at: output) }
        let tokens = description.map { $0 == "OUT" ? output.path : $0 }
        let result = try CLI.run([input.path, "!"] + tokens, timeout: 60)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let info = try Media.info(output)
        #expect(info.videoStreams == 1 && info.audioStreams == 1, "\(info)")
        let duration = try #require(info.duration)
        #expect(duration > 3_900_000_000 && duration < 4_200_000_000)
        #expect(try await Media.frames(of: output).count == 100)
    }

    @Test(
        "What cannot link to the input or to an output is a usage error naming the user's element",
        arguments: [
            (["x264enc"], "could not link x264enc0 to gstpipe-encode0"),
            (["gray", "!", "jpegenc"], "could not link jpegenc0 to gstpipe-encode0"),
            (["jpegdec"], "could not link videoconvert0 to jpegdec0")
        ])
    func linkErrorsNameTheElement(elements: [String], message: String) async throws {
        let input = try await Media.clipWithAudio()
        let output = Media.temporary("unlinkable", "mkv")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run([input.path, "!"] + elements + ["!", output.path], timeout: 30)
        #expect(result.status == 2 && result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    /// ffmpeg writes `-vf format=gray` as monochrome H.264, with no chroma planes to encode: so does
    /// gstpipe for gray's output (x264grayenc). Other video, or gray made 4:2:0 on purpose (for players
    /// that take no 4:0:0), goes through x264enc.
    @Test(
        "gray ! out.mp4 writes monochrome (4:0:0) H.264; gray ! video/x-raw,format=I420 and colour stay 4:2:0",
        arguments: [
            (["gray"], "mp4", "4:0:0"), (["gray"], "mkv", "4:0:0"), (["gray"], "mov", "4:0:0"),
            (["gray", "!", "video/x-raw,format=I420"], "mp4", "4:2:0"), (["videoflip", "method=none"], "mp4", "4:2:0")
        ])
    func chromaFormat(elements: [String], fileExtension: String, chroma: String) async throws {
        let input = try await Media.clipWithAudio()
        let output = Media.temporary("chroma", fileExtension)
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run([input.path, "!"] + elements + ["!", output.path], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try await Media.h264ChromaFormat(of: output) == chroma)
        #expect(try await Media.frames(of: output).count == 100)
        #expect(try Media.info(output).audioStreams == 1)
    }

    @Test(
        "The extension chooses encoder and muxer",
        arguments: [("mkv", 1), ("mov", 1), ("webm", 1), ("y4m", 0)])
    func formats(fileExtension: String, audioStreams: Int) async throws {
        let input = try await Media.clipWithAudio()
        let output = Media.temporary("format", fileExtension)
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run([input.path, "!", "gray", "!", output.path], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        let info = try Media.info(output)
        #expect(info.videoStreams == 1)
        #expect(info.audioStreams == audioStreams)
        #expect(try await Media.frames(of: output).count == 100)
        if fileExtension == "y4m" {
            #expect(result.stderr.contains("holds no audio: writing video only"))
            let header = try String(decoding: Data(contentsOf: output).prefix(9), as: UTF8.self)
            #expect(header == "YUV4MPEG2")
        }
    }

    @Test(
        "An input without audio: each container gets the video alone, and no empty audio track",
        arguments: ["mp4", "mov", "mkv", "webm"])
    func noAudioInput(fileExtension: String) async throws {
        let input = try await Media.clipWithoutAudio()
        let output = Media.temporary("video-only", fileExtension)
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run([input.path, "!", "gray", "!", output.path], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "no note, no warning: \(result.stderr)")
        let info = try Media.info(output)
        #expect(info.videoStreams == 1)
        #expect(info.audioStreams == 0)
        #expect(try await Media.frames(of: output).count == 250)
    }

    @Test("A chained Ogg (video alone, then video and audio) ends with an exit status, never a crash")
    func chainedOgg() async throws {
        let first = Media.temporary("chain-video", "ogg")
        let second = Media.temporary("chain-both", "ogg")
        let chained = Media.temporary("chained", "ogg")
        let output = Media.temporary("from-chained", "mp4")
        defer { [first, second, chained, output].forEach { try? FileManager.default.removeItem(at: $0) } }
        try await Pipeline(
            launch: "videotestsrc num-buffers=25 ! video/x-raw,width=160,height=120,framerate=25/1 ! theoraenc ! "
                + "oggmux ! filesink location=\(first.path)"
        ).run()
        try await Pipeline(
            launch: "videotestsrc num-buffers=25 ! video/x-raw,width=160,height=120,framerate=25/1 ! theoraenc ! "
                + "oggmux name=m ! filesink location=\(second.path) audiotestsrc num-buffers=40 ! vorbisenc ! m."
        ).run()
        try (Data(contentsOf: first) + Data(contentsOf: second)).write(to: chained)
        // The audio branch is taken out at the first streams, and the second link brings audio: it
        // must not be linked to the branch then (a gst-launch delayed link once did that to a freed
        // branch: GStreamer-CRITICAL, then a crash).
        let result = try CLI.run(
            [chained.path, "!", "gray", "!", output.path],
            environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "G_DEBUG": "fatal-criticals"], timeout: 60)
        #expect(!result.signaled, "\(result.stderr)")
        #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
        #expect(!result.stderr.contains("CRITICAL"), "\(result.stderr)")
    }

    @Test("A .y4m of a width GStreamer pads holds packed rows: the size adds up and the luma is the input's")
    func y4mPackedRows() async throws {
        let input = try await Media.paddedSizeClip()
        let output = Media.temporary("padded", "y4m")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run([input.path, "!", "gray", "!", output.path], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: output)
        let headerEnd = try #require(data.firstIndex(of: UInt8(ascii: "\n")))
        let header = String(decoding: data[..<headerEnd], as: UTF8.self)
        #expect(header.hasPrefix("YUV4MPEG2 C420 W294 H240 "), "\(header)")
        // Each frame: "FRAME\n", 294x240 luma, two 147x120 chroma planes; 296-byte rows would add 720.
        let frameBytes = 6 + 294 * 240 + 2 * 147 * 120
        #expect(data.count - (headerEnd + 1) == 25 * frameBytes)
        let frames = try await Media.frames(of: output)
        #expect(frames.count == 25)
        let inputFrames = try await Media.frames(of: input)
        #expect(try Media.luma(try #require(frames.last)) == Media.luma(try #require(inputFrames.last)))
        #expect(try Media.chromaSpread(try #require(frames.last)) == 0, "gray's chroma, written exactly")
    }

    @Test("File names with spaces, as arguments and quoted in a -f file")
    func spacesInNames() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe spaces \(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("my clip.mkv")
        try FileManager.default.copyItem(at: try await Media.clipWithoutAudio(), to: input)
        let first = folder.appendingPathComponent("first out.mp4")
        let direct = try CLI.run([input.path, "!", "gray", "!", first.path])
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(try await Media.frames(of: first).count == 250)

        let second = folder.appendingPathComponent("second out.mkv")
        let description = folder.appendingPathComponent("job.pipeline")
        try "# a file job\n\"\(input.path)\" ! gray\n    ! \"\(second.path)\"\n".write(
            to: description, atomically: true, encoding: .utf8)
        let fromFile = try CLI.run(["-f", description.path])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(try await Media.frames(of: second).count == 250)
    }

    @Test("An error mid-stream: exit 1 naming the element, and the output finalized with the frames before it")
    func errorMidStream() async throws {
        let input = try await Media.clipWithAudio()
        let output = Media.temporary("cut", "mp4")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run([
            input.path, "!", "gray", "!", "identity", "name=breaker", "error-after=40", "!", output.path
        ])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("ERROR: from element breaker: "), "\(result.stderr)")
        let frames = try await Media.frames(of: output)
        #expect(frames.count == 39, "identity passes 39 frames and fails on the 40th")
        #expect(result.stderr.contains("\(output.path) holds the 39 frames written before the error, and is finalized"))
        #expect(try Media.info(output).audioStreams == 1)
    }

    @Test("A file input to one image: the image, exit 0 (an early end asked for by downstream is no truncation)")
    func fileToOneImage() async throws {
        let input = try await Media.clipWithoutAudio()
        let still = Media.temporary("still", "jpg")
        defer { try? FileManager.default.removeItem(at: still) }
        let result = try CLI.run([input.path, "!", "gray", "!", still.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Array(try Data(contentsOf: still).prefix(2)) == [0xFF, 0xD8])
    }

    @Test("Two outputs from one file: both written, the audio in one of them")
    func twoOutputs() async throws {
        let input = try await Media.clipWithAudio()
        let first = Media.temporary("first", "mp4")
        let second = Media.temporary("second", "mkv")
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        let result = try CLI.run(
            [
                input.path, "!", "tee", "name=t", "!", "queue", "!", "gray", "!", "filesink", "location=\(first.path)",
                "t.", "!", "queue", "!", "gray", "!", second.path
            ], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try await Media.frames(of: first).count == 100)
        #expect(try await Media.frames(of: second).count == 100)
        #expect(try Media.info(first).audioStreams + Media.info(second).audioStreams == 1)
        #expect(result.stderr.contains("\(first.path) gets video only: the audio goes to one output"))
    }

    @Test("A .png name writes one image; a %d pattern writes one image a frame")
    func images() throws {
        let single = Media.temporary("still", "png")
        defer { try? FileManager.default.removeItem(at: single) }
        let one = try CLI.run(["videotestsrc", "num-buffers=5", "!", "gray", "!", single.path])
        #expect(one.status == 0, "\(one.stderr)")
        let signature = try Data(contentsOf: single).prefix(8)
        #expect(Array(signature) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-seq-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let many = try CLI.run(["videotestsrc", "num-buffers=7", "!", "gray", "!", folder.path + "/frame%03d.jpg"])
        #expect(many.status == 0, "\(many.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == (0..<7).map { String(format: "frame%03d.jpg", $0) })
    }

    @Test("filesink location=out.mp4 fed raw video by a Swift element gets an encoder and muxer, with a note")
    func filesinkMapping() async throws {
        let output = Media.temporary("mapped", "mp4")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run(["noise", "num-buffers=30", "!", "gray", "!", "filesink", "location=\(output.path)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr
                == "gstpipe: filesink location=\(output.path) gets raw video from gray: encoding it as H.264 in MP4 "
                + "(put your own encoder before filesink to choose another)\n")
        #expect(try await Media.frames(of: output).count == 30)
    }

    @Test(
        "Usage errors exit 2 and say what to do",
        arguments: [
            (
                "noise num-buffers=3 ! gray ! filesink",
                "ERROR: filesink has no location: give it the file to write, such as filesink location=out.mp4\n"
            ),
            (
                "noise num-buffers=3 ! gray ! out.avi",
                "ERROR: cannot write out.avi: gstpipe writes .mp4, .mov, .mkv, .webm, .y4m, .png, .jpg, .wav, .flac, "
                    + ".ogg, .opus, .m4a, .mka and .mp3 files by name (put an encoder and filesink "
                    + "location=out.avi in its place for anything else)\n"
            )
        ])
    func usageErrors(description: String, message: String) throws {
        let result = try CLI.run(description.split(separator: " ").map(String.init))
        #expect(result.status == 2)
        #expect(result.stderr == message)
    }

    @Test("Without x264enc installed: writing .mp4 says which package to install, exit 1, and no file")
    func missingEncoder() throws {
        let registry = try RegistryWithout(plugin: "libgstx264.so")
        defer { try? FileManager.default.removeItem(at: registry.folder) }
        let environment = registry.environment
        let output = registry.folder.appendingPathComponent("out.mp4")
        let shorthand = try CLI.run(
            ["noise", "num-buffers=3", "!", output.path], environment: environment, timeout: 60)
        #expect(shorthand.status == 1)
        #expect(
            shorthand.stderr
                == "ERROR: cannot write \(output.path): the x264enc element is not installed "
                + "(sudo apt-get install gstreamer1.0-plugins-ugly)\n")
        #expect(!FileManager.default.fileExists(atPath: output.path))

        let named = try CLI.run(
            ["noise", "num-buffers=3", "!", "gray", "!", "x264enc", "!", "fakesink"], environment: environment)
        #expect(named.status == 2)
        #expect(named.stderr.hasPrefix("ERROR: erroneous pipeline: no element \"x264enc\"\n"))
        #expect(
            named.stderr.hasSuffix(
                "  x264enc usually comes with the Debian package gstreamer1.0-plugins-ugly: "
                    + "sudo apt-get install gstreamer1.0-plugins-ugly\n"))
    }

    @Test("A missing input, a file that is not media, a folder that does not exist: exit 1, one line")
    func inputErrors() throws {
        let missing = try CLI.run(["/nonexistent/in.mp4", "!", "gray", "!", "fakesink"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "ERROR: input file /nonexistent/in.mp4 does not exist: check the path\n")

        let noise = Media.temporary("random", "mp4")
        defer { try? FileManager.default.removeItem(at: noise) }
        // Fixed pseudo-random bytes: fresh random bytes now and then look like some format to a
        // typefinder (MP3 frame headers are short), and the run then says "has no video stream".
        var state: UInt32 = 12345
        let bytes = (0..<20_000).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        try Data(bytes).write(to: noise)
        let notMedia = try CLI.run([noise.path, "!", "gray", "!", "fakesink"])
        #expect(notMedia.status == 1)
        #expect(
            notMedia.stderr
                == "ERROR: \(noise.path) is not a media file GStreamer can read (Could not determine type of stream.)\n"
        )

        let nowhere = try CLI.run(["noise", "num-buffers=3", "!", "gray", "!", "/nonexistent/out.mp4"])
        #expect(nowhere.status == 1)
        #expect(nowhere.stderr == "ERROR: cannot write /nonexistent/out.mp4: the folder /nonexistent does not exist\n")
    }

    @Test("A truncated file: exit 1 saying so, and the output holds what was decoded, finalized")
    func truncatedInput() async throws {
        let half = try Media.truncated(try await Media.clipWithoutAudio(), to: 0.5)
        let output = Media.temporary("from-truncated", "mp4")
        defer {
            try? FileManager.default.removeItem(at: half)
            try? FileManager.default.removeItem(at: output)
        }
        let result = try CLI.run([half.path, "!", "gray", "!", output.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("ERROR: \(half.path) ends early: its video stops at "))
        #expect(result.stderr.contains("(the file is truncated or damaged)"))
        let frames = try await Media.frames(of: output)
        #expect(frames.count > 25 && frames.count < 250, "\(frames.count) frames")
        #expect(result.stderr.contains("\(output.path) holds the \(frames.count) frames decoded, and is finalized"))
    }

    @Test("A file with headers and no frames: exit 1, no output left behind")
    func zeroFrames() async throws {
        let head = try Media.truncated(try await Media.clipWithoutAudio(), bytes: 2000)
        let output = Media.temporary("from-empty", "mp4")
        defer { try? FileManager.default.removeItem(at: head) }
        let result = try CLI.run([head.path, "!", "gray", "!", output.path])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "ERROR: no video frames were decoded from \(head.path): the file is damaged or holds no pictures\n")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test("Ctrl-C during a file job: exit 130, and the output plays to its end with audio cut to the video")
    func interruptFileJob() async throws {
        let input = Media.temporary("long", "mkv")
        let output = Media.temporary("interrupted", "mp4")
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: output)
        }
        try await Pipeline(
            launch: "videotestsrc num-buffers=1500 ! video/x-raw,width=320,height=240,framerate=25/1 ! x264enc "
                + "speed-preset=ultrafast ! matroskamux name=m ! filesink location=\(input.path) audiotestsrc "
                + "num-buffers=2800 ! vorbisenc ! m."
        ).run()
        // identity sleeps 40 ms a frame to make the job last. (Not sync=true: identity then answers the
        // latency query as live, the muxer aggregates in live mode and takes audio as far ahead as
        // x264's 1.8 s latency, past any cut made at Ctrl-C; a file job is never live.) Ctrl-C after 5 s:
        // on two cores at load 8-14, start-up and x264's set-up took most of 3 s, and under 1 s was written.
        let result = try CLI.run(
            ["--preview", "none", input.path, "!", "gray", "!", "identity", "sleep-time=40000", "!", output.path],
            timeout: 60, interruptAfter: 5)
        #expect(result.status == 130, "\(result.stderr)")
        let info = try Media.info(output)
        #expect(info.audioStreams == 1)
        let duration = try #require(info.duration)
        #expect(duration > 1_000_000_000 && duration < 10_000_000_000, "stopped early, not at 60 s: \(duration) ns")
        let frames = try await Media.frames(of: output)
        let videoEnd = try #require(frames.last?.timestamp)
        #expect(duration < videoEnd + 1_000_000_000, "audio ends with the video (\(duration) vs \(videoEnd))")
        #expect(duration + 1_000_000_000 > videoEnd, "audio is not cut short (\(duration) vs \(videoEnd))")
    }

    @Test(
        "Real clips from ../shared/media",
        .enabled(if: Media.isPresent("moviepy__chaplin.mp4") != nil, "../shared/media is absent"),
        arguments: [
            ("moviepy__chaplin.mp4", 0, ""),
            ("gomp4__sample_qt.mp4", 1, "no video frames were decoded from"),
            ("pymediainfo__sample.mkv", 1, "has no video stream"),
            (
                "filetype__sample.mov", 0,
                "cannot be decoded (no QDesign Music (QDM) decoder installed): writing video only"
            ),
            ("mediabunny__annex-b.mp4", 1, "ends early")
        ])
    func realClips(name: String, status: Int32, message: String) throws {
        let clip = try #require(Media.isPresent(name), "../shared/media/\(name) is absent")
        let output = Media.temporary("real", "mp4")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run([clip.path, "!", "gray", "!", output.path], timeout: 120)
        #expect(result.status == status, "\(name): \(result.stderr)")
        #expect(message.isEmpty || result.stderr.contains(message), "\(name): \(result.stderr)")
    }
}

@Suite("Which tokens are files")
struct TokenReaderTests {
    @Test("Descriptions gst-launch-1.0 accepts keep their meaning")
    func notFiles() throws {
        try GStreamer.initialize()
        let reader = TokenReader(names: ["mux", "m"])
        for token in [
            "mux.", "mux.video_0", "queue0.sink", "videoconvert1.src", "video/x-raw", "video/x-raw,width=320",
            "fakesink", "location=out.mp4", "rtsp://camera/stream", "udp://0.0.0.0:5000", "!"
        ] {
            #expect(!reader.isFileName(token, position: .last), "\(token)")
        }
        // Network streams are decoded like files (Streams); other URIs stay gst-launch-1.0's source elements.
        for token in ["rtsp://camera/stream", "srt://127.0.0.1:9000", "udp://0.0.0.0:5000"] {
            #expect(reader.isFileName(token, position: .first), "\(token)")
        }
        #expect(!reader.isFileName("v4l2:///dev/video0", position: .first))
        #expect(reader.isFileName("https://example.com/a.mp4", position: .first))
        #expect(reader.isFileName("file:///tmp/a.mkv", position: .first))
        for token in ["out.mp4", "out.avi", "dir/out", "frame%04d.png", "my.clip.mkv"] {
            #expect(reader.isFileName(token, position: .last), "\(token)")
        }
    }

    @Test("-f text: comments end at the line, except inside quotes; spaces inside quotes stay")
    func descriptionFile() {
        let text = "# a job\n\"/tmp/take #2  a.mp4\" ! gray # gray it\n  ! out.mkv\n"
        #expect(DescriptionFile.description(from: text) == "\"/tmp/take #2  a.mp4\" ! gray    ! out.mkv")
        #expect(
            TokenReader.tokens(of: DescriptionFile.description(from: text)) == [
                "\"/tmp/take #2  a.mp4\"", "!", "gray", "!", "out.mkv"
            ])
    }
}
