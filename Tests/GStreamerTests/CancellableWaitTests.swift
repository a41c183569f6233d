import Foundation
import GStreamer
import GstPipeSupport
import Synchronization
import Testing

/// Waits that async code starts must end when its task is cancelled and give their thread back, and
/// nothing that waits for GStreamer may hold a thread of Swift's cooperative pool (one per core).
@Suite("Cancellable waits, and no blocking on the cooperative pool", .bounded)
struct CancellableWaitTests {
    /// Threads of this process now.
    static var threadCount: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    /// Waits until `condition` holds or `seconds` pass; whether it held.
    static func eventually(seconds: Double, _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    @Test("200 cancelled nextSample waits return at once with nil, and their threads go", .timeLimit(.minutes(1)))
    func cancelledSampleWaits() async throws {
        let pipeline = try Pipeline(launch: "appsrc name=src format=time ! appsink name=sink")
        try pipeline.play()
        let sink = try pipeline.appSink(named: "sink")
        let before = Self.threadCount
        let waits = (0..<200).map { _ in Task { await sink.nextSample() } }
        // Each wait is under way once it has had a moment (how many threads that takes depends on what the
        // rest of the process is doing: the library's tests run side by side).
        try await Task.sleep(for: .milliseconds(500))
        let cancelled = ContinuousClock.now
        for wait in waits { wait.cancel() }
        var results: [Sample?] = []
        for wait in waits { results.append(await wait.value) }
        #expect(results.allSatisfy { $0 == nil })
        // Uncancelled, these waits never end (no timeout). Typically they all end within a second; with the
        // library's suites side by side and two cores at load 13, 200 threads waking took up to 11 s.
        #expect(cancelled.duration(to: .now) < .seconds(20), "\(cancelled.duration(to: .now))")
        // GLib keeps a few idle threads for reuse, and the tests beside this one start and end their own;
        // 200 waits left holding threads would be far more.
        #expect(
            try await Self.eventually(seconds: 20) { Self.threadCount <= before + 40 },
            "\(before) → \(Self.threadCount)")
        // The appsink still works for a waiter that was not cancelled.
        let source = try pipeline.appSrc(named: "src")
        source.caps = try Caps("application/x-test")
        let buffer = try [UInt8](repeating: 7, count: 4).withUnsafeBytes { try Buffer(copying: $0) }
        await #expect(source.push(buffer) == .ok)
        let sample = await sink.nextSample(timeout: .seconds(10))
        #expect(sample?.buffer?.size == 4)
        await #expect(sink.nextSample(timeout: .milliseconds(50)) == nil)
        try await pipeline.changeState(to: .null)
    }

    @Test(
        "Cancelled discoveries end at once with an error; those waiting for their turn are dropped",
        .timeLimit(.minutes(1)))
    func cancelledDiscoveries() async throws {
        // A FIFO with a writer that never writes: the discovery under way waits for data until its timeout.
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("discover-\(UUID()).fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let writer = open(fifo, O_RDWR)
        #expect(writer >= 0)
        defer { close(writer) }
        let discoverer = try Discoverer(timeout: .seconds(3))
        let waits = (0..<20).map { _ in
            Task { () -> String in
                do {
                    _ = try await discoverer.discover(uri: "file://" + fifo)
                    return "answered"
                } catch {
                    return (error as? GStreamerError)?.message ?? "\(error)"
                }
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        let cancelled = ContinuousClock.now
        for wait in waits { wait.cancel() }
        var messages: [String] = []
        for wait in waits { messages.append(await wait.value) }
        // Each waiting its turn behind a 3 s timeout would take a minute; a loaded run took 3.1 s to end them.
        #expect(cancelled.duration(to: .now) < .seconds(15), "\(cancelled.duration(to: .now))")
        #expect(messages == Array(repeating: "the discovery was cancelled", count: 20))
    }

    /// More runs than the cooperative pool has threads, each held while it stops until all are stopping:
    /// stopped on the pool (as run() did), the last ones could not start until the first gave up.
    @Test("Runs ending together stop their pipelines off the cooperative pool", .timeLimit(.minutes(1)))
    func runsStopOffThePool() async throws {
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let stopping = Locked((now: 0, most: 0))
        var pipelines: [Pipeline] = []
        for _ in 0..<count {
            let pipeline = try Pipeline(launch: "videotestsrc num-buffers=1 ! fakesink")
            let name = pipeline.name
            pipeline.setSyncHandler { posted in
                // Posted on the thread that stops the pipeline.
                guard case .stateChanged(name?, .paused, .ready, _) = posted.message else { return .pass }
                stopping.withLock {
                    $0.now += 1
                    $0.most = max($0.most, $0.now)
                }
                let deadline = ContinuousClock.now + .seconds(5)
                while stopping.withLock({ $0.most }) < count && ContinuousClock.now < deadline { usleep(1000) }
                return .pass
            }
            pipelines.append(pipeline)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for pipeline in pipelines { group.addTask { try await pipeline.run() } }
            try await group.waitForAll()
        }
        #expect(stopping.withLock { $0.most } == count)
        for pipeline in pipelines { #expect(pipeline.state().current == .null) }
    }
}
