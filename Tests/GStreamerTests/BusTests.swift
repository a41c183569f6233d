import Foundation
import GstPipeSupport
import Synchronization
import Testing

@testable import GStreamer

@Suite("The bus: typed messages, many readers, sync handler", .bounded)
struct BusTests {
    /// Every message until end of stream or an error (included).
    static func collect(_ messages: MessageStream) async -> [Message] {
        var result: [Message] = []
        for await message in messages {
            result.append(message)
            switch message {
            case .endOfStream, .error: return result
            default: continue
            }
        }
        return result
    }

    @Test("A real run posts typed messages: state changes, stream start, async done, end of stream")
    func typedRun() async throws {
        let pipeline = try Pipeline(launch: "videotestsrc name=src num-buffers=3 ! fakesink name=sink")
        let messages = pipeline.messages
        try pipeline.play()
        let all = await BusTests.collect(messages)
        pipeline.stop()
        #expect(all.contains { if case .stateChanged("sink", .paused, .playing, _) = $0 { true } else { false } })
        #expect(
            all.contains {
                if case .streamStart(let source, let group) = $0 {
                    source == pipeline.name && group != nil
                } else {
                    false
                }
            })
        #expect(all.contains { if case .asyncDone(let source, _) = $0 { source == pipeline.name } else { false } })
        guard case .endOfStream(let source)? = all.last else {
            Issue.record("no end of stream: \(all)")
            return
        }
        #expect(source == pipeline.name)
        #expect(all.allSatisfy { $0.source != nil })
        #expect(all.last?.typeName == "eos")
    }

    @Test("Posted messages carry the element that posted them: level's own object, its properties readable")
    func postedSourceElements() async throws {
        let pipeline = try Pipeline(
            launch: "audiotestsrc num-buffers=10 ! level name=meter interval=100000000 post-messages=true ! fakesink")
        let messages = pipeline.postedMessages
        try pipeline.play()
        var meter: Element?
        var endSource: String?
        for await posted in messages {
            if case .element(let source, _) = posted.message, source == "meter" { meter = posted.sourceElement }
            if case .endOfStream(let source) = posted.message {
                endSource = posted.sourceElement?.name
                #expect(source == pipeline.name)
                break
            }
            if case .error = posted.message { break }
        }
        pipeline.stop()
        let element = try #require(meter)
        #expect(element.name == "meter")
        #expect(try element.get("interval") == .int(100_000_000))
        #expect(endSource == pipeline.name)
    }

    @Test("level's element messages carry their structure: one RMS per channel, an end time")
    func elementMessages() async throws {
        let pipeline = try Pipeline(
            launch: "audiotestsrc num-buffers=20 samplesperbuffer=4410 volume=0.5 ! audio/x-raw,channels=2,rate=44100 "
                + "! level name=meter interval=100000000 post-messages=true ! fakesink")
        let messages = pipeline.messages
        try pipeline.play()
        let all = await BusTests.collect(messages)
        pipeline.stop()
        let levels = all.compactMap { message -> Structure? in
            if case .element("meter", let structure) = message, structure.hasName("level") { return structure }
            return nil
        }
        #expect(levels.count >= 10)
        let first = try #require(levels.first)
        let rms = try #require(first.values("rms")).compactMap(\.doubleValue)
        #expect(rms.count == 2)
        // A sine at half volume: about -9 dB RMS.
        #expect(rms.allSatisfy { abs($0 - -9.03) < 0.5 }, "\(rms)")
        #expect(first.clockTime("endtime") == 100_000_000)
    }

    @Test("queue2 reports buffering percentages up to 100")
    func buffering() async throws {
        let pipeline = try Pipeline(
            launch: "audiotestsrc num-buffers=50 ! queue2 name=buffer use-buffering=true ! fakesink")
        let messages = pipeline.messages
        try pipeline.play()
        let all = await BusTests.collect(messages)
        pipeline.stop()
        let percents = all.compactMap { message -> Int? in
            if case .buffering("buffer", let percent, _) = message { return percent }
            return nil
        }
        #expect(!percents.isEmpty)
        #expect(percents.allSatisfy { (0...100).contains($0) })
        #expect(percents.last == 100)
    }

    @Test("Application messages posted from another thread arrive with their structure and source")
    func applicationMessages() async throws {
        let pipeline = try Pipeline(launch: "fakesrc name=app ! fakesink")
        _ = try pipeline.setState(.ready)  // the bus of a pipeline in NULL drops what is posted
        defer { pipeline.stop() }
        let source = try #require(pipeline.element(named: "app"))
        let messages = pipeline.messages
        let progress = try (0..<5).map { try Structure(name: "progress", fields: ["index": $0, "note": "n\($0)"]) }
        let done = try Structure(name: "done")
        let poster = Thread {
            for structure in progress { source.postApplicationMessage(structure) }
            source.postElementMessage(done)
        }
        poster.start()
        var received: [Structure] = []
        for await message in messages {
            if case .application("app", let structure) = message { received.append(structure) }
            if case .element("app", let structure) = message, structure.name == "done" { break }
        }
        #expect(received.map { $0.int("index") } == [0, 1, 2, 3, 4])
        #expect(received.map { $0.string("note") } == ["n0", "n1", "n2", "n3", "n4"])
        #expect(received.first?.name == "progress")
    }

    @Test("Two readers at once each get every message; cancelling one leaves the other reading")
    func concurrentReaders() async throws {
        let pipeline = try Pipeline(
            launch: "videotestsrc num-buffers=30 ! video/x-raw,framerate=100/1 ! fakesink sync=true")
        let first = pipeline.messages
        let second = pipeline.messages
        let third = pipeline.messages
        // The third reader stops early: its task is cancelled after its first message.
        let cancelled = Task {
            var count = 0
            for await _ in third {
                count += 1
                withUnsafeCurrentTask { $0?.cancel() }
            }
            return count
        }
        try pipeline.play()
        async let a = BusTests.collect(first)
        async let b = BusTests.collect(second)
        let (one, two) = await (a, b)
        pipeline.stop()
        #expect(await cancelled.value == 1)
        #expect(one.map(\.description) == two.map(\.description))
        guard case .endOfStream = one.last, case .endOfStream = two.last else {
            Issue.record("a reader missed end of stream")
            return
        }
        // A reader subscribed after the run gets nothing of it.
        let late = pipeline.messages
        let task = Task { () -> Int in
            var count = 0
            for await message in late {
                if case .other("gstpipe-test-end", _, _) = message { break }
                count += 1
            }
            return count
        }
        try? await Task.sleep(for: .milliseconds(50))
        task.cancel()
        #expect(await task.value == 0)
    }

    @Test("run() while a UI task reads the same pipeline's messages: both see end of stream")
    func runAndReader() async throws {
        let pipeline = try Pipeline(launch: "videotestsrc num-buffers=5 ! fakesink")
        let reader = pipeline.messages
        let watcher = Task { await BusTests.collect(reader) }
        try await pipeline.run()
        let seen = await watcher.value
        guard case .endOfStream = seen.last else {
            Issue.record("the reader missed end of stream: \(seen)")
            return
        }
    }

    @Test("A flood of messages cannot push out the error that follows it")
    func errorNeverLost() async throws {
        let pipeline = try Pipeline(launch: "filesrc name=reader location=/nonexistent/file ! fakesink")
        _ = try pipeline.setState(.ready)
        defer { pipeline.stop() }
        let source = try #require(pipeline.element(named: "reader"))
        let messages = pipeline.messages(capacity: 64)
        for index in 0..<5_000 {
            source.postApplicationMessage(try Structure(name: "flood", fields: ["index": index]))
        }
        #expect(throws: GStreamerError.self) { try pipeline.play() }
        var floods: [Int] = []
        var error: GStreamerError?
        for await message in messages {
            if case .application(_, let structure) = message, let index = structure.int("index") {
                floods.append(index)
            }
            if case .error(let failure) = message {
                error = failure
                break
            }
        }
        #expect(error?.source == "reader")
        // The oldest went; the newest stayed, in order.
        #expect(floods.count < 64)
        #expect(floods.last == 4_999)
        #expect(floods == floods.sorted())
    }

    @Test("The sync handler sees messages on the posting thread and can keep them from the readers")
    func syncHandler() async throws {
        let pipeline = try Pipeline(launch: "fakesrc name=app ! fakesink")
        _ = try pipeline.setState(.ready)
        defer { pipeline.stop() }
        let source = try #require(pipeline.element(named: "app"))
        let posterThread = Locked<pthread_t?>(nil)
        let mismatches = Atomic(0)
        let seen = Atomic(0)
        pipeline.setSyncHandler { posted in
            guard posted.typeName == "application" else { return .pass }
            seen.add(1, ordering: .relaxed)
            if let poster = posterThread.withLock({ $0 }), pthread_equal(poster, pthread_self()) == 0 {
                mismatches.add(1, ordering: .relaxed)
            }
            #expect(posted.sourceName == "app")
            #expect(posted.sourceElement?.name == "app")
            return posted.structure?.hasName("secret") == true ? .drop : .pass
        }
        let messages = pipeline.messages
        let posted = try ["secret", "public", "secret", "last"].map { try Structure(name: $0) }
        let poster = Thread {
            posterThread.withLock { $0 = pthread_self() }
            for structure in posted { source.postApplicationMessage(structure) }
        }
        poster.start()
        var names: [String] = []
        for await message in messages {
            if case .application(_, let structure) = message { names.append(structure.name) }
            if names.last == "last" { break }
        }
        #expect(names == ["public", "last"])
        let (seenCount, mismatchCount) = (seen.load(ordering: .relaxed), mismatches.load(ordering: .relaxed))
        #expect(seenCount == 4)
        #expect(mismatchCount == 0)
        pipeline.setSyncHandler(nil)
    }

    @Test(
        "need-context is answered on the posting thread, before the state change returns",
        .enabled(if: GStreamer.hasElement(named: "souphttpsrc")))
    func needContext() throws {
        let pipeline = try Pipeline(launch: "souphttpsrc name=http location=http://127.0.0.1:9/ ! fakesink")
        defer { pipeline.stop() }
        let asked = Locked<[(type: String, source: String?, sameThread: Bool)]>([])
        let caller = pthread_self()
        pipeline.setSyncHandler { posted in
            if let type = posted.neededContextType {
                asked.withLock {
                    $0.append((type, posted.sourceElement?.name, pthread_equal(caller, pthread_self()) != 0))
                }
            }
            return .pass
        }
        _ = try? pipeline.setState(.paused)
        let requests = asked.withLock { $0 }
        #expect(
            requests.contains { $0.type == "gst.soup.session" && $0.source == "http" && $0.sameThread }, "\(requests)")
    }
}
