import CGStreamer
import Synchronization
import Testing

@testable import GStreamer

/// The bus read the standard way: before the fix the router's sync handler dropped every
/// message, so `gst_bus_timed_pop_filtered` waited out its timeout after end of stream and a bus watch saw
/// nothing. `standardReaderSeesEndOfStream` and `popInOrder` failed then.
@Suite("The bus's own queue: pop, timedPop, bounded when nobody pops", .bounded)
struct BusPopTests {
    /// A pipeline in READY (in NULL its bus drops what is posted) with a `fakesrc` named "app" to post from,
    /// and its bus, emptied of the state change's own messages.
    static func readyPipeline() throws -> (Pipeline, Element, Bus) {
        let pipeline = try Pipeline(launch: "fakesrc name=app ! fakesink")
        _ = try pipeline.setState(.ready)
        let bus = pipeline.bus
        while bus.pop() != nil {}
        return (pipeline, try #require(pipeline.element(named: "app")), bus)
    }

    @Test("gst_bus_timed_pop_filtered and Bus.timedPop see end of stream, while a MessageStream reader sees it too")
    func standardReaderSeesEndOfStream() async throws {
        let pipeline = try Pipeline(launch: "videotestsrc num-buffers=3 ! fakesink")
        defer { pipeline.stop() }
        let messages = pipeline.messages
        try pipeline.play()
        // As a C program reads it.
        let raw = pipeline.bus.withUnsafeGstBus { bus in
            gst_bus_timed_pop_filtered(
                bus, 10_000_000_000,
                GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue))
        }
        let popped = try #require(raw, "no end of stream popped within 10 s")
        #expect(popped.pointee.type == GST_MESSAGE_EOS)
        gst_message_unref(popped)
        // The async reader got it as well.
        let all = await BusTests.collect(messages)
        guard case .endOfStream? = all.last else {
            Issue.record("the MessageStream reader missed it: \(all)")
            return
        }
        // A second run, read through the Swift API.
        pipeline.stop()
        try pipeline.play()
        let again = pipeline.bus.timedPop(timeout: 10_000_000_000, filter: [.endOfStream, .error])
        guard case .endOfStream(let source)? = again else {
            Issue.record("timedPop got \(String(describing: again))")
            return
        }
        #expect(source == pipeline.name)
    }

    @Test("pop returns posted messages oldest first, nil when none is left; a filter skips other kinds")
    func popInOrder() throws {
        let (pipeline, app, bus) = try BusPopTests.readyPipeline()
        defer { pipeline.stop() }
        #expect(!bus.hasPending)
        for index in 0..<3 { app.postApplicationMessage(try Structure(name: "step", fields: ["index": index])) }
        app.postElementMessage(try Structure(name: "done"))
        #expect(bus.hasPending)
        guard case .application("app", let first)? = bus.pop() else {
            Issue.record("no application message")
            return
        }
        #expect(first.int("index") == 0)
        // Filtered: the two application messages left are skipped (and, as in C, removed).
        guard case .element("app", let done)? = bus.timedPop(timeout: 0, filter: .element) else {
            Issue.record("no element message")
            return
        }
        #expect(done.name == "done")
        #expect(bus.pop() == nil)
        #expect(bus.timedPop(timeout: 1_000_000) == nil)
    }

    @Test("A message the sync handler drops reaches no reader of the queue")
    func syncHandlerDrop() throws {
        let (pipeline, app, bus) = try BusPopTests.readyPipeline()
        defer { pipeline.stop() }
        pipeline.setSyncHandler { $0.structure?.name == "secret" ? .drop : .pass }
        app.postApplicationMessage(try Structure(name: "secret"))
        app.postApplicationMessage(try Structure(name: "public"))
        guard case .application(_, let structure)? = bus.pop() else {
            Issue.record("nothing popped")
            return
        }
        #expect(structure.name == "public")
        #expect(bus.pop() == nil)
        pipeline.setSyncHandler(nil)
    }

    @Test("Nobody popping: the queue keeps the newest Bus.backlogLimit messages, not every one")
    func backlogBounded() throws {
        let (pipeline, app, bus) = try BusPopTests.readyPipeline()
        defer { pipeline.stop() }
        let extra = 100
        for index in 0..<(Bus.backlogLimit + extra) {
            app.postApplicationMessage(try Structure(name: "n", fields: ["index": index]))
        }
        var indices: [Int] = []
        while case .application(_, let structure)? = bus.pop() { indices.append(structure.int("index") ?? -1) }
        #expect(indices.count == Bus.backlogLimit)
        #expect(indices.first == extra)
        #expect(indices.last == Bus.backlogLimit + extra - 1)
    }
}
