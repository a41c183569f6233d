import Foundation
import Testing

@Suite("autoaudiosink with no sound device")
struct SoundOutputTests {
    static let hasNoDevice =
        !((try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd")) ?? []).contains { $0.hasPrefix("pcmC") }
        && !FileManager.default.fileExists(atPath: "/dev/dsp")

    @Test(
        "autoaudiosink with no sound server or card plays to nowhere in real time, with a note, exit 0",
        .enabled(if: hasNoDevice, "this machine has a sound card"))
    func noDevice() throws {
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-runtime-\(UUID())")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: runtime) }
        let started = Date()
        // 50 buffers of 1024 samples at 44.1 kHz: 1.16 s.
        let result = try CLI.run(
            ["audiotestsrc", "num-buffers=50", "!", "autoaudiosink"],
            environment: [
                "DISPLAY": nil, "WAYLAND_DISPLAY": nil, "PULSE_SERVER": nil, "XDG_RUNTIME_DIR": runtime.path
            ], timeout: 20)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr
                == "gstpipe: no sound device (no PulseAudio server, no ALSA card): autoaudiosink plays to nowhere, "
                + "keeping time\n")
        #expect(elapsed > 1.1 && elapsed < 10, "keeps time: \(elapsed) s for 1.16 s of sound")
    }
}
