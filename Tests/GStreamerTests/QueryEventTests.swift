import GStreamer
import GstPipeSupport
import Synchronization
import Testing

@Suite(
    "Queries and events: position, duration, seeking, latency, custom; seeks with rate, steps, custom events",
    .bounded)
struct QueryEventTests {
    @Test("A paused pipeline answers position 0, seeking from 0, and a probe's answer for the duration")
    func queries() throws {
        let pipeline = try Pipeline(launch: "videotestsrc name=src ! video/x-raw,framerate=10/1 ! fakesink")
        let sourcePad = try #require(pipeline.element(named: "src")?.pad(named: "src"))
        sourcePad.addProbe(.queryUpstream) { info in
            guard let query = info.query, query.typeName == "duration" else { return .ok }
            query.setDuration(42_000_000_000)
            return .handled
        }
        try pipeline.setState(.paused, timeout: 5_000_000_000)
        let position = Query.position()
        #expect(pipeline.query(position))
        #expect(position.typeName == "position")
        #expect(position.position == 0)
        let duration = Query.duration()
        #expect(pipeline.query(duration))
        #expect(duration.duration == 42_000_000_000)
        #expect(pipeline.duration == 42_000_000_000)
        let seeking = Query.seeking()
        #expect(pipeline.query(seeking))
        #expect(seeking.seeking?.seekable == true)
        #expect(seeking.seeking?.start == 0)
        // The wrong accessor for the kind of query reads nil.
        #expect(seeking.duration == nil)
        pipeline.stop()
    }

    @Test("A live source's latency is one frame (100 ms at 10/1), asked of the element and of a pad's peer")
    func latency() throws {
        let pipeline = try Pipeline(
            launch: "videotestsrc name=src is-live=true ! video/x-raw,framerate=10/1 ! fakesink name=sink")
        try pipeline.play()
        _ = pipeline.state(timeout: 5_000_000_000)
        let query = Query.latency()
        #expect(try #require(pipeline.element(named: "src")).query(query))
        #expect(query.latency?.live == true)
        #expect(query.latency?.minimum == 100_000_000)
        let sinkPad = try #require(pipeline.element(named: "sink")?.pad(named: "sink"))
        let peer = Query.latency()
        #expect(sinkPad.peerQuery(peer))
        #expect(peer.latency?.minimum == 100_000_000)
        pipeline.stop()
    }

    @Test("A custom query is answered by a probe that sets its fields; unanswered, it fails")
    func customQuery() throws {
        let pipeline = try Pipeline(launch: "videotestsrc name=src ! fakesink name=sink")
        let sourcePad = try #require(pipeline.element(named: "src")?.pad(named: "src"))
        let sinkPad = try #require(pipeline.element(named: "sink")?.pad(named: "sink"))
        let lent = Locked<Query?>(nil)
        sourcePad.addProbe(.queryUpstream) { info in
            guard let query = info.query, query.name == "gstpipe-ask" else { return .ok }
            let question = query.field("question")
            query.setField("answer", question == .string("life") ? 42 : 0)
            lent.withLock { $0 = query }
            return .handled
        }
        let query = try Query.custom("gstpipe-ask", fields: "question=life")
        #expect(query.typeName == "custom")
        #expect(sinkPad.peerQuery(query))
        #expect(query.field("answer") == .int(42))
        #expect(query.structure == "gstpipe-ask, question=(string)life, answer=(gint64)42;")
        // The query lent to the probe reads as empty once the probe has returned.
        #expect(lent.withLock { $0?.structure } == nil)
        let unanswered = try Query.custom("gstpipe-nobody")
        #expect(!sinkPad.peerQuery(unanswered))
        #expect(throws: GStreamerError.self) { _ = try Query.custom("bad name", fields: "=") }
    }

    @Test("A seek with rate 2, accurate, from 1 s to 2 s: the segment says so and buffers 1.0 to 1.9 s play")
    func seekWithRate() async throws {
        let pipeline = try Pipeline(
            launch:
                "videotestsrc name=src ! video/x-raw,framerate=10/1,width=32,height=24 ! fakesink name=sink sync=false")
        let sinkPad = try #require(pipeline.element(named: "sink")?.pad(named: "sink"))
        try pipeline.setState(.paused, timeout: 5_000_000_000)
        let segments = Locked<[Segment]>([])
        let timestamps = Locked<[ClockTime]>([])
        sinkPad.addProbe([.eventDownstream, .buffer]) { info in
            if let segment = info.event?.segment { segments.withLock { $0.append(segment) } }
            if let pts = info.buffer?.pts { timestamps.withLock { $0.append(pts) } }
            return .ok
        }
        let end = sinkPad.watchEndOfStream()
        #expect(try pipeline.seek(rate: 2, flags: [.flush, .accurate], start: 1_000_000_000, stop: 2_000_000_000))
        try pipeline.play()
        #expect(await end.wait(timeout: .seconds(10)))
        pipeline.stop()
        let segment = try #require(segments.withLock { $0.last })
        #expect(segment.rate == 2)
        #expect(segment.start == 1_000_000_000)
        #expect(segment.stop == 2_000_000_000)
        #expect(timestamps.withLock { $0 } == (10..<20).map { ClockTime($0) * 100_000_000 })
        let event = try Event.seek(rate: -1, flags: [.flush, .keyUnit, .segment], start: 0, stop: 5)
        #expect(event.typeName == "seek")
        #expect(event.isUpstream)
        #expect(event.seek?.rate == -1)
        #expect(event.seek?.flags == [.flush, .keyUnit, .segment])
        #expect(event.seek?.stop == 5)
        let instant = try Event.seek(rate: 0.5, flags: .instantRateChange, start: nil)
        #expect(instant.seek?.start == nil)
        #expect(instant.seek?.flags == .instantRateChange)
    }

    @Test("A step of 3 buffers in PAUSED moves the sink on by 3 frames")
    func step() async throws {
        let pipeline = try Pipeline(
            launch: "videotestsrc ! video/x-raw,framerate=10/1,width=32,height=24 ! fakesink name=sink sync=false")
        let sinkPad = try #require(pipeline.element(named: "sink")?.pad(named: "sink"))
        let counter = sinkPad.countBuffers()
        try pipeline.setState(.paused, timeout: 5_000_000_000)
        let before = try #require(counter.lastTimestamp)
        let step = try Event.step(3)
        #expect(step.typeName == "step")
        #expect(pipeline.send(step))
        var waited = 0
        while counter.lastTimestamp == before && waited < 100 {
            try await Task.sleep(for: .milliseconds(20))
            waited += 1
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(try #require(counter.lastTimestamp) - before == 300_000_000)
        pipeline.stop()
    }

    @Test("A custom downstream event sent to the source arrives at the sink in order; an upstream one at the source")
    func customEvents() async throws {
        let pipeline = try Pipeline(
            launch: "videotestsrc name=src num-buffers=3 ! video/x-raw,framerate=10/1 ! fakesink name=sink sync=false")
        let source = try #require(pipeline.element(named: "src"))
        let sink = try #require(pipeline.element(named: "sink"))
        let sourcePad = try #require(source.pad(named: "src"))
        let sinkPad = try #require(sink.pad(named: "sink"))
        let downstream = Locked<[String]>([])
        sinkPad.addProbe([.eventDownstream, .buffer]) { info in
            if info.buffer != nil { downstream.withLock { $0.append("buffer") } }
            if let event = info.event, event.typeName.hasPrefix("custom") {
                downstream.withLock { $0.append("\(event.name ?? "?") count=\(event.field("count") ?? .int(-1))") }
            }
            return .ok
        }
        let upstream = Locked<[String]>([])
        sourcePad.addProbe(.eventUpstream) { info in
            if let event = info.event, event.typeName == "custom-upstream" {
                upstream.withLock { $0.append(event.structure ?? "") }
            }
            return .ok
        }
        try pipeline.setState(.paused, timeout: 5_000_000_000)
        // Serialized: GstBaseSrc sends it from its streaming thread, after the buffer it prerolled.
        #expect(source.send(try Event.custom(.downstream, name: "gstpipe-mark", fields: "count=(int)7")))
        _ = sinkPad.push(try Event.custom(.upstream, name: "gstpipe-ask", fields: "why=because"))
        _ = sink.send(try Event.custom(.upstream, name: "gstpipe-ask", fields: "why=again"))
        #expect(throws: GStreamerError.self) { _ = try Event.custom(.downstream, name: "x", fields: "==") }
        try await pipeline.run()
        #expect(downstream.withLock { $0 } == ["buffer", "gstpipe-mark count=7", "buffer", "buffer"])
        #expect(upstream.withLock { $0 } == ["gstpipe-ask, why=(string)because;", "gstpipe-ask, why=(string)again;"])
    }
}
