// gstpipe-bench --soak: one long `noise ! gray ! fakesink` of small frames in this process, with the
// process's resident memory, threads and open descriptors after the first tenth of the frames and at
// the end. Flat figures mean nothing per frame is kept: no buffers, caps, samples or Swift objects.
//
//   swift run -c release gstpipe-bench --soak [--frames N]      # N defaults to 100,000
import Foundation
import GstPipeElements
import MediaIO

/// This process's resident memory (VmRSS) and peak (VmHWM) in kB, threads and open descriptors.
struct ProcessFigures: CustomStringConvertible {
    var residentKB: Int
    var peakKB: Int
    var threads: Int
    var descriptors: Int

    static func now() -> ProcessFigures {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        func kilobytes(_ key: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return 0 }
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        let entries = { (path: String) in (try? FileManager.default.contentsOfDirectory(atPath: path).count) ?? 0 }
        return ProcessFigures(
            residentKB: kilobytes("VmRSS:"), peakKB: kilobytes("VmHWM:"), threads: entries("/proc/self/task"),
            descriptors: entries("/proc/self/fd"))
    }

    var description: String {
        String(
            format: "RSS %.1f MB (peak %.1f MB), %d threads, %d open fds",
            Double(residentKB) / 1024, Double(peakKB) / 1024, threads, descriptors)
    }
}

/// Runs the soak and prints one line per checkpoint; returns false when memory grew by more than 2 MB
/// (or threads or descriptors grew at all) between the first tenth and the end.
func soak(frames: Int) async throws -> Bool {
    let checkpoint = frames / 10
    let description = "noise num-buffers=\(frames) width=64 height=48 ! gray ! fakesink name=sink"
    print("gstpipe-bench --soak: \(description), GStreamer \(GStreamer.version)")
    let pipeline = try Pipeline(launch: description)
    let messages = pipeline.messages
    // noise stamps frame n at n/30 s; fakesink answers the position of the last frame it took.
    let sink = try require(pipeline.element(named: "sink"), "no element named sink")
    let frameDuration: ClockTime = 1_000_000_000 / 30
    let start = ContinuousClock.now
    try pipeline.play()
    let watcher = Task {
        var first: ProcessFigures?
        while !Task.isCancelled, first == nil {
            if let position = sink.position, Int(position / frameDuration) >= checkpoint {
                first = ProcessFigures.now()
                print("after \(Int(position / frameDuration)) frames: \(first!)")
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return first
    }
    loop: for await message in messages {
        switch message {
        case .endOfStream: break loop
        case .error(let error): throw error
        default: continue
        }
    }
    let end = ProcessFigures.now()
    let elapsed = ContinuousClock.now - start
    pipeline.stop()
    watcher.cancel()
    guard let first = await watcher.value else {
        print("no checkpoint: the pipeline ended before \(checkpoint) frames")
        return false
    }
    print("after \(frames) frames: \(end)")
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let growth = Double(end.residentKB - first.residentKB) / 1024
    print(
        String(
            format: "RSS growth %+.1f MB over the last %d frames; %.0f frames/s", growth, frames - checkpoint,
            Double(frames) / seconds))
    return growth <= 2 && end.threads <= first.threads && end.descriptors <= first.descriptors
}

/// The value, or an error with `message` (ending the run).
func require<T>(_ value: T?, _ message: @autoclosure () -> String) throws -> T {
    guard let value else { throw MediaIOError(message()) }
    return value
}
