import Foundation

/// What ffprobe (FFmpeg's reader, independent of GStreamer) finds in a file: its streams and its
/// length. Tests read outputs with it so that a file GStreamer writes and reads back wrongly in
/// the same way still fails.
struct FFProbe {
    struct Stream {
        /// "audio" or "video".
        let type: String
        /// "pcm_s16le", "flac", "opus", "aac", "mp3", "vorbis", ...
        let codec: String
        let sampleRate: Int?
        let channels: Int?
    }

    let streams: [Stream]
    /// The container's length in seconds.
    let duration: Double?

    var audio: [Stream] { streams.filter { $0.type == "audio" } }
    var video: [Stream] { streams.filter { $0.type == "video" } }

    static let path = "/usr/bin/ffprobe"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

    init(_ url: URL) throws {
        let data = try standardOutput(
            of: Self.path,
            [
                "-v", "error", "-show_entries", "stream=codec_type,codec_name,sample_rate,channels:format=duration",
                "-of", "json", url.path
            ])
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        streams = (json["streams"] as? [[String: Any]] ?? []).map { stream in
            Stream(
                type: stream["codec_type"] as? String ?? "", codec: stream["codec_name"] as? String ?? "",
                sampleRate: (stream["sample_rate"] as? String).flatMap { Int($0) },
                channels: stream["channels"] as? Int)
        }
        duration = ((json["format"] as? [String: Any])?["duration"] as? String).flatMap { Double($0) }
    }
}

/// Runs `executable` with `arguments` to its end, returning its standard output (standard error dropped).
func standardOutput(of executable: String, _ arguments: [String]) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.runUnblocked()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return data
}

/// Whether `executable` with `arguments` runs and exits 0 (standard error dropped): the probes that
/// decide whether a suite can run here.
func succeeds(_ executable: String, _ arguments: [String]) -> Bool {
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: executable)
    probe.arguments = arguments
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return false }
    probe.waitUntilExit()
    return probe.terminationStatus == 0
}
