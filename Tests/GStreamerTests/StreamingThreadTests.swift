import Foundation
import GStreamer
import Testing

/// A finished pipeline leaves no streaming thread behind: after `stop()`, after `run()`, after its release
/// (even while PAUSED), no thread of the process runs one of its tasks or carries its elements' names.
/// Each test names its elements uniquely, so the threads of the other tests running at once never count.
@Suite("Streaming threads end with their pipeline", .bounded)
struct StreamingThreadTests {
    /// Every thread of this process: its kernel id and its name.
    static func processThreads() -> [(id: Int, name: String)] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { entry in
            guard let id = Int(entry),
                let name = try? String(contentsOfFile: "/proc/self/task/\(entry)/comm", encoding: .utf8)
            else { return nil }
            return (id, name.trimmingCharacters(in: .newlines))
        }
    }

    /// The threads named after one of `elements` (GstTask names its thread "element:pad", cut to 15 bytes).
    static func threads(namedAfter elements: [String]) -> [String] {
        processThreads().map(\.name).filter { name in
            elements.contains { name.hasPrefix(String(($0 + ":").utf8.prefix(15))!) }
        }
    }

    /// Waits up to 10 s for `condition`, polling: a pipeline released while running is brought to NULL on
    /// another thread.
    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// A Matroska file of 20 frames of 64x48 JPEG, removed by the caller.
    static func clip() async throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-threads-\(UUID()).mkv").path
        try await Pipeline(
            launch: "videotestsrc num-buffers=20 ! video/x-raw,width=64,height=48 ! jpegenc ! matroskamux "
                + "! filesink location=\(path)"
        ).run()
        return path
    }

    /// A live source into a queue, playing, once both their threads are listed (the caller stops it).
    static func playingLive(source: String, queue: String) async throws -> Pipeline {
        let pipeline = try Pipeline(
            launch: "videotestsrc name=\(source) is-live=true ! queue name=\(queue) ! fakesink sync=true")
        try pipeline.play()
        #expect(try await eventually { pipeline.streamingThreads.count == 2 }, "\(pipeline.streamingThreads)")
        return pipeline
    }

    @Test("While playing, the listed threads are the process's threads named after the pipeline's elements")
    func listedWhilePlaying() async throws {
        let pipeline = try await Self.playingLive(source: "thrsrc", queue: "thrqueue")
        defer { pipeline.stop() }
        let listed = pipeline.streamingThreads
        #expect(Set(listed.map(\.element)) == ["thrsrc", "thrqueue"])
        // A thread is listed from its task's stream-status (enter) message, which GstTask posts just before
        // it names the thread: under AddressSanitizer one was seen listed while still "pool", GLib's name.
        _ = try await Self.eventually {
            let names = Dictionary(uniqueKeysWithValues: Self.processThreads().map { ($0.id, $0.name) })
            return listed.allSatisfy { names[$0.id]?.hasPrefix($0.element) == true }
        }
        let running = Dictionary(uniqueKeysWithValues: Self.processThreads().map { ($0.id, $0.name) })
        for thread in listed {
            let name = try #require(running[thread.id], "thread \(thread.id) is not one of the process's")
            #expect(name.hasPrefix(thread.element), "\(name)")
        }
        pipeline.stop()
        #expect(pipeline.streamingThreads.isEmpty, "stop() returned with \(pipeline.streamingThreads)")
        #expect(Self.threads(namedAfter: ["thrsrc", "thrqueue"]).isEmpty, "\(Self.processThreads())")
    }

    /// GStreamer posts a task's `leave` on its element's bus; an element out of its bin has none, and parsebin
    /// takes the elements of its chains out before it stops them. Their threads must not stay listed.
    @Test("An element taken out of the pipeline and then stopped: its thread is no longer listed")
    func removedThenStopped() async throws {
        let pipeline = try await Self.playingLive(source: "thrlive", queue: "thrgone")
        defer { pipeline.stop() }
        let queue = try #require(pipeline.element(named: "thrgone"))
        try pipeline.remove(queue)
        _ = try queue.setState(.null)
        #expect(pipeline.streamingThreads.map(\.element) == ["thrlive"], "\(pipeline.streamingThreads)")
        pipeline.stop()
        #expect(pipeline.streamingThreads.isEmpty, "stop() returned with \(pipeline.streamingThreads)")
    }

    @Test(
        "Demuxing, parsing and decoding a Matroska file: after run(), no thread of the pipeline runs or keeps its name",
        arguments: [
            "filesrc location=%s ! matroskademux name=thrdemux ! queue name=thrmq1 ! fakesink",
            "filesrc location=%s ! parsebin name=thrparse ! queue name=thrmq2 ! fakesink",
            "filesrc location=%s ! decodebin name=thrdecode ! queue name=thrmq3 ! fakesink",
            // decodebin3 from a filesrc, not uridecodebin3: GStreamer 1.22's uridecodebin3 now and then never
            // prerolls beside other decoding pipelines (its decodebin3 input left blocked; 6 of 2,400 runs,
            // four at once, in C), where decodebin3 alone prerolled 7,200 of 7,200 in the same mix.
            "filesrc location=%s ! decodebin3 name=thrdecode3 ! queue name=thrmq4 ! fakesink"
        ])
    func fileReaders(_ launch: String) async throws {
        let path = try await Self.clip()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pipeline = try Pipeline(launch: launch.replacingOccurrences(of: "%s", with: path))
        var seen: Set<StreamingThread> = []
        let messages = pipeline.messages
        try pipeline.play()
        var ended = false
        for await message in messages {
            seen.formUnion(pipeline.streamingThreads)
            if case .endOfStream = message {
                ended = true
                break
            }
            if case .error(let error) = message {
                Issue.record("\(error)")
                break
            }
        }
        #expect(ended)
        pipeline.stop()
        #expect(pipeline.streamingThreads.isEmpty, "stop() returned with \(pipeline.streamingThreads)")
        // Inner elements a bin names without a number ("typefind") may be another test's as well, and so
        // may a name cut to the same 15 bytes ("typefindelement3:sink" and "typefindelement12:src").
        let elements = Set(seen.map(\.element)).filter { element in
            element.hasPrefix("thr") || (element.last?.isNumber == true && (element + ":").utf8.count < 15)
        }
        #expect(!elements.isEmpty, "no streaming thread was seen")
        let left = Self.threads(namedAfter: Array(elements))
        #expect(left.isEmpty, "named after \(elements.sorted()): \(left)")
    }

    @Test("A pipeline released while PAUSED, prerolled and blocked, is brought down: its threads end")
    func releasedWhilePaused() async throws {
        let path = try await Self.clip()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var ids: [Int] = []
        do {
            let pipeline = try Pipeline(
                launch: "filesrc location=\(path) ! matroskademux name=thrpdemux ! queue name=thrpqueue ! fakesink")
            _ = try await pipeline.changeState(to: .paused, timeout: 10_000_000_000)
            #expect(try await Self.eventually { !pipeline.streamingThreads.isEmpty })
            ids = pipeline.streamingThreads.map(\.id)
        }
        #expect(!ids.isEmpty)
        let gone = try await Self.eventually { Self.threads(namedAfter: ["thrpdemux", "thrpqueue"]).isEmpty }
        #expect(gone, "\(Self.processThreads())")
    }
}
