// Playback tutorial 3, short-cutting the pipeline: playbin plays `appsrc://`, and the application
// feeds that appsrc itself. playbin makes the source, then says so with source-setup, where the
// application gives it caps and need-data/enough-data handlers; here the audio comes back to the
// application too, through an appsink as playbin's audio-sink.
//
//     swift run PlaybackTutorial3
//
// Checks: source-setup handed out an appsrc; every generated sample came back through playbin,
// byte for byte and in order; appsrc asked for data more than once; the stream ended.
import Foundation
import GStreamer
import Synchronization
import TutorialSupport

let format = try AudioInfo(format: .s16, rate: 44100, channels: 1)
let chunk = 1024
let total = 44100

/// Sample `n` of the generated tone (600 Hz), as S16 bytes: the same `n` always gives the same bytes,
/// so what comes back can be compared with what was sent.
func samples(from first: Int, count: Int) -> [UInt8] {
    (first..<first + count).flatMap { n -> [UInt8] in
        let value = Int16(9000 * sin(2 * Double.pi * 600 * Double(n) / Double(format.rate)))
        return [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
    }
}

await Tutorial.run {
    let playbin = try Pipeline(launch: "playbin uri=appsrc://")
    try playbin.set("video-sink", element: try ElementFactory.make("fakesink"))
    let sink = try AppSink(name: "back")
    sink.caps = format.caps
    sink.sync = false
    try playbin.set("audio-sink", element: sink)

    // The counters the streaming thread updates: samples sent, need-data calls.
    let sent = Mutex((samples: 0, requests: 0))
    let sourceName = Mutex<String?>(nil)
    try playbin.connect("source-setup") { arguments in
        guard let element = arguments.first?.element, let source = try? AppSrc(element) else { return }
        sourceName.withLock { $0 = element.factoryName }
        source.caps = format.caps
        source.format = .time
        // The tutorial's push_data, run when appsrc asks: one chunk per request, then end of stream.
        source.onNeedData { _ in
            let first = sent.withLock { state -> Int? in
                state.requests += 1
                guard state.samples < total else { return nil }
                defer { state.samples += min(chunk, total - state.samples) }
                return state.samples
            }
            guard let first else {
                source.endOfStream()
                return
            }
            let count = min(chunk, total - first)
            _ = try? source.push(
                bytes: samples(from: first, count: count), pts: format.duration(ofSamples: first),
                duration: format.duration(ofSamples: first + count) - format.duration(ofSamples: first))
        }
    }

    let received = Task {
        var bytes: [UInt8] = []
        for try await sample in playbin.samples(from: sink) { bytes += sample.buffer?.bytes ?? [] }
        return bytes
    }
    try await playbin.run()
    let bytes = try await received.value

    let counts = sent.withLock { $0 }
    print("source-setup gave a \(sourceName.withLock { $0 } ?? "nothing"); appsrc asked \(counts.requests) times")
    print("Sent \(counts.samples) samples, \(bytes.count / 2) came back")
    try Tutorial.check(sourceName.withLock { $0 } == "appsrc", "source-setup did not hand out an appsrc")
    try Tutorial.check(counts.requests > 1, "appsrc asked for data \(counts.requests) times")
    try Tutorial.check(bytes.count == total * 2, "\(bytes.count / 2) of \(total) samples came back")
    try Tutorial.check(bytes == samples(from: 0, count: total), "the samples that came back differ from those sent")
}
