import Foundation
import GStreamer
import GstPipeSupport
import Synchronization
import Testing

@Suite(
    "Queries a pipeline asks while it starts: latency, caps, allocation, buffering; asked and answered in probes",
    .bounded)
struct NegotiationQueryTests {
    @Test(
        "A live source behind a queue: a frame plus the sink's 20 ms deadline; a probe's answer becomes the pipeline's")
    func latency() throws {
        let pipeline = try Pipeline(
            launch: "videotestsrc name=src is-live=true ! video/x-raw,framerate=10/1,width=32,height=24 "
                + "! queue name=queue ! fakesink name=sink sync=true")
        try pipeline.play()
        _ = pipeline.state(timeout: 5_000_000_000)
        let query = Query.latency()
        #expect(pipeline.query(query))
        let answer = try #require(query.latency)
        #expect(answer.live)
        // One frame at 10/1 from the source, and the sink's processing-deadline (20 ms by default).
        #expect(answer.minimum == 120_000_000)
        let upstream = Query.latency()
        #expect(try #require(pipeline.element(named: "sink")?.pad(named: "sink")).peerQuery(upstream))
        #expect(upstream.latency?.live == true)
        #expect(upstream.latency?.minimum == 100_000_000)
        // The wrong kind of answer is refused.
        #expect(!Query.position().setLatency(live: true, minimum: 1, maximum: nil))
        pipeline.stop()

        // Answered in a probe on the queue's source pad, before the queue sees it: 250 ms, no bound (and the
        // sink adds its 20 ms).
        let answered = try Pipeline(
            launch: "videotestsrc is-live=true ! video/x-raw,framerate=10/1,width=32,height=24 "
                + "! queue name=queue ! fakesink name=sink sync=true")
        let queuePad = try #require(answered.element(named: "queue")?.pad(named: "src"))
        queuePad.addProbe(.queryUpstream) { info in
            guard let query = info.query, query.latency != nil else { return .ok }
            return query.setLatency(live: true, minimum: 250_000_000, maximum: nil) ? .handled : .ok
        }
        try answered.play()
        _ = answered.state(timeout: 5_000_000_000)
        let asked = Query.latency()
        #expect(answered.query(asked))
        #expect(asked.latency?.live == true)
        #expect(asked.latency?.minimum == 270_000_000)
        #expect(asked.latency?.maximum == nil)
        answered.stop()
    }

    @Test("A caps query with a filter gets GRAY8 alone; a probe's caps answer makes the source negotiate 64x48 GRAY8")
    func caps() async throws {
        let pipeline = try Pipeline(launch: "videotestsrc name=src num-buffers=2 ! fakesink name=sink")
        let sourcePad = try #require(pipeline.element(named: "src")?.pad(named: "src"))
        let filter = try Caps("video/x-raw,format=GRAY8")
        let query = Query.caps(filter: filter)
        #expect(query.capsFilter?.description == "video/x-raw, format=(string)GRAY8")
        #expect(query.capsResult == nil)
        #expect(sourcePad.query(query))
        let result = try #require(query.capsResult)
        #expect(!result.isEmpty)
        #expect(
            result.structures.allSatisfy { $0.name == "video/x-raw" && $0.string("format") == "GRAY8" }, "\(result)")

        let sinkPad = try #require(pipeline.element(named: "sink")?.pad(named: "sink"))
        let only = try Caps("video/x-raw,format=GRAY8,width=64,height=48,framerate=5/1")
        sinkPad.addProbe(.queryDownstream) { info in
            guard let query = info.query, query.capsFilter != nil || query.typeName == "caps" else { return .ok }
            return query.setCapsResult(only) ? .handled : .ok
        }
        let negotiated = Locked<Caps?>(nil)
        sinkPad.addProbe(.eventDownstream) { info in
            if let caps = info.event?.caps { negotiated.withLock { $0 = caps } }
            return .ok
        }
        try await pipeline.run()
        let caps = try #require(negotiated.withLock { $0 })
        #expect(caps.string("format") == "GRAY8")
        #expect(caps.int("width") == 64 && caps.int("height") == 48)
        #expect(caps.fraction("framerate")?.numerator == 5 && caps.fraction("framerate")?.denominator == 1, "\(caps)")
    }

    @Test("videoconvert answers the source's allocation query with a video pool of one I420 frame and the video meta")
    func allocation() async throws {
        let pipeline = try Pipeline(
            launch: "videotestsrc num-buffers=3 ! video/x-raw,format=I420,width=320,height=240 "
                + "! videoconvert name=convert ! video/x-raw,format=RGBA ! fakesink")
        // A query probe is called again once the query is answered (with `.pull`): the answer the source got.
        // Asking the pad from here instead would wait for the streaming thread (allocation is serialized).
        let answers = Locked<[(needPool: Bool, pools: [Query.AllocationPool], metas: [String])]>([])
        let convertSink = try #require(pipeline.element(named: "convert")?.pad(named: "sink"))
        convertSink.addProbe(.queryDownstream) { info in
            if info.type.contains(.pull), let query = info.query, let question = query.allocation {
                answers.withLock { $0.append((question.needPool, query.allocationPools, query.allocationMetas)) }
            }
            return .ok
        }
        try await pipeline.run()
        let answer = try #require(answers.withLock { $0.first })
        #expect(answer.needPool)
        let pool = try #require(answer.pools.first)
        #expect(pool.typeName == "GstVideoBufferPool")
        #expect(pool.size == 320 * 240 * 3 / 2)
        #expect(answer.metas.contains("GstVideoMetaAPI"), "\(answer.metas)")
    }

    @Test("A probe answers the source's allocation query: sizes and the video meta, read back; the frames still flow")
    func allocationAnswered() async throws {
        let pipeline = try Pipeline(
            launch: "videotestsrc name=src num-buffers=3 ! video/x-raw,format=GRAY8,width=64,height=48 "
                + "! fakesink name=sink")
        let sourcePad = try #require(pipeline.element(named: "src")?.pad(named: "src"))
        let asked = Locked(0)
        sourcePad.addProbe(.queryDownstream) { info in
            guard let query = info.query, query.allocation != nil else { return .ok }
            asked.withLock { $0 += 1 }
            query.addAllocationPool(nil, size: 64 * 48, minBuffers: 2, maxBuffers: 4)
            query.addAllocationMeta("GstVideoMetaAPI")
            return .handled
        }
        let counter = try #require(pipeline.element(named: "sink")?.pad(named: "sink")).countBuffers()
        try pipeline.setState(.paused, timeout: 5_000_000_000)
        // Answered by the probe before it reaches the sink: no stream lock is needed.
        let ours = Query.allocation(caps: try Caps("video/x-raw,format=GRAY8,width=64,height=48"), needPool: false)
        #expect(sourcePad.peerQuery(ours))
        #expect(ours.allocation?.needPool == false)
        #expect(ours.allocationPools == [.init(typeName: nil, size: 3072, minBuffers: 2, maxBuffers: 4)])
        #expect(ours.allocationMetas == ["GstVideoMetaAPI"])
        #expect(!ours.addAllocationMeta("GstNoSuchMetaAPI"))
        #expect(!Query.latency().addAllocationMeta("GstVideoMetaAPI"))
        try await pipeline.run()
        #expect(asked.withLock { $0 } >= 2)
        #expect(counter.count == 3)
    }

    @Test("queue2 with use-buffering answers how full it is; a probe's answer gives percent and byte ranges")
    func buffering() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-buffering-\(getpid()).bin")
        try Data(repeating: 7, count: 1 << 20).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let pipeline = try Pipeline(
            launch: "filesrc location=\"\(file.path)\" ! queue2 name=buffer use-buffering=true ! fakesink sync=false")
        try pipeline.setState(.paused, timeout: 5_000_000_000)
        let query = Query.buffering(.bytes)
        #expect(try #require(pipeline.element(named: "buffer")).pad(named: "src")?.query(query) == true)
        let percent = try #require(query.bufferingPercent)
        #expect((0...100).contains(percent.percent))
        #expect(query.buffering != nil)
        pipeline.stop()

        let answered = try Pipeline(launch: "filesrc name=src location=\"\(file.path)\" ! fakesink name=sink")
        let sourcePad = try #require(answered.element(named: "src")?.pad(named: "src"))
        sourcePad.addProbe(.queryUpstream) { info in
            guard let query = info.query, query.bufferingPercent != nil else { return .ok }
            let ranges = [Query.BufferingRange(start: 0, stop: 1000), .init(start: 2000, stop: 3000)]
            return query.setBuffering(busy: true, percent: 40, ranges: ranges, estimatedTotal: 1 << 20) ? .handled : .ok
        }
        let asked = Query.buffering(.bytes)
        #expect(try #require(answered.element(named: "sink")?.pad(named: "sink")).peerQuery(asked))
        #expect(asked.bufferingPercent?.busy == true)
        #expect(asked.bufferingPercent?.percent == 40)
        let buffering = try #require(asked.buffering)
        #expect(buffering.format == .bytes)
        #expect(buffering.whole == .init(start: 0, stop: 3000))
        #expect(buffering.estimatedTotal == 1 << 20)
        #expect(buffering.ranges == [.init(start: 0, stop: 1000), .init(start: 2000, stop: 3000)])
        #expect(!Query.buffering().setBuffering(busy: false, percent: 140))
        #expect(Query.latency().bufferingPercent == nil)
    }
}
