import Foundation
import Testing

/// Examples/BrowserCall's whole loop, with headless Chromium and its fake camera (the flags of
/// `Browser.arguments`) in a network namespace with loopback alone: the page publishes the camera
/// by WHIP into `BrowserPublisher`, Swift turns each frame gray with a red box, `BrowserViewers`
/// serves the result by WHEP, and the page reads the pixels that come back; a word the page sends on
/// the publisher's data channel comes back on the viewers'.
@Suite(
    "BrowserCallTests", .serialized,
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"),
    .enabled(if: Browser.isInstalled, "Chromium is not installed (/usr/bin/chromium): apt-get install chromium"))
struct BrowserCallTests {
    /// The example's executable, built beside gstpipe.
    static var executable: String {
        CLI.binary.deletingLastPathComponent().appendingPathComponent("BrowserCall").path
    }

    @Test("the page gets its camera back gray with a red box, frames counted, its word answered over data channels")
    func callLoop() async throws {
        let built = FileManager.default.isExecutableFile(atPath: Self.executable)
        try #require(built, "build the example: swift build --build-tests")
        let namespace = try await NetworkNamespace()
        // --check: Chromium at once; the example exits 0 once the page has seen five processed checks.
        let run = await namespace.run(Self.executable, ["--check", "--port", "8892"]).finish(timeout: 150)
        #expect(run.status == 0, "BrowserCall --check: \(run.stdout) \(run.stderr)")
        #expect(
            run.stdout.contains(
                "the page saw processed frames (gray, with the red box), the sound came, and Swift answered on the "
                    + "data channel"))
        // The word the page sent on the publisher's data channel, and Swift's answer on the viewers'.
        #expect(run.stdout.contains("the publisher's page said \"hello from the camera\"; passed on to 1 viewer(s)"))
        #expect(run.stdout.contains(#""chat": "Swift heard: hello from the camera""#), "\(run.stdout)")
        // What the page measured on its 8x8 grid of the returned picture, and what Swift counted.
        let gray = run.stdout.firstMatch(of: #/"gray": ([0-9.]+)/#).flatMap { Double($0.output.1) } ?? 0
        let red = run.stdout.firstMatch(of: #/"red": ([0-9]+)/#).flatMap { Int($0.output.1) } ?? 0
        let processed = run.stdout.firstMatch(of: #/([0-9]+) frames processed in Swift/#).flatMap { Int($0.output.1) }
        #expect(gray > 0.6, "most of the picture is gray: \(gray)")
        #expect(red > 0, "the red box shows on the grid")
        #expect((processed ?? 0) >= 10, "Swift processed the camera's frames: \(processed ?? 0)")
        let samples = run.stdout.firstMatch(of: #/([0-9]+) samples of sound/#).flatMap { Int($0.output.1) } ?? 0
        #expect(samples >= 48000, "the microphone's sound reached the AudioSink: \(samples) samples")
    }
}
