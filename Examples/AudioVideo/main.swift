// AudioVideo: Swift elements for both kinds of media in one pipeline. Video noise (`noise`) made gray
// (`gray`) and stereo audio noise (`audionoise`) mixed to mono (`mono`) are encoded (H.264, Vorbis)
// and muxed into one Matroska file; ffprobe then reads the file back independently of GStreamer and
// the example checks both tracks: the frame count and size, one audio channel, equal durations.
// It needs ffprobe (sudo apt-get install ffmpeg).
//
//   swift run AudioVideo [--seconds 3] [--out /tmp/audio-video.mkv]
import Foundation
import GstPipeElements
import MediaIO

/// What ffprobe says of the file: its streams and every decoded frame.
struct Probe: Decodable {
    struct Stream: Decodable {
        var index: Int
        var codecType: String
        var codecName: String
        var width: Int?
        var height: Int?
        var pixFmt: String?
        var avgFrameRate: String?
        var sampleRate: String?
        var channels: Int?
    }
    struct Frame: Decodable {
        var mediaType: String
        var ptsTime: String?
        var nbSamples: Int?
    }
    var streams: [Stream]
    var frames: [Frame]

    static let ffprobe = "/usr/bin/ffprobe"

    init(file: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.ffprobe)
        process.arguments = [
            "-v", "error", "-of", "json", "-show_entries",
            "stream=index,codec_type,codec_name,width,height,pix_fmt,avg_frame_rate,sample_rate,channels"
                + ":frame=media_type,pts_time,nb_samples",
            file
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw MediaIOError("ffprobe could not read \(file)") }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        self = try decoder.decode(Probe.self, from: data)
    }

    func frames(_ type: String) -> [Frame] { frames.filter { $0.mediaType == type } }
}

/// "30/1" as 30.
func rate(_ fraction: String?) -> Double? {
    guard let parts = fraction?.split(separator: "/").compactMap({ Double($0) }), parts.count == 2, parts[1] != 0
    else { return nil }
    return parts[0] / parts[1]
}

let arguments = CommandLine.arguments
func value(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let seconds = Int(value("--seconds") ?? "") ?? 3
let output = value("--out") ?? "/tmp/audio-video.mkv"
guard seconds > 0 else {
    print("--seconds takes a whole number of seconds from 1 up")
    exit(2)
}
guard FileManager.default.isExecutableFile(atPath: Probe.ffprobe) else {
    print("AudioVideo checks its file with ffprobe, which is missing: sudo apt-get install ffmpeg")
    exit(1)
}

// Both tracks last `seconds`: 30 frames a second, and 100 buffers of 10 ms of audio a second.
let (width, height, frameRate, sampleRate) = (320, 240, 30, 48000)
let frames = seconds * frameRate
let audioBuffers = seconds * 100
try GstPipeElements.register()
// A queue before each of the muxer's pads: x264enc holds frames back (its lookahead) while the muxer
// waits for them, and the audio must not hold up the video's thread meanwhile, nor the reverse.
let pipeline = try Pipeline(
    launch: "noise num-buffers=\(frames) "
        + "! video/x-raw,format=I420,width=\(width),height=\(height),framerate=\(frameRate)/1 "
        + "! gray ! x264enc ! queue ! mux. "
        + "audionoise num-buffers=\(audioBuffers) samplesperbuffer=\(sampleRate / 100) "
        + "! audio/x-raw,rate=\(sampleRate),channels=2 ! mono ! audioconvert ! vorbisenc ! queue ! mux. "
        + "matroskamux name=mux ! filesink location=\(output)")
print(
    "writing \(output): \(frames) frames of gray noise (\(width)x\(height), \(frameRate) fps) "
        + "and \(audioBuffers) buffers of 10 ms of stereo noise mixed to mono")
try await pipeline.run()

let probe = try Probe(file: output)
var failures: [String] = []
print("\(output): \(probe.streams.count) streams")
for stream in probe.streams {
    let shape =
        stream.codecType == "video"
        ? "\(stream.width ?? 0)x\(stream.height ?? 0) \(stream.pixFmt ?? "?") at \(stream.avgFrameRate ?? "?") fps"
        : "\(stream.sampleRate ?? "?") Hz, \(stream.channels ?? 0) channel(s)"
    print("  stream \(stream.index): \(stream.codecType) \(stream.codecName), \(shape)")
}
let videoStreams = probe.streams.filter { $0.codecType == "video" }
let audioStreams = probe.streams.filter { $0.codecType == "audio" }
if probe.streams.count != 2 || videoStreams.count != 1 || audioStreams.count != 1 {
    failures.append("expected one video and one audio stream")
}

// Each track's first time and length, in seconds.
var video: (start: Double, duration: Double)?
if let stream = videoStreams.first {
    let times = probe.frames("video").compactMap { $0.ptsTime.flatMap(Double.init) }.sorted()
    let fps = rate(stream.avgFrameRate) ?? Double(frameRate)
    if let first = times.first, let last = times.last {
        // The last frame lasts one frame's time past its timestamp.
        video = (first, last - first + 1 / fps)
    }
    print(
        String(
            format: "video: %d frames decoded, from %.3f s for %.3f s", times.count, video?.start ?? 0,
            video?.duration ?? 0))
    if times.count != frames { failures.append("expected \(frames) video frames, found \(times.count)") }
    if stream.width != width || stream.height != height {
        failures.append("expected \(width)x\(height) video, found \(stream.width ?? 0)x\(stream.height ?? 0)")
    }
}
var audio: (start: Double, duration: Double)?
if let stream = audioStreams.first {
    let decoded = probe.frames("audio")
    let samples = decoded.compactMap(\.nbSamples).reduce(0, +)
    let rate = Double(stream.sampleRate ?? "") ?? Double(sampleRate)
    let start = decoded.compactMap { $0.ptsTime.flatMap(Double.init) }.min() ?? 0
    audio = (start, Double(samples) / rate)
    print(String(format: "audio: %d samples decoded, from %.3f s for %.3f s", samples, start, audio?.duration ?? 0))
    if stream.channels != 1 { failures.append("expected mono audio, found \(stream.channels ?? 0) channels") }
}
if let video, let audio {
    let (startGap, lengthGap) = (abs(video.start - audio.start), abs(video.duration - audio.duration))
    print(
        String(
            format: "in sync: the starts differ by %.1f ms, the durations by %.1f ms", startGap * 1000,
            lengthGap * 1000))
    if startGap > 0.05 || lengthGap > 0.05 { failures.append("the tracks differ by more than 50 ms") }
    for (name, track) in [("video", video), ("audio", audio)] where abs(track.duration - Double(seconds)) > 0.05 {
        failures.append("the \(name) does not last \(seconds) s")
    }
}
guard failures.isEmpty else {
    for failure in failures { print("FAILED: \(failure)") }
    exit(1)
}
print("OK")
