import GStreamer
import GstPipeSupport
import Synchronization
import Testing

@Suite("Signals by name: typed arguments, return values, action signals, notify, disconnect", .bounded)
struct SignalTests {
    @Test("decodebin's pad-added gives a Pad to link; no-more-pads follows; all 5 buffers arrive")
    func padAdded() async throws {
        let pipeline = try Pipeline()
        let source = try ElementFactory.make("videotestsrc")
        try source.set("num-buffers", 5)
        let decoder = try ElementFactory.make("decodebin", name: "decoder")
        let sink = try ElementFactory.make("fakesink")
        try pipeline.add(source, decoder, sink)
        try source.link(to: decoder)
        let sinkPad = try #require(sink.pad(named: "sink"))
        let counter = sinkPad.countBuffers()
        let added = Locked<[String]>([])
        let noMorePads = Atomic(0)
        decoder.onPadAdded { pad in
            added.withLock { $0.append("\(pad.parentElement?.name ?? "?"):\(pad.name)") }
            try? pad.link(to: sinkPad)
        }
        decoder.onNoMorePads { noMorePads.add(1, ordering: .relaxed) }
        try await pipeline.run()
        #expect(added.withLock { $0 } == ["decoder:src_0"])
        #expect(noMorePads.load(ordering: .relaxed) == 1)
        #expect(counter.count == 5)
    }

    @Test("element-added gives the Element; after disconnect the handler is not called")
    func elementAddedAndDisconnect() throws {
        let pipeline = try Pipeline()
        let names = Locked<[String]>([])
        let connection = pipeline.onElementAdded { element in names.withLock { $0.append(element.name) } }
        #expect(connection.signal == "element-added")
        #expect(connection.isConnected)
        try pipeline.add(try ElementFactory.make("identity", name: "first"))
        connection.disconnect()
        #expect(!connection.isConnected)
        try pipeline.add(try ElementFactory.make("identity", name: "second"))
        connection.disconnect()
        #expect(names.withLock { $0 } == ["first"])
    }

    @Test("A connection outlives its element safely: disconnect then does nothing")
    func disconnectAfterElementIsGone() throws {
        var element: Element? = try ElementFactory.make("identity")
        let calls = Atomic(0)
        let connection = try #require(element).connect("notify::name") { _ in calls.add(1, ordering: .relaxed) }
        #expect(connection.isConnected)
        element = nil
        #expect(!connection.isConnected)
        connection.disconnect()
        connection.disconnect()
        #expect(calls.load(ordering: .relaxed) == 0)
    }

    @Test(
        "appsrc's need-data (a UInt) answered with the push-buffer action signal; appsink's pull-sample returns each Sample"
    )
    func appSignals() async throws {
        let pipeline = try Pipeline()
        let source = try ElementFactory.make("appsrc", name: "source")
        let sink = try ElementFactory.make("appsink", name: "sink")
        try source.set("caps", PropertyValue.caps("application/x-test"))
        try source.set("format", fromString: "time")
        try sink.set("sync", false)
        try pipeline.add(source, sink)
        try source.link(to: sink)
        let pushed = Locked<(count: Int, lengths: [UInt], flows: [String])>((0, [], []))
        let connection = try source.connect("need-data") { arguments in
            let next = pushed.withLock { state -> Int? in
                guard state.count < 3 else { return nil }
                state.lengths.append(arguments.first?.uint ?? 0)
                state.count += 1
                return state.count - 1
            }
            guard let next else {
                _ = try? source.emit("end-of-stream")
                return
            }
            guard let buffer = try? Buffer(size: 8 + next) else { return }
            buffer.pts = ClockTime(next) * 10_000_000
            buffer.duration = 10_000_000
            if case .enumeration(_, let nick)? = try? source.emit("push-buffer", .buffer(buffer)) {
                pushed.withLock { $0.flows.append(nick) }
            }
        }
        defer { connection.disconnect() }
        try pipeline.play()
        var timestamps: [ClockTime?] = []
        var sizes: [Int] = []
        while case .sample(let sample) = try sink.emit("pull-sample") {
            timestamps.append(sample.buffer?.pts)
            sizes.append(sample.buffer?.size ?? 0)
            #expect(sample.caps?.description == "application/x-test")
        }
        pipeline.stop()
        #expect(timestamps == [0, 10_000_000, 20_000_000])
        #expect(sizes == [8, 9, 10])
        let state = pushed.withLock { $0 }
        #expect(state.flows == ["ok", "ok", "ok"])
        // appsrc asks for its block size (GstBaseSrc's blocksize, 4096 by default).
        #expect(state.lengths == [4096, 4096, 4096])
    }

    @Test("An action signal returning a boxed value: playbin's get-video-tags is NULL with no stream")
    func actionSignalReturningNull() throws {
        let playbin = try ElementFactory.make("playbin", name: "player")
        let tags = try playbin.emit("get-video-tags", .int(0))
        guard case .null = tags else {
            Issue.record("get-video-tags returned \(tags)")
            return
        }
        #expect(
            throws: GStreamerError(
                kind: .invalidArgument, message: "player's signal \"get-video-tags\" takes 1 arguments, not 0",
                source: "player")
        ) {
            try playbin.emit("get-video-tags")
        }
        #expect(
            throws: GStreamerError(
                kind: .invalidArgument,
                message: "argument 1 of player's signal \"get-video-tags\" is a gint, not \"zero\"", source: "player")
        ) {
            try playbin.emit("get-video-tags", .string("zero"))
        }
        #expect(
            throws: GStreamerError(
                kind: .invalidArgument, message: "player has no signal \"no-such-signal\"", source: "player")
        ) {
            try playbin.connect("no-such-signal") { _ in }
        }
    }

    @Test("A handler's return value goes back to the emitter (decodebin's autoplug-continue: false stops at the caps)")
    func returnValue() async throws {
        let pipeline = try Pipeline()
        let source = try ElementFactory.make("audiotestsrc")
        try source.set("num-buffers", 3)
        let encoder = try ElementFactory.make("wavenc")
        let decoder = try ElementFactory.make("decodebin")
        let sink = try ElementFactory.make("fakesink")
        try pipeline.add(source, encoder, decoder, sink)
        try Element.link(source, encoder, decoder)
        let asked = Locked<[String]>([])
        try decoder.connectReturning("autoplug-continue") { arguments in
            // (pad, caps): answering false exposes the stream as it is, undecoded.
            asked.withLock { $0.append(arguments[1].caps?.mediaType ?? "?") }
            return .bool(false)
        }
        let exposed = Locked<[String]>([])
        decoder.onPadAdded { pad in
            exposed.withLock { $0.append(pad.currentCaps?.mediaType ?? "?") }
            try? pad.link(to: sink.pad(named: "sink")!)
        }
        try await pipeline.run()
        #expect(asked.withLock { $0 } == ["audio/x-wav"])
        #expect(exposed.withLock { $0 } == ["audio/x-wav"])
    }

    @Test("notify::property gives the new value, on the thread that sets it")
    func notify() throws {
        let source = try ElementFactory.make("videotestsrc", name: "src")
        let values = Locked<[PropertyValue]>([])
        let connection = try source.onNotify("num-buffers") { value in values.withLock { $0.append(value) } }
        try source.set("num-buffers", 9)
        try source.set("pattern", fromString: "snow")
        try source.set("num-buffers", fromString: "12")
        connection.disconnect()
        try source.set("num-buffers", 1)
        #expect(values.withLock { $0 } == [.int(9), .int(12)])
        #expect(throws: GStreamerError.self) { try source.onNotify("no-such-property") { _ in } }
    }
}
