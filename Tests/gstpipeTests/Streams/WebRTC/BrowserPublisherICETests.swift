import Foundation
import GstPipeWebRTC
import MediaIO
import Testing

/// `BrowserPublisher.receive(…, ice:)`, the library's publisher with the STUN and TURN servers
/// `BrowserViewers.serve` takes: the helper `BrowserViewersTone --publisher` in a network namespace,
/// read with curl as the CLI's `webrtc://` input is (`WebRTCICEServersTests.check`). The endpoint's
/// `OPTIONS` answers from the same settings the publisher's webrtcbin is configured with.
extension WebRTCICEServersTests {
    @Test("BrowserPublisher with ice: and a token: no TURN password in its page; OPTIONS with the token has it")
    func browserPublisherPage() async throws {
        let executable = BrowserViewersAudioTests.executable
        try #require(FileManager.default.isExecutableFile(atPath: executable), "build it: swift build --build-tests")
        let namespace = try await NetworkNamespace()
        let server = namespace.run(
            executable, ["--port", "8891", "--publisher", "--turn", Self.turn, "--token", Self.secret])
        guard await namespace.waitForListener(8891) else {
            let result = await server.finish(timeout: 5)
            Issue.record("BrowserViewersTone did not listen: \(result.stdout) \(result.stderr)")
            return
        }
        await Self.check(namespace, page: "http://127.0.0.1:8891/in", endpoint: "http://127.0.0.1:8891/in/whip")
        server.signal(SIGINT)
        let result = await server.finish(timeout: 30)
        #expect(result.stdout.contains("taking a publisher at http://127.0.0.1:8891/in/whip"), "\(result.stdout)")
        #expect(!(result.stdout + result.stderr).contains(Self.password), "the helper printed the TURN password")
    }
}

/// What `BrowserPublisher.receive` refuses before it listens or starts anything: no network needed.
@Suite("BrowserPublisherICETests")
struct BrowserPublisherICETests {
    /// A sink that is never given a frame.
    final class UnusedSink: VideoSink {
        var pixelFormat: VideoPixelFormat { .i420 }
        func render(_ frame: VideoFrame) throws {}
    }

    /// A source that never gives a frame (the address is refused before it is asked for one).
    final class UnusedSource: VideoSource {
        func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool { false }
        func shouldDispose() {}
    }

    @Test("A TURN server that cannot be read: BrowserPublisher.receive says which and what to write")
    func unreadableTURN() async throws {
        do {
            _ = try await BrowserPublisher.receive(
                at: "webrtc://127.0.0.1:8891/in", video: UnusedSink(), ice: BrowserICEServers(turn: "turn.example.net"))
            Issue.record("a TURN server without credentials was taken")
        } catch {
            #expect(error.message.hasPrefix("BrowserICEServers: "), "\(error.message)")
            #expect(error.message.contains("turn://USER:PASS@HOST:PORT"), "\(error.message)")
        }
    }

    @Test("An empty ?token= is an error, not a server without authentication (BrowserPublisher, BrowserViewers)")
    func emptyToken() async throws {
        do {
            _ = try await BrowserPublisher.receive(at: "webrtc://127.0.0.1:8891/in?token=", video: UnusedSink())
            Issue.record("BrowserPublisher took an empty token")
        } catch {
            #expect(error.message.contains("token= is empty"), "\(error.message)")
        }
        do {
            _ = try await BrowserViewers.serve(
                video: UnusedSource(), at: "webrtc://127.0.0.1:8890/live?codec=vp8&token=")
            Issue.record("BrowserViewers took an empty token")
        } catch {
            #expect(error.message.contains("token= is empty"), "\(error.message)")
        }
    }
}
