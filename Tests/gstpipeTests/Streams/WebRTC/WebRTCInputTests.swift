import Foundation
import Testing

/// `gstpipe webrtc://HOST:PORT/PATH ! … ! out.mkv` with headless Chromium as the publisher (its fake
/// camera and beeping microphone, through WHIP from a page on another origin), and curl for what
/// the WHIP endpoint refuses; each test in a network namespace of its own with loopback alone.
@Suite(
    "WebRTCInputTests", .serialized,
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"))
struct WebRTCInputTests {
    static let endpoint = "http://127.0.0.1:8891/in/whip"

    /// gstpipe recording what is published at webrtc://127.0.0.1:8891/in through `description`.
    private static func record(
        in namespace: NetworkNamespace, _ description: [String], timeout: String = "60", options: [String] = []
    ) async throws -> Spawned {
        let server = namespace.run(
            CLI.binary.path, options + ["--timeout", timeout, "webrtc://127.0.0.1:8891/in", "!"] + description)
        guard await namespace.waitForListener(8891) else {
            let result = await server.finish(timeout: 5)
            Issue.record("gstpipe did not listen: \(result.stderr)")
            throw NetworkNamespace.NamespaceError(message: "no server")
        }
        return server
    }

    /// A publisher's offer, as Chromium writes it (shortened): Opus audio and VP8 video, both sent.
    static let offer = [
        "v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0 1",
        "m=audio 9 UDP/TLS/RTP/SAVPF 111", "c=IN IP4 0.0.0.0", "a=ice-ufrag:Yq3v",
        "a=ice-pwd:2c1r8m1Ly3p0bG0Y2wJ2n8Xb",
        "a=fingerprint:sha-256 9B:2A:55:07:61:3A:0E:D7:5B:64:7F:1F:12:25:6E:7F:E6:0A:7C:3E:61:1D:C5:6D:AA:BB:CC:DD:"
            + "EE:FF:00:11",
        "a=setup:actpass", "a=mid:0", "a=sendonly", "a=rtcp-mux", "a=rtpmap:111 opus/48000/2",
        "m=video 9 UDP/TLS/RTP/SAVPF 96", "c=IN IP4 0.0.0.0", "a=ice-ufrag:Yq3v", "a=ice-pwd:2c1r8m1Ly3p0bG0Y2wJ2n8Xb",
        "a=fingerprint:sha-256 9B:2A:55:07:61:3A:0E:D7:5B:64:7F:1F:12:25:6E:7F:E6:0A:7C:3E:61:1D:C5:6D:AA:BB:CC:DD:"
            + "EE:FF:00:11",
        "a=setup:actpass", "a=mid:1", "a=sendonly", "a=rtcp-mux", "a=rtpmap:96 VP8/90000", ""
    ].joined(separator: "\r\n")

    /// The first video frame of `file` at `seconds`, as packed RGB bytes (ffmpeg decodes it).
    private static func rgbFrame(of file: URL, at seconds: Double) async -> [UInt8] {
        let raw = file.deletingPathExtension().appendingPathExtension("rgb")
        let ffmpeg = try? Spawned(
            "/usr/bin/ffmpeg",
            // -ss after -i: a live recording's Matroska has no index to seek in.
            [
                "-v", "error", "-nostdin", "-y", "-i", file.path, "-ss", "\(seconds)", "-frames:v", "1", "-f",
                "rawvideo",
                "-pix_fmt", "rgb24", raw.path
            ])
        let result = await ffmpeg?.finish(timeout: 30)
        if result?.status != 0 { Issue.record("ffmpeg could not decode a frame: \(result?.stderr ?? "")") }
        return (try? Data(contentsOf: raw)).map { Array($0) } ?? []
    }

    /// The loudest sample of `file`'s audio in dB below full scale, as FFmpeg's volumedetect reads it.
    private static func loudest(of file: URL) async -> Double? {
        let ffmpeg = try? Spawned(
            "/usr/bin/ffmpeg", ["-nostdin", "-i", file.path, "-map", "0:a", "-af", "volumedetect", "-f", "null", "-"])
        guard let result = await ffmpeg?.finish(timeout: 30),
            let line = result.stderr.split(separator: "\n").first(where: { $0.contains("max_volume:") })
        else { return nil }
        return line.split(separator: " ").dropLast().last.flatMap { Double($0) }
    }

    @Test(
        "Chromium publishes camera and microphone by WHIP; the recording is gray with sound, finished on DELETE",
        .browser, .enabled(if: FFProbe.isInstalled, "ffprobe is not installed"))
    func browserRecordedInGray() async throws {
        let namespace = try await NetworkNamespace()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-whip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.mkv")
        let server = try await Self.record(in: namespace, ["gray", "!", output.path])
        let session = try await BrowserSession(
            in: namespace, query: "endpoint=\(Self.endpoint)&publish=4", page: WebRTCPublisherTestPage.html)
        let report = await session.result(named: "report", timeout: 120)
        await session.close()
        // The DELETE ends the stream: gstpipe finishes the file and exits by itself.
        let result = await server.finish(timeout: 60)
        let comment = Comment(rawValue: "\(report ?? [:])\n\(result.stderr)")
        #expect(report?["error"] == nil, comment)
        #expect(report?["status"] as? Int == 201, comment)
        #expect((report?["location"] as? String)?.hasPrefix("/in/whip/") == true, comment)
        #expect((report?["candidates"] as? Int ?? 0) >= 1, comment)
        #expect(report?["connected"] as? Bool == true, comment)
        #expect(report?["secondStatus"] as? Int == 409, comment)
        #expect((report?["secondBody"] as? String)?.contains("another publisher is live") == true, comment)
        #expect(report?["deleteStatus"] as? Int == 200, comment)
        #expect(result.status == 0, comment)
        #expect(result.stderr.contains("open http://127.0.0.1:8891/in in a browser"), comment)
        #expect(result.stderr.contains("WHIP endpoint http://127.0.0.1:8891/in/whip"), comment)
        #expect(result.stderr.contains("a publisher came, sending audio and video"), comment)
        #expect(result.stderr.contains("the publisher left: it left; ending the stream"), comment)

        let probe = try FFProbe(output)
        #expect(probe.video.count == 1 && probe.audio.count == 1, comment)
        // Four seconds published; the connection's start and end cost some of them.
        let duration = probe.duration ?? 0
        #expect(duration >= 2 && duration <= 8, "\(duration) s\n\(comment)")
        // Chromium's fake microphone beeps: sound, not silence.
        let loudest = await Self.loudest(of: output)
        #expect((loudest ?? -100) > -30, "max_volume \(loudest ?? -100) dB\n\(comment)")
        let frame = await Self.rgbFrame(of: output, at: 1)
        #expect(frame.count == 320 * 240 * 3, "\(frame.count) bytes\n\(comment)")
        var spread = 0
        var levels = Set<UInt8>()
        for pixel in stride(from: 0, to: frame.count - 2, by: 3) {
            let (r, g, b) = (Int(frame[pixel]), Int(frame[pixel + 1]), Int(frame[pixel + 2]))
            spread = max(spread, abs(r - g), abs(g - b), abs(r - b))
            levels.insert(frame[pixel + 1])
        }
        // Gray: R = G = B but for the rounding of YUV to RGB; and a picture, not one flat level.
        #expect(spread <= 2, "spread \(spread)\n\(comment)")
        #expect(levels.count > 16, "\(levels.count) levels\n\(comment)")
    }

    @Test(
        "gstpipe's own publisher page publishes the camera; the browser killed, 5 s of silence end the stream",
        .browser, .enabled(if: FFProbe.isInstalled, "ffprobe is not installed"))
    func publisherPage() async throws {
        let namespace = try await NetworkNamespace()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-whip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("page.mkv")
        let server = try await Self.record(in: namespace, ["gray", "!", output.path])
        let browser = namespace.run(
            Browser.executable,
            Browser.arguments(profile: folder.appendingPathComponent("profile").path, url: "http://127.0.0.1:8891/in"))
        // The page asks for the camera, offers, connects and publishes; then the browser is gone
        // without a word (no DELETE, no BYE): only the silence says so.
        try await Task.sleep(for: .seconds(12))
        browser.signal(SIGKILL)
        _ = await browser.finish(timeout: 10)
        let result = await server.finish(timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("a publisher came, sending audio and video"), "\(result.stderr)")
        #expect(result.stderr.contains("the publisher left: it sent nothing for 5 s"), "\(result.stderr)")
        let probe = try FFProbe(output)
        #expect(probe.video.count == 1 && probe.audio.count == 1, "\(result.stderr)")
        #expect((probe.duration ?? 0) >= 2, "\(probe.duration ?? 0) s\n\(result.stderr)")
    }

    @Test("The WHIP endpoint: the publisher page, 409 for a second publisher, and WHIP's and CORS's refusals")
    func protocolErrors() async throws {
        let namespace = try await NetworkNamespace()
        let server = try await Self.record(in: namespace, ["gray", "!", "fakesink"])
        let base = "http://127.0.0.1:8891"
        func post(_ body: String, type: String = "application/sdp") async -> String {
            await namespace.curl(["-X", "POST", "-H", "Content-Type: \(type)", "--data-binary", body, Self.endpoint])
        }

        let page = await namespace.curl(["\(base)/in"])
        #expect(page.hasPrefix("HTTP/1.1 200"), "\(page.prefix(300))")
        #expect(page.lowercased().contains("content-type: text/html"), "\(page.prefix(300))")
        #expect(page.contains("getUserMedia") && page.contains("/whip") && page.contains("'DELETE'"))
        #expect(!page.contains("<script src") && !page.contains("https://"), "the page loads nothing from elsewhere")

        let preflight = await namespace.curl([
            "-X", "OPTIONS", "-H", "Origin: http://example.test", "-H", "Access-Control-Request-Method: POST",
            Self.endpoint
        ]).lowercased()
        #expect(preflight.hasPrefix("http/1.1 204"), "\(preflight)")
        #expect(preflight.contains("access-control-allow-origin: *"), "\(preflight)")
        #expect(preflight.contains("access-control-allow-methods: post, options"), "\(preflight)")
        #expect(preflight.contains("accept-post: application/sdp"), "\(preflight)")

        let malformed = await post("hello")
        #expect(malformed.hasPrefix("HTTP/1.1 400"), "\(malformed)")
        #expect(malformed.contains("the offer is not a session description (SDP begins with v=0)"), "\(malformed)")
        let receiving = await post(Self.offer.replacingOccurrences(of: "a=sendonly", with: "a=recvonly"))
        #expect(receiving.hasPrefix("HTTP/1.1 400"), "\(receiving)")
        #expect(receiving.contains("the offer sends neither video nor audio"), "\(receiving)")
        let wrongType = await post("v=0", type: "text/plain")
        #expect(wrongType.hasPrefix("HTTP/1.1 415"), "\(wrongType)")
        #expect(wrongType.lowercased().contains("accept-post: application/sdp"), "\(wrongType)")
        #expect((await namespace.curl(["\(base)/elsewhere"])).hasPrefix("HTTP/1.1 404"))
        let wrongMethod = await namespace.curl([Self.endpoint])
        #expect(wrongMethod.hasPrefix("HTTP/1.1 405"), "\(wrongMethod)")
        #expect(wrongMethod.lowercased().contains("allow: post, options"), "\(wrongMethod)")
        let noSession = await namespace.curl(["-X", "DELETE", "\(Self.endpoint)/no-such-session"])
        #expect(noSession.hasPrefix("HTTP/1.1 404"), "\(noSession)")
        // Trickle ICE by PATCH (RFC 9725) for a session that is not there.
        let trickle = await namespace.curl([
            "-X", "PATCH", "-H", "Content-Type: application/trickle-ice-sdpfrag", "--data-binary",
            "a=ice-ufrag:u\r\na=ice-pwd:p\r\n", "\(Self.endpoint)/no-such-session"
        ])
        #expect(trickle.hasPrefix("HTTP/1.1 404"), "\(trickle)")

        // A valid offer takes the endpoint (its ICE never comes up: nobody is behind it); a second gets 409.
        let first = await post(Self.offer)
        #expect(first.hasPrefix("HTTP/1.1 201"), "\(first)")
        #expect(first.lowercased().contains("location: /in/whip/"), "\(first)")
        #expect(first.contains("a=candidate:") && first.contains("a=recvonly"), "\(first)")
        let second = await post(Self.offer)
        #expect(second.hasPrefix("HTTP/1.1 409"), "\(second)")

        server.signal(SIGINT)
        let result = await server.finish(timeout: 30)
        #expect(result.status == 130, "\(result.stderr)")
    }

    @Test("--stun reaches the publisher page's peer connection and the WHIP answer's Link headers")
    func iceServers() async throws {
        let namespace = try await NetworkNamespace()
        // Nothing answers at the STUN address: the answer comes once libnice gives up on it.
        let server = try await Self.record(
            in: namespace, ["gray", "!", "fakesink"], options: ["--stun", "stun://127.0.0.1:3478"])
        let page = await namespace.curl(["http://127.0.0.1:8891/in"])
        #expect(page.contains(#"{"iceServers":[{"urls":"stun:127.0.0.1:3478"}]}"#), "\(page.suffix(2000))")
        let answer = await namespace.curl([
            "-X", "POST", "-H", "Content-Type: application/sdp", "--data-binary", Self.offer, Self.endpoint
        ])
        #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer)")
        #expect(answer.lowercased().contains(#"link: <stun:127.0.0.1:3478>; rel="ice-server""#), "\(answer)")
        server.signal(SIGINT)
        let result = await server.finish(timeout: 30)
        #expect(result.status == 130, "\(result.stderr)")
    }

    @Test("Nobody publishes within --timeout: exit 1, naming the page to open")
    func nobodyPublishes() async throws {
        let namespace = try await NetworkNamespace()
        let server = try await Self.record(in: namespace, ["gray", "!", "fakesink"], timeout: "2")
        let result = await server.finish(timeout: 30)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "nothing arrived in 2 s: nobody published: open http://127.0.0.1:8891/in in a browser"),
            "\(result.stderr)")
    }
}
