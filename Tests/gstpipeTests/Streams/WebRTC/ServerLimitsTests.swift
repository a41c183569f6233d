import Foundation
import Testing

/// The WebRTC server's limits with a real slow client (`scripts/slow-requests.py`) against a
/// `webrtc://` input, the limits made short by `GSTPIPE_WEBRTC_LIMITS` so that the test takes
/// seconds, on the CLI's input and on the library's `BrowserPublisher` (`BrowserViewersTone
/// --publisher`): a request's whole time, connections per address, the close after a 401 without reading
/// the body, a publisher that never connects giving its place up, and one that connects and sends nothing
/// (on the CLI's, an aiortc peer). In a network namespace.
@Suite(
    "ServerLimitsTests",
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"))
struct ServerLimitsTests {
    static let script = Repository.url("scripts/slow-requests.py").path

    static let limits = "GSTPIPE_WEBRTC_LIMITS=request=3,per-address=4,connect=2"
    static let secret = "slow-client-secret-4f1"

    @Test("gstpipe's webrtc:// input: a slow body cut at the limit, a 5th connection refused, 401 closes, 409 ends")
    func input() async throws {
        try await check(leaving: "did not connect within 2 s; waiting for another") { namespace in
            namespace.run(
                "/usr/bin/env",
                [
                    Self.limits, CLI.binary.path, "--timeout", "40", "webrtc://127.0.0.1:8891/in?token=\(Self.secret)",
                    "!", "gray", "!", "fakesink"
                ])
        }
    }

    @Test("The library's BrowserPublisher: the same limits, and the place freed from a publisher that never connects")
    func library() async throws {
        let executable = BrowserViewersAudioTests.executable
        try #require(FileManager.default.isExecutableFile(atPath: executable), "build it: swift build --build-tests")
        try await check(leaving: "the publisher left: it did not connect within 2 s") { namespace in
            namespace.run(
                "/usr/bin/env", [Self.limits, executable, "--port", "8891", "--publisher", "--token", Self.secret])
        }
    }

    @Test("The library's BrowserPublisher: a publisher that connects and sends nothing gives its place up")
    func silentPublisher() async throws {
        let executable = BrowserViewersAudioTests.executable
        try #require(FileManager.default.isExecutableFile(atPath: executable), "build it: swift build --build-tests")
        let namespace = try await NetworkNamespace()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("publisher-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let server = namespace.run(
            "/bin/sh",
            [
                // Line-buffered, so that the notes are there to read while it runs.
                "-c", "exec \"$0\" \"$@\" >\(log.path) 2>&1", "/usr/bin/env", "GSTPIPE_WEBRTC_LIMITS=silence=2",
                "/usr/bin/stdbuf", "-oL", executable, "--port", "8891", "--publisher", "--token", Self.secret
            ])
        #expect(await namespace.waitForListener(8891))
        let whip = "whip+http://127.0.0.1:8891/in/whip?token=\(Self.secret)"
        // One frame every 30 s: the first has the offer made, and the connection then carries nothing.
        let silent = namespace.run(
            CLI.binary.path, ["videotestsrc", "is-live=true", "!", "video/x-raw,framerate=1/30", "!", whip])
        let dropped = await ReconnectTests.waitFor("it sent no media for 2 s", count: 1, in: log, timeout: 30)
        #expect(dropped, "\(ReconnectTests.read(log))")
        // The place is free, and a publisher that sends keeps it past the limit, until it leaves.
        let sending = namespace.run(CLI.binary.path, ["videotestsrc", "is-live=true", "!", whip])
        #expect(await ReconnectTests.waitFor("a publisher came", count: 2, in: log, timeout: 30))
        try await Task.sleep(for: .seconds(3))
        sending.signal(SIGINT)
        #expect(await ReconnectTests.waitFor("the publisher left: it left", count: 1, in: log, timeout: 20))
        silent.signal(SIGINT)
        _ = await silent.finish(timeout: 10)
        _ = await sending.finish(timeout: 10)
        server.signal(SIGINT)
        _ = await server.finish(timeout: 20)
        let notes = ReconnectTests.read(log)
        #expect(notes.components(separatedBy: "the publisher left: it sent no media").count - 1 == 1, "\(notes)")
        #expect(notes.components(separatedBy: "a publisher came").count - 1 == 2, "\(notes)")
        #expect(!notes.contains(Self.secret), "\(notes)")
    }

    /// A WHIP publisher (aiortc) that offers video, connects (ICE and DTLS) and sends nothing: `URL SECONDS`.
    /// It prints each state of its connection.
    static let silentPeer = """
        import asyncio, sys, urllib.request
        import aioice.ice
        # Loopback alone in the test's namespace: aioice leaves 127.0.0.1 out of its host candidates.
        aioice.ice.get_host_addresses = lambda use_ipv4, use_ipv6: ["127.0.0.1"]
        from aiortc import RTCPeerConnection, RTCSessionDescription

        async def main(url, seconds):
            pc = RTCPeerConnection()
            pc.addTransceiver("video", direction="sendonly")
            pc.on("connectionstatechange", lambda: print(pc.connectionState, flush=True))
            await pc.setLocalDescription(await pc.createOffer())
            request = urllib.request.Request(
                url, data=pc.localDescription.sdp.encode(), headers={"Content-Type": "application/sdp"}, method="POST")
            answer = urllib.request.urlopen(request, timeout=20).read().decode()
            await pc.setRemoteDescription(RTCSessionDescription(sdp=answer, type="answer"))
            await asyncio.sleep(seconds)

        asyncio.run(main(sys.argv[1], float(sys.argv[2])))
        """

    @Test(
        "gstpipe's webrtc:// input: a publisher that connects and sends nothing gives its place up; the next records",
        .aiortc)
    func silentPublisherOnTheInput() async throws {
        let namespace = try await NetworkNamespace()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("silent-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("gstpipe.log")
        let recording = folder.appendingPathComponent("in.mkv")
        let server = namespace.run(
            "/bin/sh",
            [
                "-c", "exec \"$0\" \"$@\" 2>\(log.path)", "/usr/bin/env", "GSTPIPE_WEBRTC_LIMITS=silence=2",
                CLI.binary.path, "webrtc://127.0.0.1:8891/in", "!", "gray", "!", recording.path
            ])
        #expect(await namespace.waitForListener(8891))
        let whip = "whip+http://127.0.0.1:8891/in/whip"
        let silent = namespace.run(
            WHIPClientTests.python, ["-c", Self.silentPeer, "http://127.0.0.1:8891/in/whip", "60"])
        let dropped = await ReconnectTests.waitFor(
            "the publisher left: it sent no video for 2 s; waiting for another", count: 1, in: log, timeout: 30)
        #expect(dropped, "\(ReconnectTests.read(log))")
        // The place is free: a publisher that sends is taken, recorded, and its leaving ends the run.
        let sending = namespace.run(
            CLI.binary.path,
            ["videotestsrc", "is-live=true", "num-buffers=90", "!", "video/x-raw,framerate=30/1", "!", whip])
        #expect(await ReconnectTests.waitFor("a publisher came", count: 2, in: log, timeout: 30))
        let sent = await sending.finish(timeout: 30)
        let result = await server.finish(timeout: 30)
        silent.signal(SIGINT)
        let notes = ReconnectTests.read(log)
        let states = await silent.finish(timeout: 10).stdout
        #expect(states.hasPrefix("connecting\nconnected\n"), "the silent publisher: \(states)")
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(result.status == 0, "\(notes)")
        #expect(notes.components(separatedBy: "it sent no video").count - 1 == 1, "\(notes)")
        #expect(notes.contains("the publisher left: it left; ending the stream"), "\(notes)")
        let frames = try ReconnectTests.packets(of: "v", in: recording).count
        #expect(frames >= 30, "\(frames) frames recorded")
    }

    /// `scripts/slow-requests.py` against the server `start` runs on 127.0.0.1:8891 (SIGINT ends it),
    /// whose notes must say `leaving` once the first publisher is dropped.
    func check(leaving: String, _ start: (NetworkNamespace) -> Spawned) async throws {
        let namespace = try await NetworkNamespace()
        let offer = FileManager.default.temporaryDirectory.appendingPathComponent("offer-\(UUID().uuidString).sdp")
        try WebRTCInputTests.offer.write(to: offer, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: offer) }
        let server = start(namespace)
        guard await namespace.waitForListener(8891) else {
            let result = await server.finish(timeout: 5)
            Issue.record("the server did not listen: \(result.stdout) \(result.stderr)")
            return
        }
        let client = await namespace.run("/usr/bin/python3", [Self.script, "8891", Self.secret, offer.path])
            .finish(timeout: 60)
        server.signal(SIGINT)
        let result = await server.finish(timeout: 20)
        let report = (try? JSONSerialization.jsonObject(with: Data(client.stdout.utf8))) as? [String: Any] ?? [:]
        let output = result.stdout + result.stderr
        let comment = Comment(rawValue: "\(client.stdout) \(client.stderr) \(output)")
        #expect(report["perAddress"] as? Int == 2, comment)
        #expect((report["otherAddress"] as? String)?.hasPrefix("HTTP/1.1 200") == true, comment)
        let slow = report["slowBody"] as? Double ?? 0
        #expect(slow >= 2 && slow <= 6, comment)
        #expect((report["status401"] as? String)?.hasPrefix("HTTP/1.1 401") == true, comment)
        #expect(report["after401"] as? Double ?? 99 < 1.5, comment)
        let publishers = (report["publishers"] as? [String] ?? []).map { $0.prefix(12) }
        #expect(publishers == ["HTTP/1.1 201", "HTTP/1.1 409", "HTTP/1.1 201"], comment)
        #expect(output.contains(leaving), comment)
        #expect(!output.contains(Self.secret), comment)
    }
}
