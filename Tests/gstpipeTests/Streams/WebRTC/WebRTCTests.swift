import BrowserOffers
import Foundation
import Testing

/// `gstpipe … ! webrtc://HOST:PORT/PATH` with headless Chromium as the viewer, from a page on another
/// origin, each test in a network namespace of its own with loopback alone (`NetworkNamespace`).
/// Serialized: two browsers and two encoders at once would compete for the two cores and miss what
/// the tests time.
@Suite(
    "WebRTCTests", .serialized,
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"))
struct WebRTCTests {
    static let endpoint = "http://127.0.0.1:8890/live/whep"

    /// gstpipe serving noise in gray (320x240 at 30 frames a second) at webrtc://127.0.0.1:8890/live.
    static func serveNoise(in namespace: NetworkNamespace, uri: String = "webrtc://127.0.0.1:8890/live")
        async throws -> Spawned
    {
        let server = namespace.run(CLI.binary.path, ["noise", "!", "gray", "!", uri])
        guard await namespace.waitForListener(8890) else {
            let result = await server.finish(timeout: 5)
            Issue.record("gstpipe did not listen: \(result.stderr)")
            throw NetworkNamespace.NamespaceError(message: "no server")
        }
        return server
    }

    /// One test's run: what the page reported, and how gstpipe ended.
    struct Run {
        let report: [String: Any]?
        let result: CLIResult

        /// Both, for a failed expectation to show.
        var comment: Comment { Comment(rawValue: "\(report ?? [:])\n\(result.stderr)") }

        /// The first viewer's answer (status, location, candidates, time to the first frame).
        var firstViewer: [String: Any] { (report?["viewers"] as? [[String: Any]])?.first ?? [:] }

        /// What viewer `index` saw in `phase` ("watched", or "after" another left).
        func seen(_ index: Int, _ phase: String = "watched") -> [String: Any] {
            let viewers = report?["viewers"] as? [[String: Any]] ?? []
            return index < viewers.count ? viewers[index][phase] as? [String: Any] ?? [:] : [:]
        }
    }

    /// In a namespace of its own: gstpipe serves noise at `uri`, the test page watches with `query`
    /// from another origin, then gstpipe is sent `stop` and waited for.
    static func watchNoise(
        at uri: String = "webrtc://127.0.0.1:8890/live", query: String, stop: Int32 = SIGINT
    ) async throws -> Run {
        try await watch(["noise", "!", "gray", "!", uri], query: query, stop: stop)
    }

    /// Moving gray noise: frames at the source's size, every pixel gray (R = G = B within what VP8's
    /// rounding leaves), the picture changing from one sample to the next.
    static func expectMovingGray(_ seen: [String: Any], seconds: Double, _ comment: Comment) {
        let frames = seen["frames"] as? Int ?? 0
        // 30 frames a second are sent; a browser on two cores busy with the encoder, the test's
        // pixel reading and other tests presents fewer, and a third of them shows frames keep coming.
        #expect(Double(frames) >= seconds * 10, comment)
        #expect(seen["width"] as? Int == 320 && seen["height"] as? Int == 240, comment)
        #expect((seen["maxSpread"] as? Int ?? 255) <= 12, comment)
        #expect((seen["meanSpread"] as? Double ?? 255) <= 1.5, comment)
        let samples = seen["samples"] as? Int ?? 0
        #expect(samples >= Int(seconds * 2) && (seen["changes"] as? Int ?? 0) >= samples - 3, comment)
    }

    @Test(
        "A browser on another origin watches moving gray noise; DELETE ends its session, a second DELETE is 404",
        .browser)
    func grayNoiseInABrowser() async throws {
        let run = try await Self.watchNoise(query: "viewers=1&watch=4&leave=delete")
        let (result, viewer, comment) = (run.result, run.firstViewer, run.comment)
        #expect(viewer["status"] as? Int == 201, comment)
        #expect((viewer["location"] as? String)?.hasPrefix("/live/whep/") == true, comment)
        #expect((viewer["candidates"] as? Int ?? 0) >= 1, comment)
        // A key frame is asked for as the viewer's connection comes up: its first frame follows
        // within a second. From the offer, the answer's ICE gathering and the DTLS handshake come first.
        #expect((viewer["afterConnectedMs"] as? Int ?? .max) < 1000, comment)
        #expect((viewer["firstFrameMs"] as? Int ?? .max) < 5000, comment)
        Self.expectMovingGray(run.seen(0), seconds: 4, comment)
        #expect(run.seen(0)["codec"] as? String == "video/VP8", comment)
        #expect(run.report?["deletes"] as? [Int] == [200, 404], comment)
        #expect(result.stderr.contains("watch at http://127.0.0.1:8890/live"), comment)
        #expect(result.stderr.contains("WHEP endpoint http://127.0.0.1:8890/live/whep"), comment)
        #expect(result.stderr.contains("viewer 1 joined (1 watching)"), comment)
        #expect(result.stderr.contains("viewer 1 left: it left (0 watching)"), comment)
        #expect(result.status == 130, comment)
    }

    @Test(
        "gstpipe's own viewer page plays the stream, embedded in a page of another origin",
        .browser)
    func viewerPage() async throws {
        let run = try await Self.watchNoise(query: "embed=http://127.0.0.1:8890/live")
        let embed = run.report?["embed"] as? [String: Any] ?? [:]
        // 'connected' is left out when the first frame came before the connection's own state change
        // (the page then says 'playing' alone, as it does on its own line).
        let states = embed["states"] as? [String] ?? []
        #expect(states == ["connecting", "connected", "playing"] || states == ["connecting", "playing"], run.comment)
        #expect(embed["width"] as? Int == 320 && embed["height"] as? Int == 240, run.comment)
        #expect(embed["origin"] as? String == "http://127.0.0.1:8890", run.comment)
        #expect(run.result.stderr.contains("viewer 1 joined (1 watching)"), run.comment)
        #expect(run.result.status == 130, run.comment)
    }

    @Test(
        "Two viewers at once, each in the codec its offer prefers (H.264, VP8): one leaves, the other watches on",
        .browser)
    func twoViewersOneLeaves() async throws {
        // The first offers H.264 alone (setCodecPreferences); the second is Chromium's own offer, VP8 first.
        let run = try await Self.watchNoise(query: "viewers=2&watch=3&leave=delete&after=3&prefer=H264", stop: SIGTERM)
        let (result, comment) = (run.result, run.comment)
        Self.expectMovingGray(run.seen(0), seconds: 3, comment)
        Self.expectMovingGray(run.seen(1), seconds: 3, comment)
        Self.expectMovingGray(run.seen(1, "after"), seconds: 3, comment)
        #expect(run.seen(0)["codec"] as? String == "video/H264", comment)
        // Constrained baseline in packetization mode 1, the H.264 every browser takes.
        let fmtp = run.seen(0)["sdpFmtpLine"] as? String ?? ""
        #expect(fmtp.contains("profile-level-id=42e01f") && fmtp.contains("packetization-mode=1"), comment)
        #expect(run.seen(1)["codec"] as? String == "video/VP8", comment)
        #expect(run.seen(1, "after")["codec"] as? String == "video/VP8", comment)
        for seen in [run.seen(0), run.seen(1)] { #expect((seen["framesDecoded"] as? Int ?? 0) >= 30, comment) }
        #expect(result.stderr.contains("WHEP endpoint http://127.0.0.1:8890/live/whep, VP8 or H264"), comment)
        #expect(result.stderr.contains("viewer 1 joined (1 watching) in H264"), comment)
        #expect(result.stderr.contains("viewer 2 joined (2 watching) in VP8"), comment)
        #expect(result.stderr.contains("viewer 1 left: it left (1 watching)"), comment)
        #expect(result.status == 143, comment)
    }

    @Test(
        "?codec=h264: the browser decodes constrained-baseline H.264, gray and moving",
        .browser)
    func h264() async throws {
        let run = try await Self.watchNoise(at: "webrtc://127.0.0.1:8890/live?codec=h264", query: "viewers=1&watch=3")
        let (result, comment) = (run.result, run.comment)
        Self.expectMovingGray(run.seen(0), seconds: 3, comment)
        #expect(run.seen(0)["codec"] as? String == "video/H264", comment)
        #expect(result.stderr.contains("WHEP endpoint http://127.0.0.1:8890/live/whep, H264"), comment)
        #expect(result.status == 130, comment)
    }

    @Test(
        "A viewer whose page closes its connection without DELETE is dropped; the other watches on",
        .browser)
    func vanishedViewer() async throws {
        let run = try await Self.watchNoise(query: "viewers=2&watch=2&leave=close&after=16")
        let (result, comment) = (run.result, run.comment)
        Self.expectMovingGray(run.seen(1, "after"), seconds: 16, comment)
        // Silent for the limit (12 s) after its last receiver report, within the 16 s the other watched on.
        #expect(result.stderr.contains("viewer 1 left: it sent nothing for"), comment)
        #expect(result.stderr.contains("(1 watching)"), comment)
        #expect(result.status == 130, comment)
    }

    @Test("The WHEP endpoint refuses what it cannot take, in WHEP's and CORS's terms; on 0.0.0.0 every address")
    func protocolErrors() async throws {
        let namespace = try await NetworkNamespace()
        // A second interface, as a LAN's would be: one end of a veth pair, 10.78.0.1.
        for arguments in [
            ["link", "add", "gstpipe2", "type", "veth", "peer", "name", "gstpipe3"],
            ["addr", "add", "10.78.0.1/24", "dev", "gstpipe2"], ["link", "set", "gstpipe2", "up"],
            ["link", "set", "gstpipe3", "up"]
        ] {
            let done = await namespace.run("/usr/sbin/ip", arguments).finish(timeout: 10)
            #expect(done.status == 0, "ip \(arguments.joined(separator: " ")): \(done.stderr)")
        }
        let server = try await Self.serveNoise(in: namespace, uri: "webrtc://0.0.0.0:8890/live")
        let base = "http://127.0.0.1:8890"

        // Listening on every address, the answer's host candidates are every interface's: before, it
        // offered 127.0.0.1 alone, which no browser on another machine reaches.
        let answer = await namespace.curl([
            "-X", "POST", "-H", "Content-Type: application/sdp", "--data-binary", BrowserOffers.video(), Self.endpoint
        ])
        let candidates = answer.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("a=candidate:") }
        #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer)")
        #expect(candidates.contains { $0.contains(" 10.78.0.1 ") && $0.contains(" typ host") }, "\(answer)")
        #expect(candidates.contains { $0.contains(" 127.0.0.1 ") }, "\(answer)")
        // That viewer never connects: it leaves now rather than hold the run's end.
        let location = answer.split(whereSeparator: \.isNewline).first { $0.lowercased().hasPrefix("location: ") }
            .map { $0.dropFirst("location: ".count).trimmingCharacters(in: .whitespaces) }
        let left = await namespace.curl(["-X", "DELETE", base + (location ?? "/none")])
        #expect(left.hasPrefix("HTTP/1.1 200"), "\(left)")

        let page = await namespace.curl(["\(base)/live"])
        #expect(page.hasPrefix("HTTP/1.1 200"), "\(page.prefix(300))")
        #expect(page.contains("<video") && page.lowercased().contains("content-type: text/html"))

        let preflight = await namespace.curl([
            "-X", "OPTIONS", "-H", "Origin: http://example.test", "-H", "Access-Control-Request-Method: POST",
            "-H", "Access-Control-Request-Headers: content-type", "\(Self.endpoint)"
        ]).lowercased()
        #expect(preflight.hasPrefix("http/1.1 204"), "\(preflight)")
        #expect(preflight.contains("access-control-allow-origin: *"), "\(preflight)")
        #expect(preflight.contains("access-control-allow-methods: post, options"), "\(preflight)")
        #expect(preflight.contains("access-control-allow-headers: content-type, authorization"), "\(preflight)")
        #expect(preflight.contains("access-control-expose-headers: location"), "\(preflight)")
        #expect(preflight.contains("accept-post: application/sdp"), "\(preflight)")

        let malformed = await namespace.curl([
            "-X", "POST", "-H", "Content-Type: application/sdp", "--data-binary", "hello", Self.endpoint
        ])
        #expect(malformed.hasPrefix("HTTP/1.1 400"), "\(malformed)")
        #expect(malformed.contains("the offer is not a session description (SDP begins with v=0)"), "\(malformed)")
        #expect(malformed.lowercased().contains("access-control-allow-origin: *"), "\(malformed)")

        let noVideo = "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n"
        let audioOnly = await namespace.curl([
            "-X", "POST", "-H", "Content-Type: application/sdp", "--data-binary", noVideo, Self.endpoint
        ])
        #expect(audioOnly.hasPrefix("HTTP/1.1 400"), "\(audioOnly)")
        #expect(audioOnly.contains("the offer has no video section (m=video)"), "\(audioOnly)")

        // A browser's offer edited down to VP9 (and its RTX): no codec this server sends, 406.
        let vp9 = BrowserOffers.video().split(separator: "\r\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("VP8") && !$0.contains("H264") && !$0.contains("apt=96") }
            .map { $0.hasPrefix("m=video") ? "m=video 9 UDP/TLS/RTP/SAVPF 98 97" : $0 }.joined(separator: "\r\n")
        let notAcceptable = await namespace.curl([
            "-X", "POST", "-H", "Content-Type: application/sdp", "--data-binary", vp9, Self.endpoint
        ])
        #expect(notAcceptable.hasPrefix("HTTP/1.1 406"), "\(notAcceptable)")
        #expect(
            notAcceptable.contains(
                "the offer's video has no codec this server sends (it offers VP9, rtx; this server sends VP8 or "
                    + "constrained-baseline H.264 in packetization mode 1)"), "\(notAcceptable)")

        let wrongType = await namespace.curl([
            "-X", "POST", "-H", "Content-Type: text/plain", "--data-binary", "v=0", Self.endpoint
        ])
        #expect(wrongType.hasPrefix("HTTP/1.1 415"), "\(wrongType)")

        let unknown = await namespace.curl(["\(base)/elsewhere"])
        #expect(unknown.hasPrefix("HTTP/1.1 404"), "\(unknown)")
        let wrongMethod = await namespace.curl([Self.endpoint])
        #expect(wrongMethod.hasPrefix("HTTP/1.1 405"), "\(wrongMethod)")
        #expect(wrongMethod.lowercased().contains("allow: post, options"), "\(wrongMethod)")
        let noSession = await namespace.curl(["-X", "DELETE", "\(Self.endpoint)/no-such-session"])
        #expect(noSession.hasPrefix("HTTP/1.1 404"), "\(noSession)")
        // Trickle ICE by PATCH (RFC 9725): a session that is not there, a body of another type, a
        // fragment without credentials.
        let fragment =
            "a=ice-ufrag:Yq3v\r\na=ice-pwd:2c1r8m1Ly3p0bG0Y2wJ2n8Xb\r\na=mid:0\r\n"
            + "a=candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host\r\n"
        func patch(_ type: String, _ body: String) async -> String {
            await namespace.curl([
                "-X", "PATCH", "-H", "Content-Type: \(type)", "--data-binary", body, "\(Self.endpoint)/no-such-session"
            ])
        }
        let trickle = await patch("application/trickle-ice-sdpfrag", fragment)
        #expect(trickle.hasPrefix("HTTP/1.1 404"), "\(trickle)")
        #expect(trickle.contains("no such session (it has ended)"), "\(trickle)")
        let trickleType = await patch("application/sdp", fragment)
        #expect(trickleType.hasPrefix("HTTP/1.1 415"), "\(trickleType)")
        #expect(trickleType.contains("a PATCH is sent as Content-Type: application/trickle-ice-sdpfrag"))
        let noCredentials = await patch("application/trickle-ice-sdpfrag", "a=mid:0\r\n")
        #expect(noCredentials.hasPrefix("HTTP/1.1 400"), "\(noCredentials)")
        #expect(noCredentials.contains("the fragment has no ICE credentials"), "\(noCredentials)")

        server.signal(SIGINT)
        let result = await server.finish(timeout: 20)
        #expect(result.status == 130, "\(result.stderr)")
    }
}

extension Trait where Self == ConditionTrait {
    /// Headless Chromium is there to be the viewer.
    static var browser: Self {
        .enabled(if: Browser.isInstalled, "Chromium is not installed (scripts/setup.sh installs it)")
    }
}
