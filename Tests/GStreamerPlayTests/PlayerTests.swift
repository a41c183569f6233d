import Foundation
import GStreamer
import GStreamerPlay
import Testing

@Suite("Player: GstPlay from Swift, headless with fakesinks", .bounded)
struct PlayerTests {
    /// One frame of the clips, at 30 fps.
    static let frame: ClockTime = 33_333_333

    /// Writes a clip (`%s` in `launch` is its path) into a new folder; the caller removes the folder.
    static func clip(_ name: String, _ launch: String) async throws -> (path: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("player-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        try await Pipeline(launch: launch.replacingOccurrences(of: "%s", with: path)).run()
        return (path, directory)
    }

    /// 1 s of 320x240 H.264 at 30 fps with 2-channel 48 kHz AAC in MP4.
    static func mp4() async throws -> (path: String, directory: URL) {
        try await clip(
            "clip.mp4",
            "videotestsrc num-buffers=30 ! video/x-raw,width=320,height=240,framerate=30/1 ! x264enc "
                + "speed-preset=ultrafast key-int-max=10 ! mp4mux name=m ! filesink location=%s "
                + "audiotestsrc num-buffers=47 samplesperbuffer=1024 ! audio/x-raw,rate=48000,channels=2 "
                + "! audioconvert ! avenc_aac ! m.")
    }

    /// Sinks that keep time (as a display and a sound card would), so playback takes the clip's length.
    static func player(_ path: String, accurateSeeks: Bool = false) throws -> Player {
        let video = try Element(factory: "fakesink")
        try video.set("sync", true)
        let audio = try Element(factory: "fakesink")
        try audio.set("sync", true)
        return try Player(
            path: path, videoSink: video, audioSink: audio, positionUpdateInterval: .milliseconds(50),
            accurateSeeks: accurateSeeks)
    }

    @Test("A listener that comes after the player was made gets its URI first (GstPlay posted it at once)")
    func lateListenerGetsTheURI() async throws {
        let (path, directory) = try await Self.mp4()
        defer { try? FileManager.default.removeItem(at: directory) }
        let player = try Self.player(path)
        // Long after GstPlay's thread loaded the URI: a sequence made now missed its URI_LOADED (seen under
        // ThreadSanitizer, where the test reached `events` after GstPlay's thread had posted it).
        try await Task.sleep(for: .seconds(1))
        var iterator = player.events.makeAsyncIterator()
        player.play()
        let first = await iterator.next()
        player.stop()
        #expect({ if case .uriLoaded(player.uri) = first { true } else { false } }(), "\(String(describing: first))")
    }

    @Test("An MP4 plays to its end: end of stream, last position within two frames of the duration, media info")
    func playsToTheEnd() async throws {
        let (path, directory) = try await Self.mp4()
        defer { try? FileManager.default.removeItem(at: directory) }
        let player = try Self.player(path)
        #expect(player.uri == "file://" + path)
        var events: [Player.Event] = []
        let stream = player.events
        player.play()
        for await event in stream {
            events.append(event)
            if case .endOfStream = event { break }
            if case .error(let error) = event { Issue.record("error: \(error)") }
        }
        let positions = events.compactMap { if case .positionUpdated(let at) = $0 { at } else { nil } }
        let durations = events.compactMap { if case .durationChanged(let length) = $0 { length } else { nil } }
        let duration = try #require(durations.last)
        #expect(duration > 950_000_000 && duration < 1_100_000_000, "duration \(duration)")
        let last = try #require(positions.last)
        #expect(last + 2 * Self.frame >= duration && last <= duration + 2 * Self.frame, "last \(last) of \(duration)")
        // Played in real time: positions climbed through the clip, not in one jump.
        #expect(positions.count >= 5, "\(positions.count) position updates")
        #expect(events.contains { if case .stateChanged(.playing) = $0 { true } else { false } })
        #expect(events.contains { if case .videoDimensionsChanged(320, 240) = $0 { true } else { false } })
        #expect(events.contains { if case .uriLoaded(player.uri) = $0 { true } else { false } })

        let info = try #require(player.mediaInfo)
        #expect(info.uri == player.uri)
        #expect(info.isSeekable)
        #expect(!info.isLive)
        #expect(info.containerFormat?.contains("MP4") == true, "container \(info.containerFormat ?? "none")")
        let video = try #require(info.videoStreams.first)
        #expect(video.video?.width == 320 && video.video?.height == 240)
        #expect(video.video?.framerate == Fraction(30, 1))
        #expect(video.codec?.contains("H.264") == true, "video codec \(video.codec ?? "none")")
        let audio = try #require(info.audioStreams.first)
        #expect(audio.audio?.channels == 2 && audio.audio?.sampleRate == 48000)
        #expect(audio.codec?.contains("AAC") == true, "audio codec \(audio.codec ?? "none")")
        #expect(info.streams.count == 2)
        #expect(info.tags?.containerFormat == info.containerFormat)
    }

    @Test("playUntilEnd returns at the end of a WebM file (VP8 and Opus), whose media info names both codecs")
    func playUntilEnd() async throws {
        let (path, directory) = try await Self.clip(
            "clip.webm",
            "videotestsrc num-buffers=15 ! video/x-raw,width=160,height=90,framerate=30/1 ! vp8enc deadline=1 "
                + "! webmmux name=m ! filesink location=%s audiotestsrc num-buffers=24 samplesperbuffer=960 "
                + "! audio/x-raw,rate=48000,channels=1 ! audioconvert ! opusenc ! m.")
        defer { try? FileManager.default.removeItem(at: directory) }
        let player = try Self.player(path)
        let started = ContinuousClock.now
        try await player.playUntilEnd()
        // Half a second of media, played in time by sinks that sync.
        #expect(ContinuousClock.now - started >= .milliseconds(400))
        let info = try #require(player.mediaInfo)
        #expect(info.videoStreams.first?.video?.width == 160 && info.videoStreams.first?.video?.height == 90)
        #expect(info.videoStreams.first?.codec?.contains("VP8") == true)
        #expect(info.audioStreams.first?.audio?.channels == 1)
        #expect(info.audioStreams.first?.codec?.contains("Opus") == true)
    }

    @Test("Two audio streams tagged English and French: the media info gives each its language by name and by code")
    func languages() async throws {
        let audio = ["en", "fr"].map { language in
            "audiotestsrc num-buffers=10 samplesperbuffer=4410 ! audio/x-raw,rate=44100,channels=1 "
                + "! taginject tags=\"language-code=\(language)\" ! audioconvert ! vorbisenc ! m. "
        }
        let (path, directory) = try await Self.clip(
            "clip.mkv",
            "videotestsrc num-buffers=30 ! video/x-raw,width=96,height=64,framerate=30/1 ! x264enc "
                + "speed-preset=ultrafast ! matroskamux name=m ! filesink location=%s " + audio.joined())
        defer { try? FileManager.default.removeItem(at: directory) }
        let player = try Self.player(path)
        let stream = player.events
        player.pause()
        let event = try await Self.wait(for: stream) {
            if case .mediaInfoUpdated(let info) = $0 { info.audioStreams.count == 2 } else { false }
        }
        guard case .mediaInfoUpdated(let info) = event else { return }
        // GstPlay names the language; the code stays in the tags, and in the Discoverer's audio details.
        #expect(info.audioStreams.map(\.language) == ["English", "French"], "\(info.audioStreams.map(\.language))")
        #expect(info.audioStreams.map { $0.audio?.language } == ["en", "fr"])
        #expect(info.audioStreams.allSatisfy { $0.audio?.channels == 1 && $0.audio?.sampleRate == 44100 })
        #expect(info.containerFormat == "Matroska")
        #expect(info.videoStreams.first?.video?.width == 96)
    }

    @Test("Seeking to the middle while paused: SEEK_DONE and the position are within two frames of it")
    func seekToTheMiddle() async throws {
        let (path, directory) = try await Self.mp4()
        defer { try? FileManager.default.removeItem(at: directory) }
        let player = try Self.player(path, accurateSeeks: true)
        let stream = player.events
        player.pause()
        try await Self.wait(for: stream) { if case .stateChanged(.paused) = $0 { true } else { false } }
        player.seek(to: 500_000_000)
        let done = try await Self.wait(for: stream) { if case .seekDone = $0 { true } else { false } }
        // Both where SEEK_DONE says the seek landed and where the player then is.
        guard case .seekDone(let landed) = done else { return }
        let reached = try #require(landed, "SEEK_DONE carried no position")
        let position = try #require(player.position)
        for at in [reached, position] {
            #expect(at + 2 * Self.frame >= 500_000_000 && at <= 500_000_000 + 2 * Self.frame, "at \(at)")
        }
        // From there, the rest plays to the end.
        try await player.playUntilEnd()
    }

    @Test("A missing file gives an error event and playUntilEnd throws, both naming what is wrong")
    func missingFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID()).mp4").path
        let player = try Self.player(path)
        let stream = player.events
        do {
            try await player.playUntilEnd()
            Issue.record("a missing file played")
        } catch let error as GStreamerError {
            #expect(error.message.contains(player.uri), "\(error.message)")
            #expect(error.message.contains("no such file: \(path)"), "\(error.message)")
            #expect(error.domain == "gst-play-error-quark", "\(error)")
        }
        let event = try await Self.wait(for: stream) { if case .error = $0 { true } else { false } }
        if case .error(let error) = event { #expect(!error.message.isEmpty) }
    }

    @Test("Paused, the position holds still; resumed, it plays on to the end")
    func pauseAndResume() async throws {
        let (path, directory) = try await Self.mp4()
        defer { try? FileManager.default.removeItem(at: directory) }
        let player = try Self.player(path)
        let stream = player.events
        player.play()
        try await Self.wait(for: stream) { if case .positionUpdated(let at) = $0 { at >= 200_000_000 } else { false } }
        player.pause()
        try await Self.wait(for: stream) { if case .stateChanged(.paused) = $0 { true } else { false } }
        #expect(player.state == .paused)
        let held = try #require(player.position)
        try await Task.sleep(for: .milliseconds(400))
        let later = try #require(player.position)
        #expect(later == held, "moved from \(held) to \(later) while paused")
        #expect(held < 900_000_000)
        try await player.playUntilEnd()
    }

    @Test("Volume, mute and rate are read back as set, and a URI that is none is refused naming it")
    func controls() throws {
        let player = try Player(uri: "file:///nowhere/clip.mp4", videoSink: Element(factory: "fakesink"))
        player.volume = 0.25
        #expect(abs(player.volume - 0.25) < 0.001)
        player.isMuted = true
        #expect(player.isMuted)
        player.rate = 2
        #expect(player.rate == 2)
        #expect((player.position ?? 0) == 0)
        #expect(player.mediaInfo == nil)
        #expect(throws: GStreamerError.self) { try Player(uri: "not a uri") }
        do {
            _ = try Player(uri: "not a uri")
        } catch {
            #expect(error.kind == .invalidArgument && error.message.contains("\"not a uri\""))
        }
    }

    /// The first event of `stream` that `matches`, within 20 s (a loaded machine is slow, never this slow).
    @discardableResult
    static func wait(
        for stream: AsyncStream<Player.Event>, _ matches: @escaping @Sendable (Player.Event) -> Bool
    ) async throws -> Player.Event {
        try await events(of: stream, through: matches).last!
    }

    /// The events of `stream` up to and with the first that `isLast` matches, within 20 s.
    static func events(
        of stream: AsyncStream<Player.Event>, through isLast: @escaping @Sendable (Player.Event) -> Bool
    ) async throws -> [Player.Event] {
        try await withThrowingTaskGroup(of: [Player.Event]?.self) { group in
            group.addTask {
                var events: [Player.Event] = []
                for await event in stream {
                    events.append(event)
                    if isLast(event) { return events }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(20))
                return nil
            }
            defer { group.cancelAll() }
            guard let events = try await group.next() ?? nil else {
                throw GStreamerError(kind: .runtime, message: "the awaited event did not come within 20 s")
            }
            return events
        }
    }
}

@Suite("Player: closing and releasing end the event sequences without waiting for GstPlay", .bounded)
struct PlayerReleaseTests {
    @Test("close() and releasing a playing player each end every event sequence")
    func closeAndRelease() async throws {
        let (path, directory) = try await PlayerTests.mp4()
        defer { try? FileManager.default.removeItem(at: directory) }
        for closes in [true, false] {
            var player: Player? = try PlayerTests.player(path)
            let stream = try #require(player?.events)
            player?.play()
            try await PlayerTests.wait(for: stream) { if case .positionUpdated(let at) = $0 { at > 0 } else { false } }
            let reader = Task {
                var count = 0
                for await _ in stream { count += 1 }
                return count
            }
            let started = ContinuousClock.now
            if closes { player?.close() }
            player = nil
            // The release hands GstPlay's teardown (joining its thread, playbin to NULL) to a thread of
            // its own: here it returns at once, and the sequence ends though the clip had more to play.
            _ = await reader.value
            // A sequence left open would never end (the suite's time limit would end it); a machine loaded
            // by parallel builds took 11 s to tear the player down.
            #expect(ContinuousClock.now - started < .seconds(30), "closing took \(ContinuousClock.now - started)")
        }
    }
}
