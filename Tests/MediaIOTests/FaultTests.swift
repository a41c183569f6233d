import Foundation
import GStreamer
import MediaIO
import Testing

/// Faults in the middle of a stream: each run must end (no hang) with a clear error naming the element,
/// after exactly the frames that came before the fault, and with the lifecycle completed.
@Suite("Faults mid-stream end the run cleanly", .bounded)
struct FaultTests {
    let once = ["initialize", "start", "stop", "dispose"]

    @Test("A sink whose render throws at frame 4 ends the run with its message; frames 0-3 were rendered")
    func sinkRenderThrows() async throws {
        let error = try await runToEnd(
            "patternsrc tag=src-sinkfail frames=50 ! passthrough tag=filter-sinkfail "
                + "! recordingsink name=picky tag=sink-sinkfail fail-at=4 sync=false")
        let failure = try #require(error)
        #expect(failure.source == "picky")
        #expect(failure.message == "recording sink refused frame 4")
        let frames = RecordingSink.frames.withLock { $0["sink-sinkfail"] ?? [] }
        #expect(frames.count == 4)
        for (index, frame) in frames.enumerated() {
            let expected = (0..<3).flatMap { y in (0..<5).map { x in PatternSource.pixel(x: x, y: y, frame: index) } }
            #expect(frame.bytes == expected)
        }
        for tag in ["src-sinkfail", "filter-sinkfail", "sink-sinkfail"] {
            #expect(LifecycleLog.shared.calls(tag) == once, "\(tag)")
        }
    }

    @Test("A raw-data sink whose renderRawData throws gives the same error")
    func rawSinkRenderThrows() async throws {
        let error = try await runToEnd(
            "patternsrc frames=50 ! recordingsink name=rawpicky tag=sink-rawfail raw=true fail-at=2 sync=false")
        let failure = try #require(error)
        #expect(failure.source == "rawpicky")
        #expect(failure.message == "recording sink refused frame 2")
        #expect(RecordingSink.frames.withLock { $0["sink-rawfail"]?.count } == 2)
    }

    @Test("A source that reports an error through its consumer at frame 3 ends the run with that message")
    func sourceReportsError() async throws {
        let error = try await runToEnd(
            "patternsrc name=faulty tag=src-report frames=50 fail-at=3 ! recordingsink tag=sink-report sync=false")
        let failure = try #require(error)
        #expect(failure.source == "faulty")
        #expect(failure.message == "pattern source failed at frame 3")
        // The error stops the pipeline while frames may still be queued: at most the three before it arrive.
        let frames = RecordingSink.frames.withLock { $0["sink-report"] ?? [] }
        #expect(frames.count <= 3)
        #expect(frames.map(\.timestamp) == (0..<UInt64(frames.count)).map { $0 * 40_000_000 })
        #expect(LifecycleLog.shared.calls("src-report") == once)
        #expect(LifecycleLog.shared.calls("sink-report").last == "dispose")
    }

    @Test("An element downstream of Swift elements failing mid-stream ends the run naming it, after 19 frames")
    func downstreamElementFails() async throws {
        // identity error-after=20 fails on its 20th buffer with GStreamer's own error.
        let error = try await runToEnd(
            "patternsrc tag=src-downfail frames=100 ! passthrough tag=filter-downfail "
                + "! identity name=breaker error-after=20 ! recordingsink tag=sink-downfail sync=false")
        let failure = try #require(error)
        #expect(failure.source == "breaker")
        #expect(failure.message == "Failed after iterations as requested.")
        #expect(RecordingSink.frames.withLock { $0["sink-downfail"]?.count } == 19)
        for tag in ["src-downfail", "filter-downfail", "sink-downfail"] {
            #expect(LifecycleLog.shared.calls(tag) == once, "\(tag)")
        }
    }

    @Test(
        "After downstream fails, a Swift filter refuses frames instead of waiting for room: end of stream sent into it gets through"
    )
    func endOfStreamAfterDownstreamFails() async throws {
        // A fast source fills the filter's small queue once nothing drains it. Were the filter to wait
        // there for room, the streaming thread would hold the filter's sink pad for good, and end of
        // stream sent in afterwards (as gstpipe does to finish a file after an error) would never return.
        TestElements.register()
        let pipeline = try Pipeline(
            launch: "videotestsrc num-buffers=1000 ! video/x-raw,format=GRAY8,width=5,height=3 "
                + "! passthrough name=middle tag=filter-eosafter ! identity name=breaker error-after=3 ! fakesink")
        defer { pipeline.stop() }
        let input = try #require(pipeline.element(named: "middle")?.pad(named: "sink"))
        let messages = pipeline.messages
        try pipeline.play()
        var failure: GStreamerError?
        for await message in messages {
            if case .error(let error) = message {
                failure = error
                break
            }
        }
        #expect(failure?.source == "breaker")
        // Give the source time to fill the queue, as a loaded machine would before the application reacts.
        try await Task.sleep(for: .milliseconds(200))
        let sent = DispatchSemaphore(value: 0)
        Thread {
            _ = input.sendEndOfStream()
            sent.signal()
        }.start()
        #expect(sent.wait(timeout: .now() + 5) == .success, "end of stream into the filter still waits after 5 s")
    }

    @Test("A Swift filter with nothing downstream fails naming itself, not the appsrc inside it")
    func unlinkedFilter() async throws {
        let error = try await runToEnd("patternsrc frames=5 ! passthrough name=dangling")
        let failure = try #require(error)
        #expect(failure.source == "dangling")
        #expect(failure.message == "Internal data stream error.")
    }

    @Test("After an error, NULL and PLAYING again run the whole lifecycle again, in order, and fail the same way")
    func restartAfterError() async throws {
        TestElements.register()
        let pipeline = try Pipeline(
            launch: "patternsrc tag=src-refail frames=50 ! passthrough tag=filter-refail "
                + "! recordingsink name=again tag=sink-refail fail-at=2 sync=false")
        for attempt in 1...2 {
            await #expect(throws: GStreamerError.self, "attempt \(attempt)") { try await pipeline.run() }
        }
        for tag in ["src-refail", "filter-refail", "sink-refail"] {
            #expect(LifecycleLog.shared.calls(tag) == once + once, "\(tag)")
        }
        // The sink's frame count carries over, so the second run fails at once, on its first frame.
        #expect(RecordingSink.frames.withLock { $0["sink-refail"]?.count } == 2)
    }

    @Test("End of stream in one branch of a tee neither ends nor hangs the other: it gets every frame")
    func teeBranchEndsEarly() async throws {
        // The early branch's filter ends its output after 5 frames and drops the rest (returning OK
        // upstream); the run ends when the full branch reaches its own end of stream.
        let error = try await runToEnd(
            "patternsrc frames=40 ! tee name=t "
                + "t. ! queue ! passthrough ! recordingsink tag=tee-full sync=false "
                + "t. ! queue ! passthrough eos-after=5 ! recordingsink tag=tee-early sync=false")
        #expect(error == nil)
        let full = RecordingSink.frames.withLock { $0["tee-full"] ?? [] }
        #expect(full.count == 40)
        #expect(full.map(\.timestamp) == (0..<40).map { UInt64($0) * 40_000_000 })
        #expect(
            full.last?.bytes == (0..<3).flatMap { y in (0..<5).map { x in PatternSource.pixel(x: x, y: y, frame: 39) } }
        )
        #expect(RecordingSink.frames.withLock { $0["tee-early"]?.count } == 5)
        #expect(LifecycleLog.shared.calls("tee-early") == once)
    }
}
