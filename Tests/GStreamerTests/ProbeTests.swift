import CGStreamer
import GStreamer
import GstPipeSupport
import Synchronization
import Testing

@Suite("Pad probes: buffers, events, blocking, idle; the C escape hatch", .bounded)
struct ProbeTests {
    /// `videotestsrc num-buffers=N` at 10 frames a second (100 ms each) into an unsynchronized fakesink.
    static func tenPerSecond(_ buffers: Int) throws -> (Pipeline, source: Pad, sink: Pad) {
        let pipeline = try Pipeline(
            launch: "videotestsrc name=src num-buffers=\(buffers) ! video/x-raw,framerate=10/1,width=32,height=24 "
                + "! fakesink name=sink sync=false")
        let source = try #require(pipeline.element(named: "src")?.pad(named: "src"))
        let sink = try #require(pipeline.element(named: "sink")?.pad(named: "sink"))
        return (pipeline, source, sink)
    }

    @Test("A buffer probe drops every other buffer: 5 of 10 reach the sink, the even ones")
    func dropBuffers() async throws {
        let (pipeline, source, sink) = try Self.tenPerSecond(10)
        let seen = Locked<[ClockTime]>([])
        source.addProbe(.buffer) { info in
            guard let pts = info.buffer?.pts else { return .ok }
            return (pts / 100_000_000) % 2 == 0 ? .ok : .drop
        }
        sink.addProbe(.buffer) { info in
            if let pts = info.buffer?.pts { seen.withLock { $0.append(pts) } }
            return .ok
        }
        try await pipeline.run()
        #expect(seen.withLock { $0 } == [0, 200_000_000, 400_000_000, 600_000_000, 800_000_000])
    }

    @Test("After a seek to 1 s, the first buffer's running time is 0 and its stream time 1 s, by the pad's segment")
    func segmentTimes() async throws {
        let (pipeline, _, sink) = try Self.tenPerSecond(30)
        let first = Locked<(pts: ClockTime, running: ClockTime?, stream: ClockTime?)?>(nil)
        sink.addProbe(.buffer) { pad, info in
            guard let pts = info.buffer?.pts else { return .ok }
            first.withLock { $0 = $0 ?? (pts, pad.runningTime(of: pts), pad.streamTime(of: pts)) }
            return .ok
        }
        try await pipeline.changeState(to: .paused, timeout: 5_000_000_000)
        first.withLock { $0 = nil }
        #expect(pipeline.seek(to: 1_000_000_000, accurate: true))
        try await pipeline.changeState(to: .paused, timeout: 5_000_000_000)
        let times = try #require(first.withLock { $0 })
        try await pipeline.changeState(to: .null)
        #expect(times.pts == 1_000_000_000)
        #expect(times.running == 0)
        #expect(times.stream == 1_000_000_000)
    }

    @Test("A buffer probe that changes a timestamp sends its changed copy on")
    func changeTimestamps() async throws {
        let (pipeline, source, sink) = try Self.tenPerSecond(3)
        source.addProbe(.buffer) { info in
            if let buffer = info.buffer, let pts = buffer.pts { buffer.pts = pts + 5_000_000_000 }
            return .ok
        }
        let counter = sink.countBuffers()
        try await pipeline.run()
        #expect(counter.count == 3)
        #expect(counter.lastTimestamp == 5_200_000_000)
    }

    @Test("An event probe sees stream-start, caps, segment and EOS in order, with typed contents")
    func events() async throws {
        let (pipeline, _, sink) = try Self.tenPerSecond(2)
        let events = Locked<[String]>([])
        let width = Locked<Int?>(nil)
        sink.addProbe(.eventDownstream) { info in
            guard let event = info.event else { return .ok }
            events.withLock { $0.append(event.typeName) }
            if let caps = event.caps { width.withLock { $0 = caps.int("width") } }
            return .ok
        }
        try await pipeline.run()
        #expect(events.withLock { $0 } == ["stream-start", "caps", "segment", "eos"])
        #expect(width.withLock { $0 } == 32)
    }

    @Test("A blocking probe holds the data until it is removed; then all 3 buffers pass")
    func blocking() async throws {
        let (pipeline, source, sink) = try Self.tenPerSecond(3)
        let counter = sink.countBuffers()
        let blockedCalls = Atomic(0)
        let probe = try #require(
            source.addProbe(.blockDownstream) { _ in
                blockedCalls.add(1, ordering: .relaxed)
                return .ok
            })
        let end = sink.watchEndOfStream()
        try pipeline.play()
        try await Task.sleep(for: .milliseconds(300))
        #expect(counter.count == 0)
        #expect(blockedCalls.load(ordering: .relaxed) >= 1)
        probe.remove()
        #expect(await end.wait(timeout: .seconds(10)))
        #expect(counter.count == 3)
        pipeline.stop()
        probe.remove()
    }

    @Test("An idle probe on a pad with no data runs at once, once, and removes itself")
    func idle() throws {
        let (_, source, _) = try Self.tenPerSecond(1)
        let calls = Locked<[PadProbeType]>([])
        let probe = source.addProbe(.idle) { info in
            calls.withLock { $0.append(info.type) }
            return .remove
        }
        #expect(probe == nil)
        #expect(calls.withLock { $0.count } == 1)
        #expect(calls.withLock { $0.first?.contains(.idle) } == true)
    }

    @Test("withUnsafePointer gives the C objects for C interop")
    func escapeHatch() throws {
        let (pipeline, source, _) = try Self.tenPerSecond(1)
        let element = try #require(pipeline.element(named: "src"))
        let name = element.withUnsafePointer { pointer in
            let text = gst_object_get_name(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstObject.self))
            defer { g_free(text) }
            return text.map { String(cString: $0) }
        }
        #expect(name == "src")
        #expect(source.withUnsafePointer { gst_pad_get_direction($0) } == GST_PAD_SRC)
        let buffer = try Buffer(size: 4)
        buffer.pts = 123
        #expect(buffer.withUnsafePointer { $0.pointee.pts } == 123)
        let caps = try Caps("video/x-raw, width=(int)7")
        #expect(caps.withUnsafePointer { gst_caps_get_size($0) } == 1)
    }
}
