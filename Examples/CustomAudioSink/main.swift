// CustomAudioSink: the pull model of RTC render paths (Agora's pullPlaybackAudioFrame, OpenTok's
// readRenderData). An AudioPullSink element asks for S16 48 kHz stereo; whatever the file holds is
// converted to that inside the element. A "device loop" on its own thread pulls 10 ms every 10 ms
// of wall time, as a sound card's callback would, and so sets the pipeline's pace (`sync=false`).
// It measures the RMS of each second of audio and counts the silence it got on underruns.
//
// Without a file it first makes one with GStreamer: a 440 Hz sine at half scale, 44.1 kHz mono
// FLAC, so the conversion to 48 kHz stereo shows; then it also checks the level of every second.
//
//   swift run CustomAudioSink [input.flac] [--seconds 3] [--fast]
import Foundation
import MediaIO
import Synchronization

/// What the device loop saw.
struct DeviceReport: Sendable {
    /// Per second of audio: the sums of squares of each channel, and the samples (per channel).
    struct Second: Sendable {
        var squares = [0.0, 0.0]
        var samples = 0
        func rms(_ channel: Int) -> Double { samples == 0 ? 0 : (squares[channel] / Double(samples)).squareRoot() }
    }
    var pulls = 0
    /// Samples (per channel) that held audio, and those the sink filled with silence.
    var received = 0
    var missing = 0
    /// Pulls that came before the first audio (the device opened before the stream), found the queue
    /// short in mid-stream, or padded the stream's last samples.
    var startupPulls = 0
    var underruns = 0
    var finalPadding = 0
    /// Instants where left and right differ (a mono input must reach both the same).
    var channelDifferences = 0
    var seconds: [Second] = []
    var stalled = false
}

/// The device: pulls `chunk` samples per channel every `chunk` of wall time (or back to back with
/// `fast`) until the sink has handed out the whole stream.
func runDevice(_ device: AudioPullSink, fast: Bool) -> DeviceReport {
    let rate = device.info.rate
    let chunk = AudioFormatRequest.samples(milliseconds: 10, rate: rate)
    var report = DeviceReport()
    var samples = [Int16](repeating: 0, count: chunk * 2)
    let clock = ContinuousClock()
    var deadline = clock.now
    var lastAudio = clock.now
    while !device.isFinished {
        let missing: Int
        do {
            missing = try samples.withUnsafeMutableBufferPointer { try device.pull(into: $0) }
        } catch {
            print("device: \(error)")
            break
        }
        let audio = chunk - missing
        report.pulls += 1
        // The sink puts the silence after the audio it had: only the first `audio` instants are signal.
        for instant in 0..<audio {
            let second = (report.received + instant) / rate
            if second == report.seconds.count { report.seconds.append(.init()) }
            let (left, right) = (Double(samples[instant * 2]) / 32768, Double(samples[instant * 2 + 1]) / 32768)
            report.seconds[second].squares[0] += left * left
            report.seconds[second].squares[1] += right * right
            report.seconds[second].samples += 1
            if samples[instant * 2] != samples[instant * 2 + 1] { report.channelDifferences += 1 }
        }
        if missing > 0 {
            if report.received == 0 {
                report.startupPulls += 1
            } else if device.isFinished {
                report.finalPadding += missing
            } else {
                report.underruns += 1
            }
        }
        // Silence before the first audio is the device waiting, not audio lost.
        if report.received > 0 { report.missing += missing }
        report.received += audio
        if audio > 0 { lastAudio = clock.now }
        if clock.now - lastAudio > .seconds(10) {
            report.stalled = true
            break
        }
        if fast {
            // As fast as the pipeline delivers: a short wait only when it has nothing yet.
            if missing > 0 { Thread.sleep(forTimeInterval: 0.001) }
        } else {
            deadline += .milliseconds(10)
            let wait = (deadline - clock.now).components
            Thread.sleep(forTimeInterval: max(0, Double(wait.seconds) + Double(wait.attoseconds) / 1e18))
        }
    }
    return report
}

/// Completes at the pipeline's end of stream. An error ends the program at once: the code waiting
/// on the device would otherwise wait for ever.
func endOfStream(of pipeline: Pipeline) -> Task<Void, Never> {
    let messages = pipeline.messages
    return Task {
        for await message in messages {
            switch message {
            case .endOfStream: return
            case .error(let error):
                print("FAILED: \(error)")
                exit(1)
            default: continue
            }
        }
    }
}

func decibels(_ value: Double) -> String { String(format: "%.2f dBFS", 20 * log10(max(value, 1e-6))) }

let arguments = CommandLine.arguments
func value(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let fast = arguments.contains("--fast")
let seconds = Int(value("--seconds") ?? "") ?? 3
let input = arguments.dropFirst().first { !$0.hasPrefix("--") && $0 != value("--seconds") }
guard seconds > 0 else {
    print("--seconds takes a whole number of seconds from 1 up")
    exit(2)
}

// The generated tone: a sine at half of full scale has an RMS of 0.5 / √2 of full scale.
let toneAmplitude = 0.5
let expectedRMS = toneAmplitude / 2.squareRoot()
let path: String
if let input {
    guard FileManager.default.fileExists(atPath: input) else {
        print("no such file: \(input)")
        exit(2)
    }
    path = input
} else {
    path = "/tmp/custom-audio-sink-input.flac"
    // 441 samples are 10 ms at 44.1 kHz: `seconds` is a whole number of buffers.
    let generator = try Pipeline(
        launch: "audiotestsrc wave=sine freq=440 volume=\(toneAmplitude) samplesperbuffer=441 "
            + "num-buffers=\(seconds * 100) ! audio/x-raw,format=S16LE,rate=44100,channels=1 "
            + "! flacenc ! filesink location=\(path)")
    try await generator.run()
    print("made \(path): \(seconds) s of a 440 Hz sine at half scale, 44100 Hz mono FLAC")
}

let deviceFormat = try AudioInfo(format: .s16, rate: 48000, channels: 2)
try MediaIOElements.registerAudioSink(
    name: "playbackdevice", longName: "Playback device", description: "Example pull-model audio sink"
) { _ in AudioPullSink(format: deviceFormat) }

// sync=false: the device's pulls pace the stream, not the pipeline clock.
let pipeline = try Pipeline(
    launch: "uridecodebin uri=\(URL(fileURLWithPath: path).absoluteString) ! playbackdevice name=device sync=false")
guard let device = pipeline.mediaIOElement(named: "device", as: AudioPullSink.self) else {
    fatalError("the pipeline has no playback device named device")
}
let ended = endOfStream(of: pipeline)
print("device: pulling \(device.info) in 10 ms chunks \(fast ? "as fast as it comes" : "every 10 ms")")
let started = ContinuousClock.now
try pipeline.play()
// The device opens at once, as a sound card would, before the stream has started.
let report = await withCheckedContinuation { continuation in
    Thread.detachNewThread { continuation.resume(returning: runDevice(device, fast: fast)) }
}
let elapsed = ContinuousClock.now - started
if !report.stalled { await ended.value }
let duration = pipeline.duration
pipeline.stop()

for (index, second) in report.seconds.enumerated() {
    print(
        String(
            format: "second %d: %5d samples, RMS left %.4f (%@), right %.4f (%@)", index + 1, second.samples,
            second.rms(0), decibels(second.rms(0)), second.rms(1), decibels(second.rms(1))))
}
print(
    "\(report.pulls) pulls in \(elapsed.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 2)))): "
        + "\(report.received) samples per channel of audio; \(report.startupPulls) pulls of silence before the stream "
        + "started, \(report.underruns) underruns in it (\(report.missing - report.finalPadding) samples of silence), "
        + "\(report.finalPadding) samples padding the last pull; the sink counted \(device.underrunCount) underruns")

var failures: [String] = []
if report.stalled { failures.append("no audio came for 10 s") }
if let duration {
    let expected = deviceFormat.samples(in: duration)
    print("the file lasts \(Double(duration) / 1e9) s: \(expected) samples at 48 kHz; received \(report.received)")
    if abs(report.received - expected) > 480 {
        failures.append("received \(report.received) samples, expected \(expected) within 480")
    }
} else {
    failures.append("the pipeline did not tell the file's duration")
}
if input == nil {
    let expectedSamples = seconds * deviceFormat.rate
    if abs(report.received - expectedSamples) > 480 {
        failures.append("received \(report.received) samples for \(seconds) s generated, expected \(expectedSamples)")
    }
    print("mono input: left and right differ at \(report.channelDifferences) instants")
    if report.channelDifferences != 0 { failures.append("the mono input did not reach both channels alike") }
    print(String(format: "expected RMS of each second: %.4f (%@)", expectedRMS, decibels(expectedRMS)))
    // A partial last second (a resampler's few samples) is too short to say much.
    for (index, second) in report.seconds.enumerated() where second.samples >= deviceFormat.rate / 10 {
        for channel in 0..<2 where abs(second.rms(channel) / expectedRMS - 1) > 0.02 {
            failures.append(String(format: "second %d, channel %d: RMS %.4f", index + 1, channel, second.rms(channel)))
        }
    }
}
guard failures.isEmpty else {
    for failure in failures { print("FAILED: \(failure)") }
    exit(1)
}
print("OK")
