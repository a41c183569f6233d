import Foundation
import Testing

/// `BrowserViewers.serve(video:audio:at:)` with a Swift AudioSource beside the VideoSource: the helper
/// executable `BrowserViewersTone` (moving gray bars, a 440 Hz sine) runs in a network namespace with
/// loopback alone, and headless Chromium watches and listens through WHEP from the test page on
/// another origin (`audio=last`, as gstpipe's own page offers: video, then audio; `tone=1`, the
/// loudest frequency of what it plays, by a WebAudio analyser).
@Suite(
    "BrowserViewersAudioTests", .serialized,
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"),
    .enabled(if: Browser.isInstalled, "Chromium is not installed (/usr/bin/chromium): apt-get install chromium"))
struct BrowserViewersAudioTests {
    /// The helper, built beside gstpipe.
    static var executable: String {
        CLI.binary.deletingLastPathComponent().appendingPathComponent("BrowserViewersTone").path
    }

    @Test("a Swift AudioSource's sine reaches the browser as Opus beside the Swift VideoSource's gray frames")
    func toneAndFrames() async throws {
        let namespace = try await NetworkNamespace()
        let query = "endpoint=\(WebRTCTests.endpoint)&viewers=1&watch=4&audio=last&tone=1"
        guard let run = try await Self.watchHelper(in: namespace, query: query) else { return }
        let (report, result, comment) = (run.report, run.result, run.comment)
        #expect(report?["error"] == nil, comment)
        let seen = run.seen(0)
        // Opus packets and played-out samples growing over the 4 s, at an audible level.
        WebRTCTests.expectOpusPlaying(seen, seconds: 4, comment)
        #expect(seen["tracks"] as? [String] == ["video", "audio"], comment)
        // The sine itself, through WebAudio: the loudest bin (5.9 Hz wide) at 440 Hz, well above silence.
        #expect(abs((seen["peakHz"] as? Double ?? 0) - 440) < 12, comment)
        #expect((seen["peakDb"] as? Double ?? -200) > -60, comment)
        // The bars: frames keep coming (one a second asked for, on a loaded machine), 320x240, gray.
        #expect((seen["frames"] as? Int ?? 0) >= 4 && (seen["samples"] as? Int ?? 0) >= 8, comment)
        #expect(seen["width"] as? Int == 320 && seen["height"] as? Int == 240, comment)
        #expect((seen["maxSpread"] as? Int ?? 255) <= 12, comment)
        #expect((seen["changes"] as? Int ?? 0) >= 2, comment)
        let answer = WebRTCTests.sections(of: run.firstViewer["answer"] as? String ?? "")
        #expect(answer["audio"]?.contains("a=sendonly") == true, comment)
        #expect(answer["video"]?.contains("a=sendonly") == true, comment)
        // The helper closed cleanly, having handed on what the browser got (at least the 4 s watched).
        #expect(result.status == 0, comment)
        let handed = result.stderr.firstMatch(of: #/([0-9]+) frames and ([0-9]+) samples handed on/#)
        #expect((handed.flatMap { Int($0.output.1) } ?? 0) >= 120, comment)
        #expect((handed.flatMap { Int($0.output.2) } ?? 0) >= 4 * 48000, comment)
    }

    // In this suite for its helper (no browser needed): each element type used to hold its call's
    // object for the life of the process.
    @Test("close() lets the user's sources and sinks go, and a server serves again after one closed")
    func closeFreesTheObjects() async throws {
        let built = FileManager.default.isExecutableFile(atPath: Self.executable)
        try #require(built, "build the helper: swift build --build-tests")
        let namespace = try await NetworkNamespace()
        let result = await namespace.run(Self.executable, ["--port", "8890", "--lifetimes"]).finish(timeout: 120)
        let comment = Comment(rawValue: "status \(result.status): \(result.stdout) \(result.stderr)")
        #expect(result.status == 0, comment)
        let line = result.stdout.firstMatch(
            of: #/sources freed ([0-9]+)/([0-9]+), sinks freed ([0-9]+)/([0-9]+), served again ([0-9]+) frames/#)
        try #require(line != nil, comment)
        let numbers = [line!.output.1, line!.output.2, line!.output.3, line!.output.4, line!.output.5].map { Int($0)! }
        // Two VideoSources and an AudioSource, a VideoSink and an AudioSink: all freed.
        #expect(numbers[0] == 3 && numbers[1] == 3, comment)
        #expect(numbers[2] == 2 && numbers[3] == 2, comment)
        #expect(numbers[4] >= 10, comment)
        #expect(result.stdout.contains("both servers' sources made"), comment)
    }
}
