import Foundation
import GStreamer
import MediaIO
import Synchronization
import Testing

/// `audiopulled` is `audiopattern` registered with `pulled: true`: a plain element that calls
/// `produceAudio` on its own pad's task, with no appsrc. It must give what the appsrc-based one gives.
@Suite("A pulled audio source (own pad and task, no appsrc) behaves as the appsrc-based one", .bounded)
struct PulledSourceTests {
    @Test("The same samples, buffers and timestamps as through an appsrc: 1-sample pushes cut into 441-sample buffers")
    func sameOutput() async throws {
        let tail = "channels=2 rate=44100 samples=4500 push=1 per-buffer=441"
        let viaAppsrc = try await record(
            "audiopattern \(tail) ! audiorecord tag=via-appsrc sync=false", tag: "via-appsrc")
        let pulled = try await record("audiopulled \(tail) ! audiorecord tag=pulled sync=false", tag: "pulled")
        #expect(pulled.map { $0.samples.count / 2 } == Array(repeating: 441, count: 10) + [90])
        #expect(pulled.map(\.timestamp) == (0..<11).map { UInt64($0) * 10_000_000 })
        #expect(pulled.map(\.samples) == viaAppsrc.map(\.samples))
        #expect(pulled.map(\.timestamp) == viaAppsrc.map(\.timestamp))
        #expect(pulled.map(\.duration) == viaAppsrc.map(\.duration))
    }

    @Test("Lifecycle: initialize, start, stop, dispose, once each; and again for a second run of the same pipeline")
    func lifecycle() async throws {
        AudioTestElements.register()
        let pipeline = try Pipeline(
            launch: "audiopulled tag=pulled-life samples=960 ! audiorecord tag=pulled-life-sink sync=false")
        try await pipeline.run()
        #expect(LifecycleLog.shared.calls("pulled-life") == ["initialize", "start", "stop", "dispose"])
        AudioRecordingSink.records.withLock { $0["pulled-life-sink"] = [] }
        try await pipeline.run()
        #expect(
            LifecycleLog.shared.calls("pulled-life")
                == Array(repeating: ["initialize", "start", "stop", "dispose"], count: 2).flatMap { $0 })
        // The second run is a new stream from the start: timestamps from 0 again, every sample there.
        let second = AudioRecordingSink.records.withLock { $0["pulled-life-sink"] ?? [] }
        #expect(second.first?.timestamp == 0)
        #expect(second.reduce(0) { $0 + $1.samples.count / 2 } == 960)
    }

    @Test("Not live and not seekable, as an appsrc in stream mode: latency answered, seeks refused")
    func queries() async throws {
        AudioTestElements.register()
        let pipeline = try Pipeline(launch: "audiopulled name=src samples=480000 ! fakesink sync=true")
        try pipeline.pause()
        _ = pipeline.state(timeout: 5_000_000_000)
        let pad = try #require(pipeline.element(named: "src")?.pad(named: "src"))
        let latency = Query.latency()
        #expect(pad.query(latency))
        #expect(latency.latency?.live == false)
        #expect(latency.latency?.minimum == 0)
        let seeking = Query.seeking()
        #expect(pad.query(seeking))
        #expect(seeking.seeking?.seekable == false)
        #expect(pipeline.seek(to: 1_000_000_000) == false)
        pipeline.stop()
    }

    @Test("End of stream sent to the pipeline (gstpipe's Ctrl-C) leaves the source's pad: the run ends early, whole")
    func endOfStreamSent() async throws {
        AudioTestElements.register()
        // 30 s of sound, played in real time: without the end of stream the run would last them all.
        let pipeline = try Pipeline(
            launch: "audiopulled tag=pulled-eos channels=2 rate=44100 samples=1323000 per-buffer=441 ! "
                + "audiorecord tag=pulled-eos-sink sync=true")
        let run = Task { try await pipeline.run() }
        try await Task.sleep(for: .milliseconds(500))
        // GstElement's own handler drops a downstream event for an element without a sink pad.
        #expect(pipeline.sendEndOfStream())
        let sent = ContinuousClock.now
        try await run.value
        // Without the end of stream the run would last 29.5 s more. Ended early is told by the samples
        // below, not by the clock: a machine loaded by parallel builds took from 6 to 21 s to end it.
        #expect(ContinuousClock.now - sent < .seconds(60))
        let buffers = AudioRecordingSink.records.withLock { $0["pulled-eos-sink"] ?? [] }
        let samples = buffers.reduce(0) { $0 + $1.samples.count / 2 }
        #expect(samples > 0 && samples < 1_323_000, "\(samples) samples")
        // Whole buffers, in order: the end of stream went after the buffer being pushed.
        #expect(buffers.map(\.timestamp) == (0..<buffers.count).map { UInt64($0) * 10_000_000 })
    }

    @Test("An unlinked source pad stops the run with an error from the source")
    func notLinked() async throws {
        AudioTestElements.register()
        var failure: GStreamerError?
        do {
            try await Pipeline(launch: "audiopulled name=lonely samples=4800").run()
        } catch {
            failure = error
        }
        let error = try #require(failure)
        #expect(error.source == "lonely")
        #expect(error.message == "Internal data stream error.")
    }
}
