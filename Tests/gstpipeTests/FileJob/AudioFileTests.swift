import Foundation
import MediaIO
import Testing

/// Audio at either end: a description whose elements are audio (audioconvert, volume, audiotestsrc,
/// audio caps) gets a file input's audio instead of its video, and audio file names are encoded by
/// their extension. Outputs are read back by ffprobe (FFmpeg, not GStreamer) and decoded by GStreamer.
@Suite(
    "gstpipe with audio files: in.flac ! audioconvert ! out.wav",
    .enabled(if: FFProbe.isInstalled, "ffprobe is not installed"))
struct AudioFileTests {
    @Test(
        "An audio-only input to .wav is the same PCM, sample for sample (with or without an audio element)",
        arguments: [["audioconvert", "!"], []])
    func flacToWav(elements: [String]) async throws {
        let input = try await Media.sineFLAC()
        let output = Media.temporary("pcm", "wav")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run([input.path, "!"] + elements + [output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let probe = try FFProbe(output)
        #expect(probe.audio.map(\.codec) == ["pcm_s16le"])
        #expect(probe.audio.first?.sampleRate == 44100)
        #expect(probe.audio.first?.channels == 2)
        #expect(probe.video.isEmpty)
        let source = try await Media.samples(of: input)
        let written = try await Media.samples(of: output)
        #expect(source.samples.count == Media.sineFrames * 2)
        #expect(written.samples.count == source.samples.count)
        #expect(written.samples == source.samples, "PCM round trip: every sample as decoded from the FLAC")
        #expect(source.samples.map { abs(Int($0)) }.max() ?? 0 > 10_000, "the source really is a loud sine")
    }

    @Test("An A/V file through an audio-only description: its audio, the whole length, and no video stream")
    func audioOfClip() async throws {
        let input = try await Media.clipWithAudio()
        let output = Media.temporary("sound", "ogg")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run([input.path, "!", "volume", "volume=0.5", "!", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let probe = try FFProbe(output)
        #expect(probe.video.isEmpty)
        #expect(probe.audio.map(\.codec) == ["opus"])
        // The clip's audio: 188 buffers of 1024 samples at 48 kHz, 4.01 s.
        let duration = try #require(probe.duration)
        #expect(abs(duration - 4.01) < 0.1, "\(duration) s")
        let decoded = try await Media.samples(of: output)
        #expect(decoded.rate == 48000)
        let seconds = Double(decoded.samples.count / decoded.channels) / Double(decoded.rate)
        #expect(abs(seconds - 4.01) < 0.1, "\(seconds) s decoded")
    }

    /// Codec, rate after the encoder's own resampling (Opus is always 48 kHz), and the samples
    /// the format gives back exactly (lossless) or within an encoder's padding (lossy).
    @Test(
        "Each extension writes its codec, audio alone, from an audio source with no file input",
        arguments: [
            ("wav", "pcm_s16le", 44100, true), ("flac", "flac", 44100, true), ("ogg", "opus", 48000, false),
            ("opus", "opus", 48000, false), ("m4a", "aac", 44100, false), ("mp3", "mp3", 44100, false),
            ("mp4", "aac", 44100, false), ("mov", "aac", 44100, false), ("mkv", "vorbis", 44100, false),
            ("webm", "opus", 48000, false)
        ])
    func extensions(fileExtension: String, codec: String, rate: Int, lossless: Bool) async throws {
        let output = Media.temporary("tone", fileExtension)
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run(
            ["audiotestsrc", "num-buffers=100", "!", "audio/x-raw,rate=44100,channels=2", "!", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let probe = try FFProbe(output)
        #expect(probe.video.isEmpty)
        #expect(probe.audio.map(\.codec) == [codec])
        #expect(probe.audio.first?.sampleRate == rate)
        #expect(probe.audio.first?.channels == 2)
        let duration = try #require(probe.duration)
        #expect(abs(duration - 2.32) < 0.1, "\(duration) s")
        let decoded = try await Media.samples(of: output)
        let frames = decoded.samples.count / max(decoded.channels, 1)
        if lossless {
            #expect(frames == Media.sineFrames)
        } else {
            let expected = Media.sineFrames * decoded.rate / 44100
            #expect(abs(frames - expected) < decoded.rate / 20, "\(frames) samples decoded, \(expected) written")
        }
    }

    @Test(
        "An audio-only input to a video container: a file of that container with the audio alone",
        arguments: [("mp4", "aac"), ("mkv", "vorbis"), ("webm", "opus")])
    func audioIntoVideoContainer(fileExtension: String, codec: String) async throws {
        let input = try await Media.sineFLAC()
        let output = Media.temporary("audio-only", fileExtension)
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run([input.path, "!", "audioconvert", "!", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let probe = try FFProbe(output)
        #expect(probe.video.isEmpty)
        #expect(probe.audio.map(\.codec) == [codec])
        let duration = try #require(probe.duration)
        #expect(abs(duration - 2.32) < 0.1, "\(duration) s")
    }

    @Test("Audio-only input to a video description, video-only input to an audio one: exit 1, no output")
    func missingStream() async throws {
        let flac = try await Media.sineFLAC()
        let video = Media.temporary("from-flac", "mp4")
        defer { try? FileManager.default.removeItem(at: video) }
        let gray = try CLI.run([flac.path, "!", "gray", "!", video.path])
        #expect(gray.status == 1)
        #expect(gray.stderr == "ERROR: \(flac.path) has no video stream\n")
        #expect(!FileManager.default.fileExists(atPath: video.path))

        let clip = try await Media.clipWithoutAudio()
        let sound = Media.temporary("from-video", "wav")
        defer { try? FileManager.default.removeItem(at: sound) }
        let audio = try CLI.run([clip.path, "!", "audioconvert", "!", sound.path])
        #expect(audio.status == 1)
        #expect(audio.stderr == "ERROR: \(clip.path) has no audio stream\n")
        #expect(!FileManager.default.fileExists(atPath: sound.path))
    }

    @Test(
        "A file that cannot hold what the description makes is a usage error naming what can",
        arguments: [
            (
                "noise num-buffers=3 ! gray ! out.wav",
                "ERROR: cannot write out.wav: .wav holds audio only, and this description makes video (noise): "
                    + "write it to .mp4, .mov, .mkv, .webm, .y4m, .png or .jpg\n"
            ),
            (
                "audiotestsrc num-buffers=3 ! out.png",
                "ERROR: cannot write out.png: .png holds pictures only, and this description makes audio "
                    + "(audiotestsrc): write it to .mp4, .mov, .mkv, .webm, .wav, .flac, .ogg, .opus, .m4a, "
                    + ".mka or .mp3\n"
            ),
            (
                "audiotestsrc num-buffers=3 ! audio/x-raw,rate=8000 ! out.y4m",
                "ERROR: cannot write out.y4m: .y4m holds video only, and this description makes audio "
                    + "(audiotestsrc): write it to .mp4, .mov, .mkv, .webm, .wav, .flac, .ogg, .opus, .m4a, "
                    + ".mka or .mp3\n"
            )
        ])
    func wrongKind(description: String, message: String) throws {
        let result = try CLI.run(description.split(separator: " ").map(String.init))
        #expect(result.status == 2)
        #expect(result.stderr == message)
        #expect(!FileManager.default.fileExists(atPath: String(description.split(separator: " ").last!)))
    }

    @Test("Each output is written as what its own chain makes: video to .mp4 and audio to .wav in one run")
    func outputKindPerChain() throws {
        let video = Media.temporary("chain-video", "mp4")
        let audio = Media.temporary("chain-audio", "wav")
        defer { [video, audio].forEach { try? FileManager.default.removeItem(at: $0) } }
        let result = try CLI.run([
            "noise", "num-buffers=30", "!", "gray", "!", video.path,
            "audiotestsrc", "num-buffers=25", "samplesperbuffer=1600", "!", audio.path
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let pictures = try FFProbe(video)
        #expect(pictures.video.map(\.codec) == ["h264"])
        #expect(pictures.audio.isEmpty, "noise ! gray makes no sound, and audiotestsrc's goes to the .wav")
        let sound = try FFProbe(audio)
        #expect(sound.video.isEmpty)
        #expect(sound.audio.count == 1 && sound.audio[0].codec.hasPrefix("pcm_"), "\(sound.audio)")
        // 25 buffers of 1600 samples at audiotestsrc's 44.1 kHz.
        let duration = try #require(sound.duration)
        #expect(abs(duration - 40000.0 / 44100) < 0.01, "\(duration) s")
    }

    @Test("An error mid-stream: exit 1 naming the element, and the output finalized with the audio before it")
    func errorMidStream() async throws {
        let input = try await Media.sineFLAC()
        let output = Media.temporary("cut", "wav")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run(
            [input.path, "!", "audioconvert", "!", "identity", "name=breaker", "error-after=10", "!", output.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("ERROR: from element breaker: "), "\(result.stderr)")
        // flacenc writes blocks of 4608 samples: identity passes 9 of them and fails on the 10th.
        #expect(
            result.stderr.hasSuffix(
                "gstpipe: \(output.path) holds the audio written before the error (0:00:00.9), and is finalized\n"),
            "\(result.stderr)")
        let decoded = try await Media.samples(of: output)
        #expect(decoded.samples.count == 9 * 4608 * 2)
        let source = try await Media.samples(of: input)
        #expect(Array(source.samples.prefix(9 * 4608 * 2)) == decoded.samples)
    }

    @Test("Without lamemp3enc installed: writing .mp3 says which package to install, exit 1, and no file")
    func missingMP3Encoder() throws {
        let registry = try RegistryWithout(plugin: "libgstlame.so")
        defer { try? FileManager.default.removeItem(at: registry.folder) }
        let output = registry.folder.appendingPathComponent("out.mp3")
        let result = try CLI.run(
            ["audiotestsrc", "num-buffers=10", "!", output.path], environment: registry.environment, timeout: 60)
        #expect(result.status == 1)
        // lamemp3enc moved from -ugly to -good in GStreamer 1.18: Debian 12 ships it in -good.
        #expect(
            result.stderr
                == "ERROR: cannot write \(output.path): the lamemp3enc element is not installed "
                + "(sudo apt-get install gstreamer1.0-plugins-good)\n")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    /// Ctrl-C during an encode: a file input ends its audio where it is, a live source is ended by
    /// end of stream; either way the muxer or encoder writes what it writes at the end (the Ogg end
    /// of stream page, the WAV header's length, MP4's index).
    @Test(
        "Ctrl-C during an audio encode: exit 130, and a finished file as long as what was encoded",
        arguments: [
            (["FILE", "!", "audioconvert", "!", "identity", "sync=true"], "ogg"),
            (["audiotestsrc", "is-live=true", "!", "audio/x-raw,rate=44100,channels=2"], "wav"),
            (["audiotestsrc", "is-live=true"], "m4a")
        ])
    func interrupt(elements: [String], fileExtension: String) async throws {
        let input = try await Media.longSineFLAC()
        let output = Media.temporary("interrupted", fileExtension)
        defer { try? FileManager.default.removeItem(at: output) }
        let arguments = elements.map { $0 == "FILE" ? input.path : $0 } + ["!", output.path]
        let result = try CLI.run(arguments, timeout: 30, interruptAfter: 2)
        #expect(result.status == 130, "\(result.stderr)")
        let probe = try FFProbe(output)
        #expect(probe.audio.count == 1)
        let duration = try #require(probe.duration, "ffprobe finds the file's length")
        #expect(duration > 1 && duration < 10, "stopped after about 2 s, not at the end: \(duration) s")
        let decoded = try await Media.samples(of: output)
        let seconds = Double(decoded.samples.count / max(decoded.channels, 1)) / Double(max(decoded.rate, 1))
        #expect(
            abs(seconds - duration) < 0.1, "the samples fill the length the file gives (\(seconds) vs \(duration) s)")
    }
}
