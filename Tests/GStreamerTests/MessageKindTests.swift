import CGStreamer
import Foundation
import GstPipeSupport
import Synchronization
import Testing

@testable import GStreamer

/// Typed messages for the kinds that arrived as `.other` before: real pipelines post each
/// where one can be made to (missing-plugin, buffering stats, qos, stream collections, step-done,
/// new-clock, stream-status, need-context); the kinds no local pipeline posts (progress, redirect,
/// request-state, instant-rate-request, structure-change, reset-time) are made with GStreamer's own
/// constructors and posted from an element, so the parsing of their fields is checked all the same.
@Suite("Typed messages of every kind", .bounded)
struct MessageKindTests {
    /// True when GStreamer has every element named (it is initialized first: an uninitialized registry
    /// has none).
    static func has(_ names: String...) -> Bool {
        (try? GStreamer.initialize()) != nil && names.allSatisfy { GStreamer.hasElement(named: $0) }
    }

    /// Every message of a run of `description` until end of stream or error.
    static func run(_ description: String, prepare: (Pipeline) throws -> Void = { _ in }) async throws -> [Message] {
        let pipeline = try Pipeline(launch: description)
        defer { pipeline.stop() }
        try prepare(pipeline)
        let messages = pipeline.messages
        _ = try? pipeline.setState(.playing)
        return await BusTests.collect(messages)
    }

    @Test("decodebin given caps no decoder takes posts missing-plugin, with description and installer detail")
    func missingPlugin() async throws {
        let all = try await Self.run(
            "fakesrc num-buffers=1 sizetype=fixed sizemax=16 ! capsfilter caps=video/x-gstpipe-unknown ! queue "
                + "! decodebin name=decoder ! fakesink")
        let missing = all.compactMap { message -> (String?, MissingPlugin)? in
            if case .missingPlugin(let source, let plugin) = message { return (source, plugin) }
            return nil
        }
        let (source, plugin) = try #require(missing.first, "no missing-plugin among \(all.map(\.typeName))")
        #expect(source == "decoder")
        #expect(plugin.kind == "decoder")
        #expect(plugin.detail == "video/x-gstpipe-unknown")
        #expect(plugin.description.contains("video/x-gstpipe-unknown"), "\(plugin.description)")
        let installer = try #require(plugin.installerDetail)
        #expect(installer.hasPrefix("gstreamer|1.0|"), "\(installer)")
        #expect(installer.contains("decoder-video/x-gstpipe-unknown"), "\(installer)")
        #expect(all.contains { if case .error = $0 { true } else { false } })
    }

    @Test("queue2 with use-buffering posts buffering with its mode and rates")
    func bufferingStats() async throws {
        let all = try await Self.run("audiotestsrc num-buffers=50 ! queue2 name=buffer use-buffering=true ! fakesink")
        let stats = all.compactMap { message -> (Int, BufferingStats)? in
            if case .buffering("buffer", let percent, let stats) = message { return (percent, stats) }
            return nil
        }
        #expect(!stats.isEmpty)
        #expect(stats.allSatisfy { $0.1.mode == .stream }, "\(stats)")
        #expect(stats.last?.0 == 100)
    }

    @Test("A synchronized sink given buffers too late drops them and posts qos with its counts")
    func qos() async throws {
        // 100 frames a second, each held 30 ms upstream: every frame after the first is late.
        let all = try await Self.run(
            "videotestsrc num-buffers=20 ! video/x-raw,framerate=100/1,width=64,height=48 ! identity sleep-time=30000 "
                + "! fakesink name=sink sync=true qos=true max-lateness=1000000")
        // Foundation has a QualityOfService of its own: the reports are read field by field.
        var reports: [(jitter: Int64, dropped: UInt64?, processedFormat: String)] = []
        for case .qos("sink", let qos) in all { reports.append((qos.jitter, qos.dropped, qos.processedFormat)) }
        let last = try #require(reports.last, "no qos among \(all.map(\.typeName))")
        #expect(last.jitter > 0)
        #expect((last.dropped ?? 0) >= 1)
        #expect(last.processedFormat == "buffers")
    }

    @Test(
        "decodebin3 posts the file's stream collection and the streams it selected",
        .enabled(if: MessageKindTests.has("x264enc", "matroskamux", "decodebin3"), "needs x264enc and decodebin3"))
    func streamCollection() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-streams-\(getpid()).mkv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let made = try await Self.run(
            "videotestsrc num-buffers=10 ! video/x-raw,width=64,height=48 ! x264enc ! matroskamux "
                + "! filesink location=\(path)")
        guard case .endOfStream? = made.last else {
            Issue.record("the clip was not made: \(made)")
            return
        }
        // decodebin3, which posts both messages for playbin3 too: GStreamer 1.22's playbin3 (its uridecodebin3) now
        // and then never prerolls beside other decoding pipelines (6 of 1,200 runs, four at once, in C).
        let all = try await Self.run("filesrc location=\(path) ! decodebin3 ! fakesink")
        var collection: StreamCollection?
        var selected: [StreamInfo]?
        for message in all {
            if case .streamCollection(_, let streams) = message { collection = streams }
            if case .streamsSelected(_, _, let streams) = message { selected = streams }
        }
        let streams = try #require(collection, "no stream-collection among \(all.map(\.typeName))").streams
        #expect(streams.count == 1)
        #expect(streams.first?.kinds == ["video"])
        let caps = streams.first?.caps?.description ?? "none"
        #expect(caps.hasPrefix("video/x-h264"), "\(caps)")
        let chosen = try #require(selected, "no streams-selected")
        #expect(chosen.map(\.streamID) == streams.map(\.streamID))
    }

    @Test("A run posts new-clock with the pipeline's clock, and stream-status for the source's thread")
    func clockAndThreads() async throws {
        let all = try await Self.run("videotestsrc name=src num-buffers=3 ! fakesink sync=true")
        let clocks = all.compactMap { message -> Clock? in
            if case .newClock(_, let clock?) = message { return clock }
            return nil
        }
        #expect(clocks.first?.name.isEmpty == false, "no new-clock among \(all.map(\.typeName))")
        let statuses = all.compactMap { message -> StreamStatus? in
            if case .streamStatus(_, let status) = message { return status }
            return nil
        }
        #expect(statuses.contains { $0.kind == "enter" && $0.owner == "src" }, "\(statuses)")
    }

    @Test("A live source's sink posts latency as it prerolls")
    func latency() async throws {
        let all = try await Self.run("videotestsrc is-live=true num-buffers=10 ! queue ! fakesink name=sink sync=true")
        #expect(all.contains { if case .latency("sink") = $0 { true } else { false } }, "\(all.map(\.typeName))")
    }

    @Test("A paused sink stepped by one frame posts step-done: one buffer")
    func stepDone() async throws {
        let pipeline = try Pipeline(launch: "videotestsrc ! video/x-raw,width=64,height=48 ! fakesink name=sink")
        defer { pipeline.stop() }
        let messages = pipeline.messages
        _ = try await pipeline.changeState(to: .paused, timeout: 10_000_000_000)
        let sink = try #require(pipeline.element(named: "sink"))
        #expect(sink.send(try .step(1, .buffers, rate: 1)))
        for await message in messages {
            guard case .stepDone("sink", let step, _, let eos) = message else { continue }
            #expect(step == Step(format: "buffers", amount: 1, rate: 1, flush: true, intermediate: false))
            #expect(!eos)
            return
        }
        Issue.record("no step-done")
    }

    @Test(
        "souphttpsrc's need-context arrives typed, with the context type",
        .enabled(if: MessageKindTests.has("souphttpsrc"), "needs souphttpsrc (gstreamer1.0-plugins-good)"))
    func needContext() throws {
        let pipeline = try Pipeline(launch: "souphttpsrc name=http location=http://127.0.0.1:9/ ! fakesink")
        defer { pipeline.stop() }
        let types = Locked<[String]>([])
        pipeline.setSyncHandler { posted in
            if case .needContext("http", let type) = posted.message { types.withLock { $0.append(type) } }
            return .pass
        }
        _ = try? pipeline.setState(.paused)
        #expect(types.withLock { $0 }.contains("gst.soup.session"))
    }

    @Test("Kinds no local pipeline posts are read with every field")
    func constructed() throws {
        try GStreamer.initialize()
        let app = try ElementFactory.make("fakesrc", name: "app")
        let from = app.objectPointer
        // Converted as a bus reader converts them, without posting: a pipeline would act on some itself
        // (an instant-rate request makes it seek).
        func read(_ message: UnsafeMutablePointer<GstMessage>?) throws -> Message {
            let message = try #require(message)
            defer { gst_message_unref(message) }
            return Message(message)
        }
        let progressMessage = gst_message_new_progress(from, GST_PROGRESS_TYPE_COMPLETE, "open", "Opened")
        guard case .progress("app", let progress) = try read(progressMessage) else {
            Issue.record("no progress")
            return
        }
        #expect(progress == Progress(kind: .complete, code: "open", text: "Opened"))
        guard case .requestState("app", .null) = try read(gst_message_new_request_state(from, GST_STATE_NULL)) else {
            Issue.record("no request-state")
            return
        }
        guard case .instantRateRequest("app", 2.5) = try read(gst_message_new_instant_rate_request(from, 2.5)) else {
            Issue.record("no instant-rate-request")
            return
        }
        guard case .resetTime("app", 42) = try read(gst_message_new_reset_time(from, 42)) else {
            Issue.record("no reset-time")
            return
        }
        let pad = try #require(gst_element_get_static_pad(app.pointer, "src"))
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let change = gst_message_new_structure_change(
            UnsafeMutableRawPointer(pad).assumingMemoryBound(to: GstObject.self), GST_STRUCTURE_CHANGE_TYPE_PAD_UNLINK,
            app.pointer, 1)
        guard case .structureChange("src", let structure) = try read(change) else {
            Issue.record("no structure-change")
            return
        }
        #expect(structure == StructureChange(unlinking: true, owner: "app", busy: true))
        let redirect = gst_message_new_redirect(from, "file:///elsewhere.mkv", nil, nil)
        gst_message_add_redirect_entry(redirect, "http://127.0.0.1/second.mkv", nil, nil)
        guard case .redirect("app", let entries) = try read(redirect) else {
            Issue.record("no redirect")
            return
        }
        #expect(entries.map(\.location) == ["file:///elsewhere.mkv", "http://127.0.0.1/second.mkv"])
    }
}
