import Foundation
import GStreamer
import Testing

@testable import GStreamerPlay

@Suite("Player: playUntilEnd ends when the player is stopped or closed, and messages hide the URI's secrets", .bounded)
struct PlayerInterruptTests {
    @Test("stop() from elsewhere while playUntilEnd plays makes it throw Interrupted(.stopped), not wait forever")
    func stopEndsPlayUntilEnd() async throws {
        // 15 s, so that the stop comes long before the end even on a loaded machine (with the 1 s clip,
        // CI's run reached the end first).
        let (path, directory) = try await PlayerTests.clip(
            "long.mp4",
            "videotestsrc num-buffers=450 ! video/x-raw,width=160,height=120,framerate=30/1 ! x264enc "
                + "speed-preset=ultrafast ! mp4mux ! filesink location=%s")
        defer { try? FileManager.default.removeItem(at: directory) }
        let player = try PlayerTests.player(path)
        let stream = player.events
        let playing = Task { try await player.playUntilEnd() }
        try await PlayerTests.wait(for: stream) { if case .positionUpdated(let at) = $0 { at > 0 } else { false } }
        player.stop()
        // GstPlay posts no end of stream after a stop: should playUntilEnd miss the stop, this closes the
        // player long after, so that the test fails (the reason would be .closed) rather than hangs.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(20))
            player.close()
        }
        defer { watchdog.cancel() }
        let started = ContinuousClock.now
        do {
            try await playing.value
            Issue.record("playUntilEnd returned as if the clip had played to its end")
        } catch let error as Player.Interrupted {
            #expect(error.reason == .stopped, "\(error)")
            #expect(error.description == "the player of \(player.uri) was stopped before the end")
        }
        #expect(ContinuousClock.now - started < .seconds(15), "ending took \(ContinuousClock.now - started)")
        #expect(player.state == .stopped)
    }

    @Test("playUntilEnd on a closed player throws Interrupted(.closed) at once, and playback never starts")
    func closedPlayerDoesNotPlay() async throws {
        let (path, directory) = try await PlayerTests.mp4()
        defer { try? FileManager.default.removeItem(at: directory) }
        let player = try PlayerTests.player(path)
        player.close()
        #expect(player.isClosed)
        await #expect(throws: Player.Interrupted(reason: .closed, uri: player.uri)) { try await player.playUntilEnd() }
        // Had it called play(), GstPlay would be a few frames in by now.
        try await Task.sleep(for: .milliseconds(500))
        #expect((player.position ?? 0) == 0, "playing at \(player.position ?? 0) after close()")
    }

    @Test("A missing file's error names its URI and path with the token written ***, never the token")
    func missingFileHidesToken() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID()).mp4").path
        let player = try Player(uri: "file://\(path)?token=s3cr3t-t0ken", videoSink: Element(factory: "fakesink"))
        do {
            try await player.playUntilEnd()
            Issue.record("a missing file played")
        } catch let error as GStreamerError {
            #expect(error.message.contains("file://\(path)?token=***"), "\(error.message)")
            #expect(!error.message.contains("s3cr3t"), "\(error.message)")
            #expect(error.debug?.contains("s3cr3t") != true, "\(error.debug ?? "")")
        }
    }

    @Test("A URI that is none is refused naming it with its password written ***")
    func invalidURIHidesPassword() throws {
        do {
            _ = try Player(uri: "1rtsp://alice:secret@127.0.0.1:1/x")
            Issue.record("an invalid URI was taken")
        } catch {
            #expect(error.message.contains("\"1rtsp://alice:***@127.0.0.1:1/x\" is not a URI"), "\(error.message)")
            #expect(!error.message.contains("secret"), "\(error.message)")
        }
    }

    @Test(
        "URISecrets hides a user-info password and token-like parameters, keeping the rest of the URI",
        arguments: [
            ("rtsp://alice:secret@127.0.0.1:1/x", "rtsp://alice:***@127.0.0.1:1/x"),
            ("https://h/p?a=1&access_token=abc&b=2#password=xyz", "https://h/p?a=1&access_token=***&b=2#password=***"),
            ("http://user@h/p?key=k1", "http://user@h/p?key=***"),
            ("file:///clip.mp4", "file:///clip.mp4")
        ])
    func redactsURIs(uri: String, expected: String) {
        let secrets = URISecrets(uri: uri)
        #expect(secrets.redactedURI == expected)
        #expect(secrets.redact("could not play \(uri): oops") == "could not play \(expected): oops")
    }
}
