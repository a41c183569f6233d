import Foundation
import GStreamer
import GstPipeSupport
import Synchronization
import Testing

@Suite("Discoverer and factory details: what media and elements hold, read without playing", .bounded)
struct DiscovererTests {
    /// Runs `launch` (its `%s` the file's path) to write clip.mkv in a new folder; the caller removes it.
    static func clip(_ launch: String) async throws -> (path: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("discoverer-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("clip.mkv").path
        try await Pipeline(launch: launch.replacingOccurrences(of: "%s", with: path)).run()
        return (path, directory)
    }

    @Test("A 1 s Matroska file of 160x120 H.264 at 30 fps and 2-channel 44.1 kHz Vorbis is read as such")
    func discoverFile() async throws {
        let (path, directory) = try await Self.clip(
            "videotestsrc num-buffers=30 ! video/x-raw,width=160,height=120,framerate=30/1 ! x264enc "
                + "speed-preset=ultrafast ! matroskamux name=m ! filesink location=%s "
                + "audiotestsrc num-buffers=43 samplesperbuffer=1024 ! audio/x-raw,rate=44100,channels=2 ! vorbisenc ! m."
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        let info = try await Discoverer(timeout: .seconds(10)).discover(uri: "file://" + path)
        #expect(info.isSeekable)
        #expect(!info.isLive)
        let duration = try #require(info.duration)
        #expect(duration > 950_000_000 && duration < 1_050_000_000)
        let topology = try #require(info.topology)
        #expect(topology.kind == .container)
        #expect(topology.caps?.mediaType == "video/x-matroska")
        #expect(topology.children.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.audio, .video])
        #expect(info.streams.count == 2)
        let video = try #require(info.videoStreams.first?.video)
        #expect(video.width == 160 && video.height == 120)
        #expect(video.framerate == Fraction(30, 1))
        #expect(!video.isImage)
        #expect(info.videoStreams.first?.caps?.mediaType == "video/x-h264")
        let audio = try #require(info.audioStreams.first?.audio)
        #expect(audio.channels == 2 && audio.sampleRate == 44100)
        #expect(info.audioStreams.first?.caps?.mediaType == "audio/x-vorbis")
        #expect(info.tags?.containerFormat == "Matroska")
        #expect(info.missingDecoders.isEmpty)
    }

    @Test("One discoverer shared by four tasks and by four threads at once reads the file for each")
    func sharedDiscoverer() async throws {
        let (path, directory) = try await Self.clip(
            "videotestsrc num-buffers=15 ! video/x-raw,width=96,height=64,framerate=15/1 ! x264enc "
                + "speed-preset=ultrafast ! matroskamux ! filesink location=%s")
        defer { try? FileManager.default.removeItem(at: directory) }
        let discoverer = try Discoverer(timeout: .seconds(20))
        let uri = "file://" + path
        // GstDiscoverer refused a second URI while it handled one ("Already handling a uri").
        let widths = try await withThrowingTaskGroup(of: Int?.self) { group in
            for _ in 0..<4 {
                group.addTask { try await discoverer.discover(uri: uri).videoStreams.first?.video?.width }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(widths == [96, 96, 96, 96])
        let fromThreads = Locked<[Int]>([])
        let threads = (0..<4).map { _ in
            Thread {
                let width = (try? discoverer.discover(uri: uri))?.videoStreams.first?.video?.width ?? -1
                fromThreads.withLock { $0.append(width) }
            }
        }
        threads.forEach { $0.start() }
        let deadline = ContinuousClock.now + .seconds(60)
        while fromThreads.withLock({ $0.count }) < 4 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(fromThreads.withLock { $0 } == [96, 96, 96, 96])
    }

    @Test("A missing file is an error naming the URI")
    func missingFile() throws {
        do {
            _ = try Discoverer().discover(uri: "file:///nonexistent/clip.mkv")
            Issue.record("a missing file was discovered")
        } catch {
            #expect(error.source == "file:///nonexistent/clip.mkv")
        }
    }

    @Test(
        "Factory details without an element: audiotestsrc's src template is always, raw audio; tee's src_%u on request")
    func factoryDetails() throws {
        let source = try ElementFactory.details(of: "audiotestsrc")
        #expect(source.longName == "Audio test source")
        #expect(source.classification == "Source/Audio")
        let template = try #require(source.padTemplates.first)
        #expect(source.padTemplates.count == 1)
        #expect(template.name == "src" && template.direction == .source && template.presence == .always)
        #expect(template.caps.structures.allSatisfy { $0.name == "audio/x-raw" })
        let tee = try ElementFactory.details(of: "tee")
        #expect(tee.padTemplates.contains { $0.name == "src_%u" && $0.presence == .request && $0.caps.isAny })
        #expect(throws: GStreamerError.self) { try ElementFactory.details(of: "nosuchelement") }
    }

    @Test("A pad's caps: its template's before linking, one fixed format once negotiated")
    func padCaps() throws {
        let pipeline = try Pipeline(launch: "audiotestsrc name=src ! audio/x-raw,rate=22050,channels=1 ! fakesink")
        let pad = try #require(pipeline.element(named: "src")?.pad(named: "src"))
        #expect(pad.currentCaps == nil)
        #expect(!pad.queryCaps().isFixed)
        try pipeline.setState(.paused, timeout: 5_000_000_000)
        defer { pipeline.stop() }
        let caps = try #require(pad.currentCaps)
        #expect(caps.isFixed)
        #expect(caps.int("rate") == 22050 && caps.int("channels") == 1)
        #expect(pad.template?.caps.canIntersect(caps) == true)
    }
}
