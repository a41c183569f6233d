import Dispatch
import GStreamer
import GstPipeSupport
import Testing

/// Waits that used to block a thread of Swift's cooperative pool. The pool has one
/// thread per core, two on the CI machine: with `pullSample()` and `setState(_:timeout:)` in the tasks
/// below (the only way before `nextSample` and `changeState`), the first two waits took both threads,
/// the feeding task never ran and `manyWaitsAtOnce` waited out its 30 s timeouts and failed; releasing a
/// running pipeline blocked in `deinit` until its streaming thread let go (`releaseReturnsAtOnce`).
@Suite("Awaited waits hold no thread of Swift's pool", .bounded)
struct AsyncWaitTests {
    static let waitersPerKind = 12

    /// How many waits are under way, shared by the tasks.
    final class Counter: Sendable {
        let value = Locked(0)
    }

    /// `appsrc ! sink` that stays waiting until a buffer is pushed into `src`.
    static func fedByHand(_ sink: String) throws -> (Pipeline, AppSrc) {
        let pipeline = try Pipeline(launch: "appsrc name=src format=time caps=application/x-test ! \(sink)")
        return (pipeline, try pipeline.appSrc(named: "src"))
    }

    @Test("12 sample pulls and 12 state changes awaited at once, all fed by one more task, all finish")
    func manyWaitsAtOnce() async throws {
        let pulls = try (0..<Self.waitersPerKind).map { _ in try Self.fedByHand("appsink name=sink sync=false") }
        let prerolls = try (0..<Self.waitersPerKind).map { _ in try Self.fedByHand("fakesink") }
        let sinks = try pulls.map { try $0.0.appSink(named: "sink") }
        for (pipeline, _) in pulls { try pipeline.play() }
        let waiting = Counter()
        let outcomes = await withTaskGroup(of: String?.self) { group in
            for (index, sink) in sinks.enumerated() {
                group.addTask {
                    waiting.value.withLock { $0 += 1 }
                    return await sink.nextSample(timeout: .seconds(30)) == nil ? "pull \(index) got nothing" : nil
                }
            }
            for (index, (pipeline, _)) in prerolls.enumerated() {
                group.addTask {
                    waiting.value.withLock { $0 += 1 }
                    let result = try? await pipeline.changeState(to: .paused, timeout: 30_000_000_000)
                    return result == .success ? nil : "preroll \(index): \(String(describing: result))"
                }
            }
            // Feeds every pipeline once all the waits are under way; a blocked pool would never run it.
            group.addTask {
                while waiting.value.withLock({ $0 }) < 2 * Self.waitersPerKind {
                    try? await Task.sleep(for: .milliseconds(10))
                }
                try? await Task.sleep(for: .milliseconds(100))
                for (_, source) in pulls + prerolls {
                    guard let buffer = try? Buffer(size: 16), await source.push(buffer) == .ok else {
                        return "push refused"
                    }
                }
                return nil
            }
            var failures: [String] = []
            for await outcome in group { if let outcome { failures.append(outcome) } }
            return failures
        }
        #expect(outcomes.isEmpty, "\(outcomes)")
        for (pipeline, _) in pulls + prerolls {
            #expect(pipeline.state().current >= .paused)
            try await pipeline.changeState(to: .null)
        }
    }

    @Test("Releasing a running pipeline whose streaming thread is busy returns at once; it still reaches NULL")
    func releaseReturnsAtOnce() async throws {
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let blocked = Locked(false)
        var pipeline: Pipeline? = try Pipeline(launch: "videotestsrc name=src ! fakesink sync=false")
        let pad = try #require(pipeline?.element(named: "src")?.pad(named: "src"))
        pad.addProbe(.buffer) { _ in
            // Holds the streaming thread once, as slow work in a probe or a Swift element would.
            let first = blocked.withLock { wasBlocked in
                defer { wasBlocked = true }
                return !wasBlocked
            }
            guard first else { return .ok }
            entered.signal()
            _ = gate.wait(timeout: .now() + 5)
            return .ok
        }
        let messages = try #require(pipeline?.messages)
        try pipeline?.play()
        #expect(entered.wait(timeout: .now() + 10) == .success)
        let start = ContinuousClock.now
        pipeline = nil
        let release = start.duration(to: .now)
        gate.signal()
        // The messages end when the pipeline, brought to NULL on another thread, detaches its bus.
        let stopped = ContinuousClock.now
        for await _ in messages {}
        #expect(release < .seconds(1), "releasing took \(release)")
        // Seconds, where the pipeline would otherwise never stop: a machine loaded by a parallel build took
        // 14.7 s here once.
        #expect(stopped.duration(to: .now) < .seconds(30))
    }
}
