// CustomAudioSource: an external audio capturer as in the RTC SDKs' custom audio source (Agora's
// pushExternalAudioFrame, OpenTok's writeCaptureData). An AudioSource asks for S16 48 kHz stereo in
// 10 ms buffers, and its own timer thread, started and stopped by the element's lifecycle, pushes
// a sine (440 Hz left, 660 Hz right) with `consumeSamples` every 10 ms, in deliberately irregular
// sizes, as capture devices deliver them; the consumer cuts them into 10 ms buffers. The pipeline
// encodes to FLAC; the file is then decoded back and checked sample for sample, and its tones measured.
//
//   swift run CustomAudioSource [--seconds 2] [--out /tmp/custom-audio-source.flac]
import Foundation
import MediaIO
import Synchronization

/// The signal: a sine per channel, a pure function of the sample index so that the check can
/// recompute exactly what was pushed.
struct Tone: Sendable {
    static let frequencies = [440.0, 660.0]
    static let amplitude = 16384.0  // half of full scale

    static func sample(_ n: Int, channel: Int, rate: Int) -> Int16 {
        Int16((sin(2 * Double.pi * frequencies[channel] * Double(n) / Double(rate)) * amplitude).rounded())
    }
}

final class SineCapturer: AudioSource {
    static let rate = 48000
    static let channels = 2
    /// 10 ms at 48 kHz: the buffer size RTC stacks work in.
    static let samplesPerBuffer = AudioFormatRequest.samples(milliseconds: 10, rate: 48000)
    /// Sizes (samples per channel) pushed on four successive 10 ms ticks: on time, late, catching up
    /// in two uneven parts, and in thirds. They sum to four ticks' worth, so the pace stays real time
    /// while no push but the first is a whole buffer.
    static let pushPattern: [[Int]] = [[480], [173], [1, 786], [160, 160, 160]]

    struct Report: Sendable {
        var pushed = 0
        var pushes = 0
        var sizes: Set<Int> = []
    }
    private struct Capture {
        var consumer: (any AudioFrameConsumer)?
        /// Which start the capture thread belongs to; a stop or a new start ends the old thread.
        var generation = 0
        var running = false
        var report = Report()
    }
    private let capture = Mutex(Capture())
    private let totalSamples: Int

    init(seconds: Double) {
        totalSamples = Int(seconds * Double(Self.rate))
    }

    var report: Report { capture.withLock { $0.report } }

    func shouldInitialize(consumer: any AudioFrameConsumer) -> Bool {
        print("capturer: shouldInitialize")
        // Negotiated up front, as an SDK's external source is configured before it starts: exactly
        // this shape, cut into 10 ms buffers whatever the push sizes.
        let request = AudioFormatRequest(
            formats: [.s16], rate: Self.rate, channels: Self.channels, samplesPerBuffer: Self.samplesPerBuffer)
        guard let negotiated = consumer.negotiate(request) else {
            print("capturer: downstream takes no S16LE \(Self.rate) Hz \(Self.channels) channels")
            return false
        }
        print("capturer: negotiated \(negotiated), \(Self.samplesPerBuffer) samples per buffer")
        capture.withLock { $0.consumer = consumer }
        return true
    }

    func shouldStart() {
        print("capturer: shouldStart")
        let generation = capture.withLock { state -> Int in
            state.generation += 1
            state.running = true
            return state.generation
        }
        // The capturer's own clock: a thread ticking every 10 ms, as a device's callback would.
        Thread.detachNewThread { [self] in
            let clock = ContinuousClock()
            var deadline = clock.now
            var tick = 0
            while capture.withLock({ $0.running && $0.generation == generation }) {
                captureTick(tick)
                tick += 1
                deadline += .milliseconds(10)
                let wait = (deadline - clock.now).components
                Thread.sleep(forTimeInterval: max(0, Double(wait.seconds) + Double(wait.attoseconds) / 1e18))
            }
        }
    }

    func shouldStop() {
        print("capturer: shouldStop")
        // Stop without waiting: a push blocked downstream returns by itself once the element stops.
        capture.withLock { $0.running = false }
    }

    func shouldDispose() {
        print("capturer: shouldDispose")
        capture.withLock { $0.consumer = nil }
    }

    private func captureTick(_ tick: Int) {
        for size in Self.pushPattern[tick % Self.pushPattern.count] {
            guard
                let (consumer, first) = capture.withLock({ state -> ((any AudioFrameConsumer), Int)? in
                    guard let consumer = state.consumer, state.running else { return nil }
                    return (consumer, state.report.pushed)
                })
            else { return }
            let count = min(size, totalSamples - first)
            if count <= 0 {
                // Everything captured: what the consumer still holds goes out, then end of stream.
                consumer.endOfStream()
                capture.withLock { $0.running = false }
                return
            }
            let channels = Self.channels
            var samples = [Int16](repeating: 0, count: count * channels)
            for n in 0..<count {
                for channel in 0..<channels {
                    samples[n * channels + channel] = Tone.sample(first + n, channel: channel, rate: Self.rate)
                }
            }
            // No timestamp: the consumer times buffers by its sample count, which never drifts.
            let flow = consumer.consumeSamples(samples)
            capture.withLock { state in
                state.report.pushed += count
                state.report.pushes += 1
                state.report.sizes.insert(count)
                if flow != .ok { state.running = false }
            }
            guard flow == .ok else { return }
        }
    }
}

/// The frequency from the crossings from negative to non-negative: whole periods lie between the
/// first and the last, whatever the phase at either end.
func frequency(of samples: [Int16], rate: Int) -> Double {
    let crossings = (1..<samples.count).filter { samples[$0 - 1] < 0 && samples[$0] >= 0 }
    guard let first = crossings.first, let last = crossings.last, last > first else { return 0 }
    return Double(crossings.count - 1) * Double(rate) / Double(last - first)
}

/// The level of `frequency` in `samples` relative to full scale, in dB (-120 for nothing at all):
/// one DFT bin (Goertzel).
func level(of frequency: Double, in samples: [Int16], rate: Int) -> Double {
    let coefficient = 2 * cos(2 * Double.pi * frequency / Double(rate))
    var (previous, beforePrevious) = (0.0, 0.0)
    for sample in samples {
        let current = Double(sample) / 32768 + coefficient * previous - beforePrevious
        (beforePrevious, previous) = (previous, current)
    }
    let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
    // A full-scale sine gives an amplitude of N/2 in its bin.
    let amplitude = sqrt(max(power, 0)) / (Double(samples.count) / 2)
    return max(20 * log10(amplitude), -120)
}

/// Completes at the pipeline's end of stream. An error ends the program at once: the appsink
/// sequences the main code reads would otherwise wait for ever.
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

let arguments = CommandLine.arguments
func value(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let seconds = Double(value("--seconds") ?? "") ?? 2
let output = value("--out") ?? "/tmp/custom-audio-source.flac"
// The tone check measures whole 1/20 s stretches (below).
guard seconds >= 0.05 else {
    print("--seconds takes a number of seconds from 0.05 up")
    exit(2)
}

try MediaIOElements.registerAudioSource(
    name: "sinecapturer", longName: "Sine capturer", description: "Example external audio source"
) { _ in SineCapturer(seconds: seconds) }

// FLAC because it is lossless: what is decoded must be what was pushed, sample for sample and count
// for count. Opus or Vorbis would give back other values, and a count that depends on the codec's
// padding. The tee's second branch shows the buffers the consumer cut the pushes into.
let pipeline = try Pipeline(
    launch: "sinecapturer name=capturer ! tee name=t "
        + "t. ! queue ! audioconvert ! flacenc ! filesink location=\(output) "
        + "t. ! queue ! appsink name=tap sync=false")
guard let capturer = pipeline.mediaIOElement(named: "capturer", as: SineCapturer.self) else {
    fatalError("the pipeline has no sine capturer named capturer")
}
let tap = try pipeline.audioFrames(fromAppSink: "tap", capacity: 64)
let tapEnded = endOfStream(of: pipeline)
print("capturing \(seconds) s of 440 Hz (left) and 660 Hz (right) into \(output)")
try pipeline.play()
var bufferSizes: [Int: Int] = [:]
for try await frame in tap { bufferSizes[frame.sampleCount, default: 0] += 1 }
// The tap's end is not the file's: flacenc writes its header once end of stream reaches it.
await tapEnded.value
pipeline.stop()

let report = capturer.report
let sizes = report.sizes.sorted()
print(
    "pushed \(report.pushed) samples per channel in \(report.pushes) pushes of \(sizes.count) sizes "
        + "(\(sizes.map(String.init).joined(separator: ", ")))")
let buffers = bufferSizes.sorted { $0.key > $1.key }.map { "\($0.value) of \($0.key)" }
print("buffers sent downstream: " + buffers.joined(separator: ", "))

// Decode the file again, as any player would, into the same shape.
let check = try Pipeline(
    launch: "uridecodebin uri=\(URL(fileURLWithPath: output).absoluteString) ! audioconvert ! audioresample "
        + "! audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=2 ! appsink name=out sync=false")
let decodedFrames = try check.audioFrames(fromAppSink: "out")
let checkEnded = endOfStream(of: check)
try check.play()
var channels: [[Int16]] = [[], []]
for try await frame in decodedFrames {
    try frame.withSamples(as: Int16.self) { samples in
        for index in stride(from: 0, to: samples.count - 1, by: 2) {
            channels[0].append(samples[index])
            channels[1].append(samples[index + 1])
        }
    }
}
await checkEnded.value
check.stop()

var failures: [String] = []
let decoded = channels[0].count
print("decoded \(decoded) samples per channel (\(String(format: "%.3f", Double(decoded) / 48000)) s)")
if decoded != report.pushed { failures.append("decoded \(decoded) samples, pushed \(report.pushed)") }
let mismatches = (0..<min(decoded, report.pushed)).filter { n in
    (0..<2).contains { channels[$0][n] != Tone.sample(n, channel: $0, rate: 48000) }
}
print("samples differing from those pushed: \(mismatches.count)")
if let first = mismatches.first { failures.append("\(mismatches.count) samples differ, the first at \(first)") }
let buffersExpected = report.pushed / SineCapturer.samplesPerBuffer
if bufferSizes[SineCapturer.samplesPerBuffer] != buffersExpected {
    failures.append("expected \(buffersExpected) buffers of \(SineCapturer.samplesPerBuffer) samples")
}
// Both tones are multiples of 20 Hz: over whole 1/20 s stretches each bin sees the other tone not at all.
let wholePeriods = decoded / 2400 * 2400
for (channel, name) in ["left", "right"].enumerated() where wholePeriods > 0 {
    let measured = frequency(of: channels[channel], rate: 48000)
    let expected = Tone.frequencies[channel]
    let other = Tone.frequencies[1 - channel]
    let own = level(of: expected, in: Array(channels[channel].prefix(wholePeriods)), rate: 48000)
    let leak = level(of: other, in: Array(channels[channel].prefix(wholePeriods)), rate: 48000)
    let leakText = leak > -120 ? String(format: "%.0f Hz at %.1f dBFS", other, leak) : "no \(Int(other)) Hz at all"
    print(
        String(
            format: "%@: %.1f Hz by zero crossings (expected %.0f); %.0f Hz at %.1f dBFS, %@", name, measured,
            expected, expected, own, leakText))
    if abs(measured - expected) > 1 { failures.append("\(name) is at \(measured) Hz, not \(expected)") }
    if own < -7 || leak > -60 { failures.append("\(name) does not hold \(expected) Hz alone") }
}
guard failures.isEmpty else {
    for failure in failures { print("FAILED: \(failure)") }
    exit(1)
}
print("OK")
