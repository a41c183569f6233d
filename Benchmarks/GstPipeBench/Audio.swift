// gstpipe-bench --audio: audionoise and mono against their native GStreamer references, and the cost
// of a Swift audio filter passing buffers on, measured in the same run on the same input
// at 48 kHz stereo. Run in release mode:
//
//   swift run -c release gstpipe-bench --audio [--buffers N] [--runs R]
//
// The configurations of one measure run in turn, R rounds of them, so a slow spell of this shared
// machine hits them alike; every figure is the median of its R runs. A cost is the run time with the
// element minus the run time without it, on the same source. Wall time is what the brief's figures
// use; process CPU time (user + system, all threads) is shown too, since the Swift elements add a
// thread (their appsrc's) and wall time hides work done on the second core.
import Foundation
import GstPipeElements
import MediaIO
import Synchronization

/// An audio filter that hands every frame on untouched: the cost of a Swift filter's pads and render call.
final class AudioHop: AudioFilter {
    private let consumer = Mutex<(any AudioFrameConsumer)?>(nil)
    func shouldInitialize(consumer: any AudioFrameConsumer) -> Bool {
        self.consumer.withLock { $0 = consumer }
        return true
    }
    func render(_ frame: AudioFrame) throws { consumer.withLock { $0 }?.consume(frame) }
}

/// Wall and CPU seconds of one pipeline run to end of stream.
struct RunTime {
    var wall: Double
    var cpu: Double

    static func - (lhs: RunTime, rhs: RunTime) -> RunTime {
        RunTime(wall: max(lhs.wall - rhs.wall, 0), cpu: max(lhs.cpu - rhs.cpu, 0))
    }
    static func / (lhs: RunTime, rhs: Double) -> RunTime { RunTime(wall: lhs.wall / rhs, cpu: lhs.cpu / rhs) }
}

/// This process's CPU time so far (user + system, every thread), in seconds.
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Runs each of `descriptions` to end of stream, in turn, `runs` rounds; the medians of each (wall and
/// CPU apart), in the order given.
func medianRunTimes(_ descriptions: [String], runs: Int) async throws -> [RunTime] {
    var walls = Array(repeating: [Double](), count: descriptions.count)
    var cpus = walls
    for _ in 0..<runs {
        for (index, description) in descriptions.enumerated() {
            let pipeline = try Pipeline(launch: description)
            let cpuStart = processCPUSeconds()
            let start = ContinuousClock.now
            try await pipeline.run()
            let elapsed = ContinuousClock.now - start
            cpus[index].append(processCPUSeconds() - cpuStart)
            walls[index].append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    return zip(walls, cpus).map { RunTime(wall: median($0), cpu: median($1)) }
}

/// Prints the audio table: `buffers` buffers a run (more for the cheap measures), medians of `runs`;
/// with `sourcesOnly`, only the source rows.
func audioBench(buffers: Int, runs: Int, sourcesOnly: Bool = false) async throws {
    try MediaIOElements.registerAudioFilter(name: "audiohop", longName: "Audio hop", description: "Pass-through") { _ in
        AudioHop()
    }
    func caps(_ format: String) -> String { "audio/x-raw,format=\(format),layout=interleaved,rate=48000,channels=2" }
    func rate(_ samplesPerSecond: Double) -> String { String(format: "%.1f M/s", samplesPerSecond / 1e6) }
    func faster(_ value: Double) -> String { String(format: "%.2fx faster", value) }
    func perSecondOfAudio(_ value: Double) -> String { String(format: "%.3f ms", value * 1000) }
    func microseconds(_ value: Double) -> String { String(format: "%.1f µs", value * 1e6) }

    print(
        "gstpipe-bench --audio: 48 kHz stereo, \(buffers) buffers a run, median of \(runs) runs, GStreamer \(GStreamer.version)"
    )
    print("")
    print("| measure | format | gstpipe | reference | ratio |")
    print("|---|---|---|---|---|")

    // 1. Samples (per channel) a second out of each source, into fakesink.
    for format in ["S16LE", "F32LE"] {
        for samples in [1024, 480] {
            let count = buffers * 1024 / samples
            let tail = "num-buffers=\(count) samplesperbuffer=\(samples) ! \(caps(format)) ! fakesink"
            // wave=silence is audiotestsrc with no work per sample (a memset, flagged GAP): how far any
            // source can get ahead of white-noise when basesrc, the caps filter and fakesink stay.
            let times = try await medianRunTimes(
                [
                    "audionoise seed=1 \(tail)", "audiotestsrc wave=white-noise \(tail)",
                    "audiotestsrc wave=silence \(tail)"
                ], runs: runs)
            let total = Double(count * samples)
            let (noise, white, silence) = (total / times[0].wall, total / times[1].wall, total / times[2].wall)
            print(
                "| audionoise samples/s vs audiotestsrc wave=white-noise, \(samples) a buffer | \(format) | \(rate(noise)) | \(rate(white)) | \(faster(noise / white)) |"
            )
            let (noiseCPU, whiteCPU) = (total / times[0].cpu, total / times[1].cpu)
            print(
                "| same, samples per CPU second (all threads) | \(format) | \(rate(noiseCPU)) | \(rate(whiteCPU)) | \(faster(noiseCPU / whiteCPU)) |"
            )
            print(
                "| ceiling: audiotestsrc wave=silence vs wave=white-noise, \(samples) a buffer | \(format) | \(rate(silence)) | \(rate(white)) | \(faster(silence / white)) |"
            )
        }
    }
    if sourcesOnly { return }

    // 2. What mixing one second of 48 kHz stereo to mono costs. audiotestsrc's silence is flagged GAP,
    // which audioconvert skips without mixing, so the source is a square wave: cheap, and real samples.
    for format in ["S16LE", "F32LE"] {
        for samples in [1024, 480] {
            let count = buffers * 2 * 1024 / samples
            let source = "audiotestsrc wave=square num-buffers=\(count) samplesperbuffer=\(samples) ! \(caps(format))"
            let times = try await medianRunTimes(
                [
                    "\(source) ! fakesink sync=false",
                    "\(source) ! mono ! fakesink sync=false",
                    "\(source) ! audioconvert mix-matrix=\"<<(float)0.5, (float)0.5>>\" ! audio/x-raw,channels=1 ! fakesink sync=false"
                ], runs: runs)
            // Seconds of audio in a run.
            let audio = Double(count * samples) / 48000
            let mono = (times[1] - times[0]) / audio
            let convert = (times[2] - times[0]) / audio
            print(
                "| mono cost a second of audio vs audioconvert mix-matrix to 1 channel, \(samples) a buffer | \(format) | \(perSecondOfAudio(mono.wall)) | \(perSecondOfAudio(convert.wall)) | \(String(format: "%.2fx", mono.wall / max(convert.wall, 1e-9))) the time |"
            )
            print(
                "| same, CPU time (all threads) | \(format) | \(perSecondOfAudio(mono.cpu)) | \(perSecondOfAudio(convert.cpu)) | \(String(format: "%.2fx", mono.cpu / max(convert.cpu, 1e-9))) the time |"
            )
        }
    }

    // 3. A Swift pass-through filter at 10 ms buffers: 100 of them make a second of real-time audio,
    // so µs a buffer / 100 is the % of one core it takes.
    let count = buffers * 4
    let source = "audiotestsrc wave=square samplesperbuffer=480 num-buffers=\(count) ! \(caps("S16LE"))"
    let times = try await medianRunTimes(
        [
            "\(source) ! fakesink sync=false", "\(source) ! audiohop ! fakesink sync=false",
            "\(source) ! identity ! fakesink sync=false"
        ], runs: runs)
    let hop = (times[1] - times[0]) / Double(count)
    let identity = (times[2] - times[0]) / Double(count)
    func core(_ value: Double) -> String { String(format: "%.2f %% of a core", value * 1e6 / 100) }
    print(
        "| Swift pass-through audio filter cost a 10 ms buffer vs identity (wall) | S16LE | \(microseconds(hop.wall)), \(core(hop.wall)) | \(microseconds(identity.wall)) | \(String(format: "%+.1f µs", (hop.wall - identity.wall) * 1e6)) |"
    )
    print(
        "| same, CPU time (all threads) | S16LE | \(microseconds(hop.cpu)), \(core(hop.cpu)) | \(microseconds(identity.cpu)) | \(String(format: "%+.1f µs", (hop.cpu - identity.cpu) * 1e6)) |"
    )
}
