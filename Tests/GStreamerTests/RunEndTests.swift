import CGStreamer
import GstPipeSupport
import Synchronization
import Testing

@testable import GStreamer

@Suite("Runs that end before end of stream", .bounded)
struct RunEndTests {
    @Test("run() throws when its messages end without end of stream or an error (its task cancelled)")
    func runCancelled() async throws {
        let pipeline = try Pipeline(launch: "videotestsrc is-live=true ! fakesink")
        let run = Task { try await pipeline.run() }
        // Wait until it plays, then cancel the run's task: before, run() returned as if the stream had ended.
        for _ in 0..<200 where pipeline.state().current != .playing {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(pipeline.state().current == .playing)
        run.cancel()
        let result = await run.result
        guard case .failure(let error as GStreamerError) = result else {
            Issue.record("run() reported success without end of stream: \(result)")
            return
        }
        #expect(error.message == "the run was cancelled before end of stream")
        #expect(pipeline.state().current == .null)
    }

    @Test("An appsink's samples end when the pipeline is stopped before end of stream", .timeLimit(.minutes(1)))
    func samplesEndAtStop() async throws {
        let pipeline = try Pipeline(
            launch: "videotestsrc is-live=true ! video/x-raw,width=32,height=24 ! appsink name=out")
        let samples = try pipeline.samples(fromAppSink: "out", capacity: 2)
        try pipeline.play()
        var count = 0
        for try await sample in samples {
            #expect(sample.caps?.int("width") == 32)
            count += 1
            if count == 3 { pipeline.stop() }
        }
        #expect(count >= 3)
        #expect(count <= 5)
    }

    @Test("An appsink's samples throw the error that stopped the run before end of stream", .timeLimit(.minutes(1)))
    func samplesThrowError() async throws {
        let pipeline = try Pipeline(
            launch:
                "videotestsrc ! video/x-raw,width=32,height=24 ! identity name=breaker error-after=4 ! appsink name=out"
        )
        defer { pipeline.stop() }
        let samples = try pipeline.samples(fromAppSink: "out", capacity: 8)
        try pipeline.play()
        var count = 0
        do {
            for try await _ in samples { count += 1 }
            Issue.record("the samples ended without the error")
        } catch {
            #expect(error.source == "breaker")
            #expect(error.kind == .runtime)
        }
        // identity passes three buffers and fails on the fourth; those three come first.
        #expect(count == 3)
    }

    @Test("An appsink's samples of a pipeline that failed already end with that error", .timeLimit(.minutes(1)))
    func samplesAfterFailure() async throws {
        let pipeline = try Pipeline(launch: "filesrc name=reader location=/nonexistent/file ! appsink name=out")
        defer { pipeline.stop() }
        #expect(throws: GStreamerError.self) { try pipeline.play() }
        let samples = try pipeline.samples(fromAppSink: "out")
        await #expect(throws: GStreamerError.self) {
            for try await _ in samples {}
        }
    }

    @Test("The last reference to a pipeline dropped on its streaming thread brings it to NULL from another thread")
    func deinitOnStreamingThread() async throws {
        let holder = Locked<Pipeline?>(nil)
        let streamingThread = Locked<pthread_t?>(nil)
        // Whether the pipeline went down to READY on the streaming thread that dropped it (GStreamer then
        // prints "Trying to join task ... from its thread would deadlock" and leaves the task unjoined).
        let stoppedOnStreamingThread = Locked<Bool?>(nil)
        // Keeps the GstPipeline itself alive, to watch its state after the Pipeline wrapper is gone.
        let (element, sinkPad): (Element, Pad) = try {
            let pipeline = try Pipeline(launch: "videotestsrc is-live=true ! fakesink name=sink")
            let element = Element.wrap(pipeline.pointer, owned: false)
            let pad = try #require(pipeline.element(named: "sink")?.pad(named: "sink"))
            let name = pipeline.name
            pipeline.setSyncHandler { posted in
                if case .stateChanged(name, .paused, .ready, _) = posted.message {
                    let onStreamingThread = streamingThread.withLock {
                        $0.map { pthread_equal($0, pthread_self()) != 0 }
                    }
                    stoppedOnStreamingThread.withLock { $0 = onStreamingThread ?? false }
                }
                return .pass
            }
            holder.withLock { $0 = pipeline }
            try pipeline.play()
            return (element, pad)
        }()
        sinkPad.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { _, _ in
            // The streaming thread drops the only Pipeline: its deinit runs here.
            let last = holder.withLock { held in
                defer { held = nil }
                return held
            }
            if last != nil { streamingThread.withLock { $0 = pthread_self() } }
            _ = consume last
            return GST_PAD_PROBE_OK
        }
        for _ in 0..<500 where stoppedOnStreamingThread.withLock({ $0 }) == nil {
            try await Task.sleep(for: .milliseconds(10))
        }
        let stopped = stoppedOnStreamingThread.withLock { $0 }
        #expect(stopped == false)
        #expect(element.state(timeout: 5_000_000_000).current == .null)
    }
}
