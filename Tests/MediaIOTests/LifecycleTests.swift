import MediaIO
import Testing

@Suite("MediaIO lifecycle follows GStreamer state changes", .bounded)
struct LifecycleTests {
    @Test("A run to end of stream: initialize, start, stop, dispose, once each, for source, filter and sink")
    func runToEndOfStream() async throws {
        let error = try await runToEnd(
            "patternsrc tag=src-eos frames=3 ! passthrough tag=filter-eos ! recordingsink tag=sink-eos")
        #expect(error == nil)
        for tag in ["src-eos", "filter-eos", "sink-eos"] {
            #expect(LifecycleLog.shared.calls(tag) == ["initialize", "start", "stop", "dispose"], "\(tag)")
        }
        #expect(RecordingSink.frames.withLock { $0["sink-eos"]?.count } == 3)
    }

    @Test("PAUSED only: data starts the source and filter, the sink prerolls without starting; NULL stops and disposes")
    func pausedOnly() throws {
        TestElements.register()
        let pipeline = try Pipeline(
            launch:
                "patternsrc tag=src-paused frames=100 ! passthrough tag=filter-paused ! recordingsink tag=sink-paused")
        try pipeline.pause()
        #expect(pipeline.state(timeout: 5_000_000_000).current == .paused)
        pipeline.stop()
        #expect(LifecycleLog.shared.calls("src-paused") == ["initialize", "start", "stop", "dispose"])
        #expect(LifecycleLog.shared.calls("filter-paused") == ["initialize", "start", "stop", "dispose"])
        // A sink renders in PLAYING only (a preroll frame is rendered once playing starts).
        #expect(LifecycleLog.shared.calls("sink-paused") == ["initialize", "dispose"])
    }

    @Test("NULL and back to PLAYING calls the whole lifecycle again, in order")
    func restart() async throws {
        TestElements.register()
        let pipeline = try Pipeline(
            launch: "patternsrc tag=src-again frames=2 ! passthrough tag=filter-again ! recordingsink tag=sink-again")
        try await pipeline.run()
        try await pipeline.run()
        let once = ["initialize", "start", "stop", "dispose"]
        for tag in ["src-again", "filter-again", "sink-again"] {
            #expect(LifecycleLog.shared.calls(tag) == once + once, "\(tag)")
        }
        #expect(RecordingSink.frames.withLock { $0["sink-again"]?.count } == 4)
    }

    @Test("PLAYING, PAUSED, PLAYING: stop and start again around the pause")
    func pauseAndResume() async throws {
        TestElements.register()
        let pipeline = try Pipeline(
            launch:
                "patternsrc tag=src-pause frames=1000000 ! passthrough tag=filter-pause ! recordingsink tag=sink-pause")
        try pipeline.play()
        #expect(pipeline.state(timeout: 5_000_000_000).current == .playing)
        try pipeline.pause()
        #expect(pipeline.state(timeout: 5_000_000_000).current == .paused)
        try pipeline.play()
        #expect(pipeline.state(timeout: 5_000_000_000).current == .playing)
        pipeline.stop()
        #expect(LifecycleLog.shared.calls("sink-pause") == ["initialize", "start", "stop", "start", "stop", "dispose"])
        #expect(LifecycleLog.shared.calls("filter-pause").first == "initialize")
        #expect(LifecycleLog.shared.calls("filter-pause").last == "dispose")
    }
}

@Suite("MediaIO failures are clear errors", .bounded)
struct FailureTests {
    @Test("shouldInitialize returning false fails the state change with a message naming the element")
    func refusedInitialize() async throws {
        let error = try await runToEnd("patternsrc name=picky refuse=true ! recordingsink tag=refused")
        let failure = try #require(error)
        #expect(failure.source == "picky")
        #expect(failure.message.contains("shouldInitialize(consumer:) returned false"))
    }

    @Test("render throwing stops the pipeline with the error, naming the element")
    func renderThrows() async throws {
        let error = try await runToEnd("patternsrc frames=10 ! passthrough name=broken fail=true ! recordingsink")
        let failure = try #require(error)
        #expect(failure.source == "broken")
        #expect(failure.message == "render failed on purpose")
    }

    @Test("A shouldStop that waits for the streaming thread gets its frame: buffers never wait on lifecycle code")
    func stopWaitingForStreamingThread() async throws {
        TestElements.register()
        let pipeline = try Pipeline(
            // A live source, 100 small frames a second: the pipeline leaves the CPU to the tests
            // beside it, and keeps producing while the filter's stop waits (the source stops last).
            launch: "videotestsrc is-live=true ! video/x-raw,format=GRAY8,width=64,height=48,framerate=100/1 "
                + "! passthrough tag=filter-wait stop-waits=true ! queue ! fakesink sync=false")
        try pipeline.play()
        // In PLAYING (a loaded machine may take a while), so the pause is the stop, with data flowing.
        #expect(pipeline.state(timeout: 10_000_000_000).current == .playing)
        try await Task.sleep(for: .milliseconds(100))
        try pipeline.pause()
        pipeline.stop()
        #expect(
            LifecycleLog.shared.calls("filter-wait").contains("stop-saw-a-frame"),
            "\(LifecycleLog.shared.calls("filter-wait"))")
        #expect(
            LifecycleLog.shared.calls("filter-wait").filter { !$0.hasPrefix("stop-") || $0 == "stop" }
                == ["initialize", "start", "stop", "dispose"])
    }
}
