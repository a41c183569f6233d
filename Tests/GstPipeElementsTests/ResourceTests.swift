import CHeapUsage
import Foundation
import GstPipeElements
import MediaIO
import Testing

/// This process's resident memory (VmRSS, kB), its C heap in use (kB), threads and open file descriptors.
struct ProcessResources: CustomStringConvertible {
    var residentKB: Int
    var heapKB: Int
    var threads: Int
    var descriptors: Int

    static func now() -> ProcessResources {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let rss =
            status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let entries = { (path: String) in (try? FileManager.default.contentsOfDirectory(atPath: path).count) ?? 0 }
        return ProcessResources(
            residentKB: rss, heapKB: heap_bytes_in_use() / 1024, threads: entries("/proc/self/task"),
            descriptors: entries("/proc/self/fd"))
    }

    /// The names of this process's threads (as `top -H` shows them), to tell which one stayed.
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.sorted()
    }

    /// What each open file descriptor refers to, to tell which one stayed.
    static func descriptorTargets() -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.compactMap { entry in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")).map {
                "\(entry) → \($0)"
            }
        }.sorted()
    }

    var description: String {
        String(
            format: "RSS %.1f MB, heap in use %.1f MB, %d threads, %d fds",
            Double(residentKB) / 1024, Double(heapKB) / 1024, threads, descriptors)
    }
}

/// Nothing leaked across runs: the same small transcode, many times in one process.
///
/// The counts are of the whole process, so the loop runs in a process of its own (this test binary,
/// filtered to `transcodeLoop`), where no other test starts threads or opens files meanwhile.
@Suite("Pipelines leave nothing behind", .bounded)
struct ResourceTests {
    static let childVariable = "GSTPIPE_RESOURCE_CHILD"
    /// The C heap in use may grow this much over the 20 runs after warm-up: 25.6 kB a run. Measured on the
    /// 2-core Debian machine: +0.1 MB, and the next 20 runs add 10 kB more, then 8 kB (caches filling, not
    /// a leak). One leaked 160x120 I420 frame a run would add 0.56 MB; one per frame, 17 MB.
    static let heapBoundKB = 512
    /// Resident memory may grow this much, for what leaks outside malloc (mapped memory). It is a coarse
    /// bound: resident pages move with fragmentation and with what the allocator keeps, +0.2 to +4.2 MB
    /// over these runs on the same machine (CI failed once on the 4 MB bound this had before).
    static let rssBoundKB = 12 * 1024
    /// Descriptors that may be opened once during the measured runs (see `transcodeLoop`).
    static let descriptorSlack = 2

    @Test("20 encodes and decodes through gray in one process: no more threads after, fds within 2, heap within 0.5 MB")
    func twentyTranscodes() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--testing-library", "swift-testing", "--filter", "ResourceTests/transcodeLoop"]
        // One malloc arena: x264enc and avdec_h264 start threads on each run, and glibc's per-thread arenas
        // would otherwise hold freed memory here and there, a noise of several MB that could hide a leak.
        // GLib's slice allocator, malloc itself, so that GStreamer's small objects count as heap in use.
        child.environment = ProcessInfo.processInfo.environment.merging(
            [ResourceTests.childVariable: "1", "MALLOC_ARENA_MAX": "1", "G_SLICE": "always-malloc"]) { $1 }
        let output = Pipe()
        child.standardOutput = output
        child.standardError = output
        try child.run()
        let text = Thread.detachedRead(output.fileHandleForReading)
        let deadline = Date().addingTimeInterval(120)
        while child.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if child.isRunning { kill(child.processIdentifier, SIGKILL) }
        child.waitUntilExit()
        let log = text()
        #expect(child.terminationReason == .exit && child.terminationStatus == 0, "\(log)")
        let figures = log.split(separator: "\n").filter { $0.contains("ResourceTests:") }
        #expect(figures.count == 1, "\(log)")
        figures.forEach { print($0) }
    }

    @Test(
        "The transcode loop itself (run by the test above, in a process of its own)",
        .enabled(if: ProcessInfo.processInfo.environment[ResourceTests.childVariable] != nil))
    func transcodeLoop() async throws {
        try GstPipeElements.register()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-resources-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        func transcode(_ index: Int) async throws {
            let file = directory.appendingPathComponent("run\(index).mp4").path
            try await Pipeline(
                launch: "videotestsrc num-buffers=30 ! video/x-raw,width=160,height=120 ! gray "
                    + "! x264enc speed-preset=ultrafast ! mp4mux ! filesink location=\(file)"
            ).run()
            let decoder = try Pipeline(
                launch:
                    "filesrc location=\(file) ! qtdemux ! h264parse ! avdec_h264 ! gray ! appsink name=out sync=false")
            let frames = try decoder.frames(fromAppSink: "out")
            try decoder.play()
            var count = 0
            for try await _ in frames { count += 1 }
            decoder.stop()
            #expect(count == 30, "run \(index)")
            try FileManager.default.removeItem(atPath: file)
        }

        // Warm-up: plugins loaded, GStreamer's and Swift's thread pools grown, the heap at its working size.
        // (Measured: RSS still climbs over the first ~20 runs, with or without gray, x264enc most.)
        for index in 0..<20 { try await transcode(index) }
        let before = ProcessResources.now()
        let descriptorsBefore = ProcessResources.descriptorTargets()
        for index in 0..<20 { try await transcode(index) }
        // Threads that finished their work may still be on their way out: an idle libdispatch worker
        // (Swift's executor) exits after a few seconds, a GStreamer pool thread once it is released. CI saw
        // 11 threads against 10 right after the last run. A leaked thread stays, so wait up to 10 s for the
        // counts to come back, and fail only if they do not.
        var after = ProcessResources.now()
        let settle = Date().addingTimeInterval(10)
        while (after.threads > before.threads || after.descriptors > before.descriptors + ResourceTests.descriptorSlack)
            && Date() < settle
        {
            try await Task.sleep(for: .milliseconds(100))
            after = ProcessResources.now()
        }
        print(
            "ResourceTests: 20 transcodes (videotestsrc 30 frames 160x120 ! gray ! x264enc ! mp4mux, then decoded "
                + "through gray): before \(before); after \(after); growth: heap in use "
                + String(
                    format: "%+.2f MB, RSS %+.1f MB", Double(after.heapKB - before.heapKB) / 1024,
                    Double(after.residentKB - before.residentKB) / 1024))
        #expect(after.threads <= before.threads, "threads now: \(ProcessResources.threadNames())")
        // One descriptor more was seen twice in 12 parallel runs of the GstPipeElements tests (8 → 9, held
        // through the 10 s wait): something opened once, late, not per run. A descriptor leaked per run
        // would be 20 more.
        #expect(
            after.descriptors <= before.descriptors + ResourceTests.descriptorSlack,
            "before: \(descriptorsBefore); now: \(ProcessResources.descriptorTargets())")
        // Under sanitizers (quarantined or shadow memory) scripts/sanitize.sh turns the bound off.
        if ProcessInfo.processInfo.environment["GSTPIPE_NO_RSS_BOUND"] == nil {
            #expect(after.heapKB - before.heapKB <= ResourceTests.heapBoundKB)
            #expect(after.residentKB - before.residentKB <= ResourceTests.rssBoundKB)
        }
    }
}

extension Thread {
    /// Reads `handle` to its end on a thread of its own; the closure waits for and returns the text.
    static func detachedRead(_ handle: FileHandle) -> () -> String {
        let box = ReadBox()
        Thread.detachNewThread {
            box.data = handle.readDataToEndOfFile()
            box.done.signal()
        }
        return {
            box.done.wait()
            return String(decoding: box.data, as: UTF8.self)
        }
    }
}

/// `data` is written by the reading thread before `done` is signalled, and read only after waiting on it.
private final class ReadBox: @unchecked Sendable {
    var data = Data()
    let done = DispatchSemaphore(value: 0)
}
