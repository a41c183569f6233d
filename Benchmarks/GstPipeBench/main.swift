// gstpipe-bench: noise and gray against their native GStreamer references, measured in the same run
// on the same input, at 1920x1080. Run in release mode:
//
//   swift run -c release gstpipe-bench [--frames N] [--runs R]
//   swift run -c release gstpipe-bench --soak [--frames N]     (memory, threads and fds: see Soak.swift)
//   swift run -c release gstpipe-bench --audio [--buffers N]   (the audio table alone: see Audio.swift)
//   swift run -c release gstpipe-bench --audio-sources         (its source rows alone)
//   swift run -c release gstpipe-bench --launch DESCRIPTION    (one run, for a profiler)
//
// Without --audio, the audio table follows the video one.
//
// Every figure is the median of R runs; ratios compare medians.
import Foundation
import GstPipeElements
import MediaIO
import Synchronization

/// A filter that hands every frame on untouched: the cost of a Swift filter's pads and render call alone.
final class Hop: VideoFilter {
    private let consumer = Mutex<(any VideoFrameConsumer)?>(nil)
    var pixelFormat: VideoPixelFormat { .i420 }
    var acceptedPixelFormats: [VideoPixelFormat] { VideoPixelFormat.allCases }
    func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        self.consumer.withLock { $0 = consumer }
        return true
    }
    func render(_ frame: VideoFrame) throws { consumer.withLock { $0 }?.consume(frame) }
}

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return fallback }
    return Int(arguments[index + 1]) ?? fallback
}
let frames = option("--frames", 100)
let runs = option("--runs", 5)

try GstPipeElements.register()
try MediaIOElements.registerFilter(name: "hop", longName: "Hop", description: "Pass-through") { _ in Hop() }

if arguments.contains("--soak") {
    exit(try await soak(frames: option("--frames", 100_000)) ? 0 : 1)
}
// --launch DESCRIPTION runs one pipeline to its end, for a profiler (perf record) to watch.
if let index = arguments.firstIndex(of: "--launch"), index + 1 < arguments.count {
    try await Pipeline(launch: arguments[index + 1]).run()
    exit(0)
}
let audioBuffers = option("--buffers", 5000)
if arguments.contains("--audio") || arguments.contains("--audio-sources") {
    try await audioBench(buffers: audioBuffers, runs: runs, sourcesOnly: arguments.contains("--audio-sources"))
    exit(0)
}

/// Seconds to run `description` to end of stream (median of `runs`).
func seconds(_ description: String) async throws -> Double {
    var times: [Double] = []
    for _ in 0..<runs {
        let pipeline = try Pipeline(launch: description)
        let start = ContinuousClock.now
        try await pipeline.run()
        let elapsed = ContinuousClock.now - start
        times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    return times.sorted()[times.count / 2]
}

func caps(_ format: String) -> String { "video/x-raw,format=\(format),width=1920,height=1080,framerate=30/1" }
func ms(_ value: Double) -> String { String(format: "%.3f ms", value * 1000) }
func ratio(_ value: Double) -> String { String(format: "%.1fx", value) }

print("gstpipe-bench: 1920x1080, \(frames) frames a run, median of \(runs) runs, GStreamer \(GStreamer.version)")
print("")
print("| measure | format | gstpipe | reference | ratio |")
print("|---|---|---|---|---|")

for format in ["I420", "BGRA"] {
    let noise = try await seconds("noise num-buffers=\(frames) ! \(caps(format)) ! fakesink")
    let snow = try await seconds("videotestsrc pattern=snow num-buffers=\(frames) ! \(caps(format)) ! fakesink")
    print(
        "| noise frames/s vs videotestsrc pattern=snow | \(format) | \(Int(Double(frames) / noise)) fps | \(Int(Double(frames) / snow)) fps | \(ratio(snow / noise)) faster |"
    )
}

for format in ["I420", "BGRA"] {
    // gray on I420 costs little next to the source, so it is timed over five times as many frames.
    let count = format == "I420" ? frames * 5 : frames
    let source = "videotestsrc pattern=black num-buffers=\(count) ! \(caps(format))"
    let base = try await seconds("\(source) ! fakesink")
    func cost(_ element: String) async throws -> Double {
        max(try await seconds("\(source) ! \(element) ! fakesink") - base, 0) / Double(count)
    }
    let gray = try await cost("gray")
    let balance = try await cost("videobalance saturation=0")
    let convert = try await cost("videoconvert ! video/x-raw,format=GRAY8")
    print(
        "| gray cost a frame vs videobalance saturation=0 | \(format) | \(ms(gray)) | \(ms(balance)) | \(ratio(balance / max(gray, 1e-6))) faster |"
    )
    print(
        "| gray cost a frame vs videoconvert to GRAY8 | \(format) | \(ms(gray)) | \(ms(convert)) | \(ratio(convert / max(gray, 1e-6))) faster |"
    )
    if format == "BGRA" {
        // A plain copy of one BGRA frame, the floor for work that must read and write every pixel: once
        // between the same two buffers (hot in cache), once rotating through four of each, as a pipeline
        // with buffer pools does.
        let size = 1920 * 1080 * 4
        let sources = (0..<4).map { _ in UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 64) }
        let targets = (0..<4).map { _ in UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 64) }
        for buffer in sources + targets { buffer.initializeMemory(as: UInt8.self, repeating: 1) }
        func copyCost(buffers: Int) -> Double {
            var copies: [Double] = []
            for _ in 0..<runs {
                let start = ContinuousClock.now
                for index in 0..<frames {
                    targets[index % buffers].copyMemory(from: UnsafeRawBufferPointer(sources[index % buffers]))
                }
                let elapsed = ContinuousClock.now - start
                copies.append(
                    (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
                        / Double(frames))
            }
            return copies.sorted()[copies.count / 2]
        }
        let hot = copyCost(buffers: 1)
        let pooled = copyCost(buffers: 4)
        print(
            "| gray cost a frame vs memcpy of the frame, same buffers | BGRA | \(ms(gray)) | \(ms(hot)) | \(String(format: "%.2f", gray / hot))x the copy |"
        )
        print(
            "| gray cost a frame vs memcpy of the frame, 4 buffers each side | BGRA | \(ms(gray)) | \(ms(pooled)) | \(String(format: "%.2f", gray / pooled))x the copy |"
        )
        for buffer in sources + targets { buffer.deallocate() }
    }
}

// The hop does not touch pixels, so it is timed over ten times as many frames, for precision.
let hopFrames = frames * 10
let hopSource = "videotestsrc pattern=black num-buffers=\(hopFrames) ! \(caps("I420"))"
let hopBase = try await seconds("\(hopSource) ! fakesink")
let hop = max(try await seconds("\(hopSource) ! hop ! fakesink") - hopBase, 0) / Double(hopFrames)
let identity = max(try await seconds("\(hopSource) ! identity ! fakesink") - hopBase, 0) / Double(hopFrames)
print(
    "| Swift pass-through filter vs identity | I420 | \(String(format: "%.1f µs", hop * 1e6)) | \(String(format: "%.1f µs", identity * 1e6)) | \(String(format: "%+.1f µs", (hop - identity) * 1e6)) |"
)

// Memory: peak RSS of this process after 2,000 and after 20,000 frames of noise ! gray at 640x480.
func peakRSS() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
}
for count in [2_000, 20_000] {
    try await Pipeline(launch: "noise num-buffers=\(count) width=640 height=480 ! gray ! fakesink").run()
    print(
        "| peak RSS after noise num-buffers=\(count) width=640 height=480 ! gray ! fakesink | I420 | \(peakRSS() / 1024) MB | | |"
    )
}

print("")
try await audioBench(buffers: audioBuffers, runs: runs)
