import Foundation
import GstPipeSupport
import MediaIO

/// Where `autoaudiosink` plays: the machine's sound server or card when it has one, else nowhere,
/// through a sink that keeps the clock (a clip still takes its own length), with a one-line note.
///
/// Measured on a machine with neither (GStreamer 1.22, Debian 12, in a container): autoaudiosink
/// tries PulseAudio ("Failed to connect: Connection refused", a warning on the bus), ALSA (libasound
/// prints eight lines of errors straight to stderr) and OpenAL (one more) before it falls back to a
/// fake sink of its own. gstpipe decides before any of them is opened, as `Preview` does for video.
enum SoundOutput {
    /// True when a sound server or a playback device is there for autoaudiosink to open.
    static var hasDevice: Bool { hasSoundServer || hasPlaybackCard }

    /// A PulseAudio server (or PipeWire's, which answers on the same socket): named by PULSE_SERVER,
    /// or listening where libpulse looks by default, the user's runtime folder or the system one.
    static var hasSoundServer: Bool {
        if !(ProcessEnvironment.value("PULSE_SERVER") ?? "").isEmpty { return true }
        let folder = ProcessEnvironment.value("XDG_RUNTIME_DIR") ?? ""
        let runtime = folder.isEmpty ? "/run/user/\(getuid())" : folder
        return ["\(runtime)/pulse/native", "/run/pulse/native", "/var/run/pulse/native"]
            .contains { FileManager.default.fileExists(atPath: $0) }
    }

    /// An ALSA playback device (/dev/snd/pcmC0D0p: card 0, device 0, playback), or OSS's /dev/dsp.
    static var hasPlaybackCard: Bool {
        let devices = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd")) ?? []
        return devices.contains { $0.hasPrefix("pcmC") && $0.hasSuffix("p") }
            || FileManager.default.fileExists(atPath: "/dev/dsp")
    }

    /// Replaces each autoaudiosink with a fakesink that keeps the clock (or not, as the
    /// autoaudiosink's own `sync` said) when there is nothing to play to; returns true when it did.
    @discardableResult
    static func apply(to pipeline: Pipeline, note: (String) -> Void) throws(FileJob.Failure) -> Bool {
        let sinks = pipeline.allElements.filter { $0.factoryName == "autoaudiosink" }
        guard !sinks.isEmpty, !hasDevice else { return false }
        note("no sound device (no PulseAudio server, no ALSA card): autoaudiosink plays to nowhere, keeping time")
        for sink in sinks {
            do {
                let sync = (try? sink.get("sync"))?.intValue.map { $0 != 0 } ?? true
                let replacement = try Element(factory: "fakesink")
                try replacement.set("sync", sync)
                try pipeline.replace(sink, with: replacement)
            } catch {
                throw .runtime("cannot replace \(sink.name) with a sink that keeps time: \(error.message)")
            }
        }
        return true
    }
}
