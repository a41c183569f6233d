import GStreamer
import Synchronization
import Testing

@Suite("Building pipelines in code: add, link, caps filters, request and ghost pads", .bounded)
struct BuildingTests {
    @Test("A link through a caps filter negotiates those caps; 5 buffers reach the sink")
    func linkFiltered() async throws {
        let pipeline = try Pipeline(name: "built")
        let source = try ElementFactory.make("videotestsrc", name: "src")
        let sink = try ElementFactory.make("fakesink", name: "sink")
        try source.set("num-buffers", 5)
        try pipeline.add(source, sink)
        try source.link(to: sink, filter: Caps("video/x-raw, format=GRAY8, width=64, height=48"))
        let sinkPad = try #require(sink.pad(named: "sink"))
        let counter = sinkPad.countBuffers()
        try pipeline.setState(.paused, timeout: 5_000_000_000)
        let caps = try #require(sinkPad.currentCaps)
        #expect(caps.string("format") == "GRAY8")
        #expect(caps.int("width") == 64)
        #expect(caps.int("height") == 48)
        // The filter is a capsfilter that GStreamer puts between them.
        let filter = try #require(sinkPad.peer?.parentElement)
        #expect(filter.factoryName == "capsfilter")
        #expect(filter.pad(named: "sink")?.peer?.parentElement?.name == "src")
        try await pipeline.run()
        #expect(counter.count == 5)
        #expect(source.parent?.name == "built")
        #expect(pipeline.children.map(\.name).sorted() == [filter.name, "sink", "src"])
    }

    @Test("A tee's request pads src_0 and src_1 feed two branches, each all 6 buffers; released, src_1 is gone")
    func teeRequestPads() async throws {
        let pipeline = try Pipeline()
        let source = try ElementFactory.make("videotestsrc")
        try source.set("num-buffers", 6)
        let tee = try ElementFactory.make("tee", name: "t")
        let queues = try [ElementFactory.make("queue"), ElementFactory.make("queue")]
        let sinks = try [ElementFactory.make("fakesink"), ElementFactory.make("fakesink")]
        try pipeline.add([source, tee] + queues + sinks)
        try source.link(to: tee)
        let first = try tee.requestPad("src_%u")
        // By name: the template's pattern requests the next pad.
        try tee.link(sourcePad: "src_%u", to: queues[1], sinkPad: "sink")
        #expect(first.name == "src_0")
        #expect(first.direction == .source)
        #expect(first.template?.presence == .request)
        try first.link(to: try #require(queues[0].pad(named: "sink")))
        try Element.link(queues[0], sinks[0])
        try Element.link(queues[1], sinks[1])
        let counters = try sinks.map { try #require($0.pad(named: "sink")).countBuffers() }
        try await pipeline.run()
        #expect(counters.map(\.count) == [6, 6])
        #expect(tee.pads.map(\.name).sorted() == ["sink", "src_0", "src_1"])
        let second = try #require(tee.pads.first { $0.name == "src_1" })
        tee.releaseRequestPad(second)
        #expect(tee.pads.map(\.name).sorted() == ["sink", "src_0"])
    }

    @Test("A muxer's audio_%u request pad is audio_0; a template the element lacks is named in the error")
    func muxerRequestPad() throws {
        let muxer = try ElementFactory.make("matroskamux", name: "mux")
        let audio = try muxer.requestPad("audio_%u")
        #expect(audio.name == "audio_0")
        #expect(audio.direction == .sink)
        #expect(try muxer.requestPad("audio_%u").name == "audio_1")
        let tee = try ElementFactory.make("tee", name: "t")
        do {
            _ = try tee.requestPad("sink_%u")
            Issue.record("a missing template gave a pad")
        } catch {
            #expect(error.message == "t has no pad template \"sink_%u\": it has src_%u")
        }
    }

    @Test("A bin with ghost pads links as one element: 4 buffers pass its identity")
    func ghostPads() async throws {
        let bin = try Bin(name: "wrapper")
        let identity = try ElementFactory.make("identity", name: "inner")
        try bin.add(identity)
        let sinkGhost = try bin.addGhostPad(named: "sink", target: try #require(identity.pad(named: "sink")))
        try bin.addGhostPad(named: "src", target: try #require(identity.pad(named: "src")))
        #expect(sinkGhost.ghostTarget?.name == "sink")
        #expect(sinkGhost.ghostTarget?.parentElement?.name == "inner")
        #expect(sinkGhost.direction == .sink)
        #expect(bin.pads.map(\.name).sorted() == ["sink", "src"])
        let pipeline = try Pipeline()
        let source = try ElementFactory.make("videotestsrc")
        try source.set("num-buffers", 4)
        let sink = try ElementFactory.make("fakesink")
        try pipeline.add(source, bin, sink)
        try Element.link(source, bin, sink)
        let counter = try #require(identity.pad(named: "src")).countBuffers()
        try await pipeline.run()
        #expect(counter.count == 4)
    }

    @Test("Pads in different bins do not link directly; across bins they do, through ghost pads: 3 buffers pass")
    func linkAcrossBins() async throws {
        let pipeline = try Pipeline()
        let source = try ElementFactory.make("videotestsrc", name: "outer-source")
        try source.set("num-buffers", 3)
        let bin = try Bin(name: "inner-bin")
        let sink = try ElementFactory.make("fakesink", name: "inner-sink")
        try bin.add(sink)
        try pipeline.add(source, bin)
        let output = try #require(source.pad(named: "src"))
        let input = try #require(sink.pad(named: "sink"))
        #expect(throws: GStreamerError.self) { try output.link(to: input) }
        try output.linkAcrossBins(to: input)
        // The link goes through a ghost pad on the bin.
        let ghost = try #require(output.peer)
        #expect(ghost.parentElement?.name == "inner-bin" && ghost.ghostTarget?.parentElement?.name == "inner-sink")
        let counter = input.countBuffers()
        try await pipeline.run()
        #expect(counter.count == 3)
        // Linked already: an error that says so, not a second link.
        let other = try ElementFactory.make("fakesink")
        try bin.add(other)
        #expect(throws: GStreamerError.self) { try output.linkAcrossBins(to: try #require(other.pad(named: "sink"))) }
    }

    @Test("Adding twice, a clashing name, removing: errors say which")
    func addAndRemove() throws {
        let pipeline = try Pipeline(name: "p")
        let first = try ElementFactory.make("identity", name: "same")
        try pipeline.add(first)
        #expect(
            throws: GStreamerError(
                kind: .invalidArgument, message: "cannot add same to p: it is in p already", source: "same")
        ) {
            try pipeline.add(first)
        }
        let clash = try ElementFactory.make("identity", name: "same")
        #expect(
            throws: GStreamerError(
                kind: .invalidArgument, message: "cannot add same to p: it has an element of that name", source: "same")
        ) {
            try pipeline.add(clash)
        }
        try pipeline.remove(first)
        #expect(first.parent == nil)
        #expect(pipeline.children.isEmpty)
        #expect(throws: GStreamerError.self) { try pipeline.remove(first) }
        try pipeline.add(clash)
        #expect(clash.parent?.name == "p")
    }

    @Test("An element added to a playing pipeline takes its state with syncStateWithParent")
    func syncState() async throws {
        let pipeline = try Pipeline(launch: "videotestsrc is-live=true ! fakesink")
        try pipeline.play()
        _ = pipeline.state(timeout: 5_000_000_000)
        let late = try ElementFactory.make("queue", name: "late")
        try pipeline.add(late)
        #expect(late.state().current == .null)
        try late.syncStateWithParent()
        #expect(late.state(timeout: 5_000_000_000).current == .playing)
        pipeline.stop()
    }

    @Test("Pads that cannot link say why, in GStreamer's words")
    func padLinkFailure() throws {
        let video = try ElementFactory.make("videotestsrc", name: "v")
        let audio = try ElementFactory.make("audioconvert", name: "a")
        let pipeline = try Pipeline()
        try pipeline.add(video, audio)
        do {
            try #require(video.pad(named: "src")).link(to: try #require(audio.pad(named: "sink")))
            Issue.record("video linked to audio")
        } catch let error as GStreamerError {
            #expect(error.message == "could not link v:src to a:sink: no common format")
        }
        #expect(throws: GStreamerError(kind: .invalidArgument, message: "could not link v to a", source: "v")) {
            try video.link(to: audio)
        }
    }
}
