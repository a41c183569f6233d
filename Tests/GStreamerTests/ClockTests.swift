import Testing

@testable import GStreamer

/// Clocks, base time and running time, on real
/// pipelines and GStreamer's system clock. Times are generous at the top (a loaded 2-core CI machine
/// delays wake-ups), strict at the bottom (a wait never ends early).
@Suite("Clock: running time, async waits, periodic ticks, a pipeline's clock", .bounded)
struct ClockTests {
    static let millisecond: ClockTime = 1_000_000

    @Test("Running time grows with the clock while PLAYING, and resumes where it stopped after PAUSED")
    func runningTime() async throws {
        let pipeline = try Pipeline(launch: "videotestsrc is-live=true ! fakesink sync=true")
        defer { pipeline.stop() }
        #expect(pipeline.currentRunningTime == nil, "no clock before PLAYING")
        _ = try await pipeline.changeState(to: .playing, timeout: 10_000_000_000)
        let clock = try #require(pipeline.clock)
        #expect(pipeline.baseTime > 0 && pipeline.baseTime <= clock.time)
        let first = try #require(pipeline.currentRunningTime)
        try await Task.sleep(for: .milliseconds(300))
        let second = try #require(pipeline.currentRunningTime)
        #expect(second - first >= 300 * Self.millisecond, "running time grew by \(second - first) ns in 300 ms")

        _ = try await pipeline.changeState(to: .paused, timeout: 10_000_000_000)
        let pausedAt = try #require(pipeline.startTime, "no start time recorded at PAUSED")
        #expect(pausedAt >= second)
        try await Task.sleep(for: .milliseconds(500))
        #expect(pipeline.startTime == pausedAt, "the start time moved while PAUSED")

        let resuming = ContinuousClock.now
        _ = try await pipeline.changeState(to: .playing, timeout: 10_000_000_000)
        let resumed = try #require(pipeline.currentRunningTime)
        let resumeTook = nanoseconds(ContinuousClock.now - resuming)
        // The 500 ms spent PAUSED are not counted (the base time moved forward by them): running time
        // went on from where it stopped by no more than the time the resume itself took.
        #expect(resumed >= pausedAt)
        #expect(
            resumed <= pausedAt + resumeTook + 20 * Self.millisecond,
            "running time jumped from \(pausedAt) to \(resumed) in a resume of \(resumeTook) ns")
    }

    @Test("An async wait for +50 ms returns .ok after at least 50 ms, on the clock and by wall time")
    func singleShot() async throws {
        let clock = try Clock.system()
        let start = ContinuousClock.now
        let target = clock.time + 50 * Self.millisecond
        let id = clock.singleShot(at: target)
        #expect(id.time == target)
        #expect(await id.wait() == .ok)
        #expect(clock.time >= target)
        #expect(ContinuousClock.now - start >= .milliseconds(50))
        // An id is awaited once.
        #expect(await id.wait() == .busy)
        #expect(await clock.sleep(for: .milliseconds(10)) == .ok)
    }

    @Test("Cancelling the awaiting task unschedules the wait; so does unschedule()")
    func cancellation() async throws {
        let clock = try Clock.system()
        let id = clock.singleShot(at: clock.time + 60_000 * Self.millisecond)
        let start = ContinuousClock.now
        let task = Task { await id.wait() }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        #expect(await task.value == .unscheduled)
        #expect(ContinuousClock.now - start < .seconds(30), "the wait ran to its time instead")
        // Unscheduled for good: a later wait on it does not start.
        let other = clock.singleShot(at: clock.time + 60_000 * Self.millisecond)
        let waiting = Task { await other.wait() }
        try await Task.sleep(for: .milliseconds(100))
        other.unschedule()
        #expect(await waiting.value == .unscheduled)
    }

    @Test(
        "A wait on an id unscheduled before it, in an already-cancelled task, at no time: each answered, each waiter freed once (ASan)"
    )
    func waitsThatNeverStart() async throws {
        let clock = try Clock.system()
        // GStreamer keeps the waiter in an unscheduled id and frees it with the id.
        for _ in 0..<20 {
            let id = clock.singleShot(at: clock.time + 60_000 * Self.millisecond)
            id.unschedule()
            #expect(await id.wait() == .unscheduled)
        }
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await clock.sleep(for: .seconds(60))
        }
        #expect(await cancelled.value == .unscheduled)
        // GStreamer's "none" as a time is a wait that never comes, not a trap.
        let never = clock.singleShot(at: .max)
        let waiting = Task { await never.wait() }
        try await Task.sleep(for: .milliseconds(100))
        never.unschedule()
        #expect(await waiting.value == .unscheduled)
        // A duration past the clock's range does not wrap into the past.
        let long = Task { await clock.sleep(for: .seconds(Int64.max)) }
        try await Task.sleep(for: .milliseconds(100))
        long.cancel()
        #expect(await long.value == .unscheduled)
    }

    @Test("A periodic id ticks every interval, at exact clock times, until the reader stops")
    func periodic() async throws {
        let clock = try Clock.system()
        let interval = 20 * Self.millisecond
        let start = clock.time + interval
        let id = try clock.periodic(start: start, interval: interval)
        var ticks: [ClockTime] = []
        for await tick in id.ticks() {
            ticks.append(tick)
            if ticks.count == 5 { break }
        }
        #expect(ticks.count == 5)
        // Ticks the reader was too slow for are dropped, so each step is a whole number of intervals.
        #expect(ticks.first.map { $0 >= start } == true)
        for (earlier, later) in zip(ticks, ticks.dropFirst()) {
            #expect(later > earlier && (later - earlier) % interval == 0, "\(ticks)")
        }
        #expect(clock.time >= ticks[4])
        #expect(throws: GStreamerError.self) { try clock.periodic(start: start, interval: 0) }
    }

    @Test("useClock(_:) sets the pipeline's clock; useClock(nil) runs a synchronized pipeline as fast as it can")
    func useClock() async throws {
        let system = try Clock.system()
        // 50 frames at 1 per second: 50 s when synchronized to a clock (at 5 per second, 10 s, a machine
        // loaded by parallel builds took 8.2 s to run them unclocked).
        let description =
            "videotestsrc num-buffers=50 ! video/x-raw,framerate=1/1,width=64,height=48 ! fakesink sync=true"
        let chosen = try Pipeline(launch: description)
        chosen.useClock(system)
        #expect(chosen.pipelineClock.isSame(as: system))
        _ = try await chosen.changeState(to: .playing, timeout: 10_000_000_000)
        #expect(chosen.clock?.isSame(as: system) == true)
        _ = try await chosen.changeState(to: .null)

        let unclocked = try Pipeline(launch: description)
        unclocked.useClock(nil)
        let start = ContinuousClock.now
        try await unclocked.run()
        #expect(ContinuousClock.now - start < .seconds(25), "took \(ContinuousClock.now - start): it waited on a clock")
        #expect(unclocked.clock == nil)
    }
}
