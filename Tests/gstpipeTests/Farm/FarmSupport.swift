import Foundation
import Testing

/// What the farm tests start and read: the input, the single-machine run, `farm/local` in a network
/// namespace, and ffprobe's and ffmpeg's verdicts on the result.
enum Farm {
    /// The package's `farm` directory.
    static let directory = Repository.url("farm")

    static let hasRedis = FileManager.default.isExecutableFile(atPath: "/usr/bin/redis-server")

    /// Debian's python3 imports celery and redis (not a pyenv or venv python3 first on PATH).
    static let hasCelery: Bool = succeeds("/usr/bin/python3", ["-c", "import celery, redis"])

    /// 24 s of moving 320x240 test pictures at 25 fps and a tone, H.264 and AAC in MP4 (ffmpeg's
    /// testsrc2: every frame differs, so a missing or doubled frame shows in the PSNR).
    static func input() async throws -> URL {
        let url = Media.temporary("farm-input", "mp4")
        let made = try await Spawned(
            "/usr/bin/ffmpeg",
            [
                "-hide_banner", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "24", "-c:v", "libx264",
                "-preset", "ultrafast", "-g", "50", "-c:a", "aac", "-shortest", url.path
            ]
        ).finish(timeout: 120)
        try #require(made.status == 0, "ffmpeg could not make the input: \(made.stderr)")
        return url
    }

    /// The pipeline the farm runs, on one machine.
    static func singleRun(of input: URL) async throws -> URL {
        let output = Media.temporary("farm-single", "mkv")
        let run = try await Spawned.gstpipe([input.path, "!", "gray", "!", output.path]).finish(timeout: 300)
        try #require(run.status == 0, "gstpipe exited \(run.status): \(run.stderr)")
        return output
    }

    /// `farm/local` with two workers in a namespace of its own: Redis, workers and farm/run on 127.0.0.1.
    static func local(input: URL, output: URL, segmentSeconds: Int, killing: Bool) async throws -> CLIResult {
        let namespace = try await NetworkNamespace()
        var arguments = ["--workers", "2", "--port", "6379", "--gstpipe", CLI.binary.path]
        if killing { arguments.append("--kill-worker-during-segment") }
        arguments += [
            "--", input.path, "!", "gray", "!", output.path, "--segment-seconds", "\(segmentSeconds)",
            "--workers-timeout", "120"
        ]
        // Minutes on a loaded machine: the killed worker's segment waits for two missed pings.
        return await namespace.run(directory.appendingPathComponent("local").path, arguments).finish(timeout: 900)
    }

    /// ffprobe's video packet times in `url`, in seconds.
    static func videoTimes(_ url: URL) throws -> [Double] {
        let output = try probe(
            ["-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", url.path])
        return output.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.sorted()
    }

    /// Asserts `farmed` holds `single`'s frames, one every 1/25 s without a gap, audio, and >= 35 dB PSNR
    /// against it.
    static func expectWhole(_ farmed: URL, like single: URL) throws {
        let farmedTimes = try videoTimes(farmed)
        let singleTimes = try videoTimes(single)
        #expect(
            farmedTimes.count == singleTimes.count, "\(farmedTimes.count) frames farmed, \(singleTimes.count) single")
        #expect(farmedTimes.count == 600, "the 24 s input has 600 frames, the farm gave \(farmedTimes.count)")
        let steps = zip(farmedTimes.dropFirst(), farmedTimes).map { $0 - $1 }
        let gaps = steps.enumerated().filter { abs($0.element - 0.04) > 0.002 }
        #expect(gaps.isEmpty, "timestamp steps other than 40 ms: \(gaps.prefix(5))")
        #expect(try FFProbe(farmed).audio.count == 1, "no audio track in the farmed output")
        let psnr = try Farm.psnr(farmed, single)
        #expect(psnr >= 35, "PSNR \(psnr) dB against the single run")
    }

    /// ffmpeg's average PSNR of `a` against `b` ("inf" for identical pictures is returned as 100).
    static func psnr(_ a: URL, _ b: URL) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = [
            "-hide_banner", "-nostdin", "-i", a.path, "-i", b.path, "-lavfi", "psnr", "-f", "null", "-"
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.runUnblocked()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let range = text.range(of: "average:") else { return 0 }
        let value = text[range.upperBound...].prefix { !$0.isWhitespace }
        return value == "inf" ? 100 : Double(value) ?? 0
    }

    private static func probe(_ arguments: [String]) throws -> String {
        String(decoding: try standardOutput(of: FFProbe.path, ["-v", "error"] + arguments), as: UTF8.self)
    }
}
