import BrowserOffers
import Foundation
import Testing

/// The "Serving safely" article's "behind a proxy" configurations, run as written: nginx (its blocks read
/// from the article itself, `ArticleSnippet`; only the certificate's paths replaced by one `openssl req` made)
/// in front of gstpipe, each test in a network namespace of its own with loopback alone, where port
/// 443 is free to take. WebRTC: nginx terminates TLS for the signalling; curl, headless Chromium and
/// gstpipe's own whep+https:// client watch (and Chromium publishes) through it. RTSP: nginx's stream
/// module passes TCP on, ffmpeg reads through it.
@Suite(
    "ReverseProxyTests", .serialized,
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"),
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/setup.sh installs nginx-light)"),
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "openssl is not installed"))
struct ReverseProxyTests {
    static let secret = "tok-Pr0xy5ecret"
    static let password = "pw-Pr0xyRtsp"
    static let proxied = "https://127.0.0.1"

    /// The article's nginx `server` block for WebRTC, with `certificate` in place of its example's.
    static func httpBlock(_ certificate: (certificate: String, key: String)) throws -> String {
        try ArticleSnippet.block(startingWith: "server {", containing: "proxy_pass http://127.0.0.1:8890;")
            .replacingOccurrences(of: "/etc/ssl/certs/stream.example.net.pem", with: certificate.certificate)
            .replacingOccurrences(of: "/etc/ssl/private/stream.example.net.key", with: certificate.key)
    }

    /// A session (namespace and folder) with gstpipe running `arguments` and listening on 8890 behind
    /// nginx on 443 with the article's block.
    static func behindNginx(_ arguments: [String], environment: [String: String] = [:]) async throws
        -> (session: RTSPAuthSession, server: RTSPAuthSession.Run, nginx: Nginx, certificate: String)
    {
        let session = try await RTSPAuthSession()
        let server = session.gstpipe(arguments, environment: environment)
        guard await session.waitForListener(8890) else {
            let result = await server.finish(timeout: 5)
            throw NetworkNamespace.NamespaceError(message: "gstpipe did not listen: \(result.stderr)")
        }
        let certificate = try await Nginx.certificate(in: session.folder)
        let nginx = try await Nginx(
            in: session.namespace, folder: session.folder, http: try httpBlock(certificate), port: 443)
        return (session, server, nginx, certificate.certificate)
    }

    /// curl through the proxy (any certificate: it is self-signed), with `arguments` and `authorization`.
    static func curl(_ session: RTSPAuthSession, _ arguments: [String], authorization: String? = nil) async -> String {
        let header = authorization.map { ["-H", "Authorization: \($0)"] } ?? []
        return await session.namespace.curl(["-k"] + header + arguments)
    }

    @Test("WHEP through nginx's TLS: the page, 401 without the token, 201 with it, and the session's Location works")
    func whepThroughTLS() async throws {
        let (session, server, nginx, _) = try await Self.behindNginx([
            "noise", "!", "gray", "!", "webrtc://127.0.0.1:8890/live?token=\(Self.secret)"
        ])
        let whep = "\(Self.proxied)/live/whep"
        let page = await Self.curl(session, ["\(Self.proxied)/live"])
        #expect(page.hasPrefix("HTTP/1.1 200") && page.contains("Server: nginx"), "\(page.prefix(400))")
        #expect(page.contains("'Bearer ' + token"), "\(page.prefix(400))")
        let offer = ["-X", "POST", "-H", "Content-Type: application/sdp", "--data-binary", BrowserOffers.video()]
        let none = await Self.curl(session, offer + [whep])
        #expect(none.hasPrefix("HTTP/1.1 401"), "\(none)")
        #expect(none.contains("WWW-Authenticate: Bearer realm=\"gstpipe\""), "\(none)")
        #expect(none.contains("Access-Control-Allow-Origin: *"), "\(none)")
        let right = await Self.curl(session, offer + [whep], authorization: "Bearer \(Self.secret)")
        #expect(right.hasPrefix("HTTP/1.1 201"), "\(right)")
        #expect(right.contains("Content-Type: application/sdp") && right.contains("\r\n\r\nv=0"), "\(right)")
        // A path: resolved against the address the client used, the proxy's, it names the session there.
        let location = right.firstMatch(of: #/Location: (\S+)/#).map { String($0.1) } ?? "none"
        #expect(location.hasPrefix("/live/whep/"), "\(right)")
        let resource = URL(string: location, relativeTo: URL(string: whep))?.absoluteString ?? ""
        #expect(resource.hasPrefix("\(Self.proxied)/live/whep/"), "\(resource)")
        let unauthorized = await Self.curl(session, ["-X", "DELETE", resource])
        #expect(unauthorized.hasPrefix("HTTP/1.1 401"), "\(unauthorized)")
        let deleted = await Self.curl(session, ["-X", "DELETE", resource], authorization: "Bearer \(Self.secret)")
        #expect(deleted.hasPrefix("HTTP/1.1 200"), "\(deleted)")
        let again = await Self.curl(session, ["-X", "DELETE", resource], authorization: "Bearer \(Self.secret)")
        #expect(again.hasPrefix("HTTP/1.1 404"), "\(again)")
        // Plain HTTP to the proxy's TLS port is refused: only HTTPS reaches the stream.
        let plain = await session.namespace.curl(["http://127.0.0.1:443/live"])
        #expect(plain.hasPrefix("HTTP/1.1 400"), "\(plain.prefix(300))")

        let proxy = await nginx.stop()
        server.signal(SIGINT)
        let result = await server.finish(timeout: 20)
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("viewer 1 joined (1 watching)"), "\(result.stderr)")
        #expect(result.stderr.contains("viewer 1 left: it left (0 watching)"), "\(result.stderr)")
        #expect(proxy.status == 0, "\(proxy.stderr)")
        WebRTCTokenTests.expectNoSecret([result.stdout, result.stderr], Self.secret)
    }

    @Test(
        "whep+https:// watches through nginx once its certificate is trusted; its DELETE ends the session there",
        .enabled(if: FFProbe.isInstalled, "ffprobe is not installed"))
    func whepClientThroughTLS() async throws {
        let (session, server, nginx, certificate) = try await Self.behindNginx([
            "noise", "width=160", "height=120", "!", "gray", "!", "webrtc://127.0.0.1:8890/live?token=\(Self.secret)"
        ])
        let endpoint = "whep+https://127.0.0.1/live/whep"
        let watch = [CLI.binary.path, "--timeout", "20", endpoint, "!"]
        // Not trusted: GIO's TLS refuses the self-signed certificate.
        let untrusted = await session.namespace.run(
            "/usr/bin/env", ["GSTPIPE_WHEP_TOKEN=\(Self.secret)"] + watch + ["fakesink"]
        ).finish(timeout: 40)
        #expect(untrusted.status == 1, "\(untrusted.stderr)")
        let refused =
            "cannot reach \(endpoint): the TLS connection failed (the server's certificate was refused) (is its "
            + "certificate one this machine trusts?"
        #expect(untrusted.stderr.contains(refused), "\(untrusted.stderr)")
        // Trusted: the certificate as the system's CA bundle (which glib-networking reads), in a mount
        // namespace of the watcher's own, so that the machine's bundle is left alone.
        let output = session.folder.appendingPathComponent("watched.mkv")
        let trusting = "mount --bind \"$0\" /etc/ssl/certs/ca-certificates.crt && exec \"$@\""
        let watcher = session.namespace.run(
            "/usr/bin/unshare",
            ["-m", "/bin/sh", "-c", trusting, certificate, "/usr/bin/env", "GSTPIPE_WHEP_TOKEN=\(Self.secret)"]
                + watch + [output.path])
        // Watching once its offer went through the proxy (a loaded machine may take a while to start it).
        let deadline = Date().addingTimeInterval(40)
        while !nginx.accessLog.contains("\"POST /live/whep HTTP/1.1\" 201") && Date() < deadline {
            try await Task.sleep(for: .milliseconds(200))
        }
        try await Task.sleep(for: .seconds(5))
        watcher.signal(SIGINT)
        let watched = await watcher.finish(timeout: 30)
        server.signal(SIGINT)
        let served = await server.finish(timeout: 20)
        _ = await nginx.stop()
        let comment = Comment(rawValue: "watcher: \(watched.stderr)\nserver: \(served.stderr)\n\(nginx.accessLog)")
        #expect(watched.status == 130, comment)
        #expect(watched.stderr.contains("watching \(endpoint): the server sends video"), comment)
        // The session's Location, a path, resolved against the proxy's address: the DELETE went through it.
        #expect(nginx.accessLog.contains("\"DELETE /live/whep/"), comment)
        #expect(served.stderr.contains("viewer 1 left: it left (0 watching)"), comment)
        let streams = try await probeStreams(output.path, entries: "width,nb_read_frames", videoOnly: true)
        let frames = streams.first?.split(separator: ",").last.flatMap { Int($0) } ?? 0
        #expect(streams.first?.hasPrefix("160,") == true && frames >= 20, "\(streams) \(comment)")
        WebRTCTokenTests.expectNoSecret([watched.stdout, watched.stderr, untrusted.stderr, served.stderr], Self.secret)
    }

    /// In a namespace behind nginx: gstpipe serves noise with the token, the test page watches with
    /// `query` (Chromium taking the proxy's self-signed certificate), then gstpipe is stopped.
    static func watchThroughProxy(query: String) async throws -> WebRTCTests.Run {
        let (session, server, nginx, _) = try await behindNginx([
            "noise", "!", "gray", "!", "webrtc://127.0.0.1:8890/live?token=\(secret)"
        ])
        let browser = try await BrowserSession(
            in: session.namespace, query: query, flags: ["--ignore-certificate-errors"])
        let report = await browser.result(named: "report", timeout: 90)
        await browser.close()
        if report == nil { Issue.record("the page reported nothing") }
        if let error = report?["error"] { Issue.record("the page failed: \(error)") }
        _ = await nginx.stop()
        server.signal(SIGINT)
        return WebRTCTests.Run(report: report, result: await server.finish(timeout: 20))
    }

    @Test("Chromium watches moving gray through nginx's TLS with the token; DELETE through the proxy ends it", .browser)
    func browserThroughTLS() async throws {
        let run = try await Self.watchThroughProxy(
            query: "endpoint=\(Self.proxied)/live/whep&token=\(Self.secret)&viewers=1&watch=4&leave=delete")
        #expect(run.firstViewer["status"] as? Int == 201, run.comment)
        #expect((run.firstViewer["location"] as? String)?.hasPrefix("/live/whep/") == true, run.comment)
        WebRTCTests.expectMovingGray(run.seen(0), seconds: 4, run.comment)
        #expect(run.report?["deletes"] as? [Int] == [200, 404], run.comment)
        #expect(run.result.stderr.contains("viewer 1 left: it left (0 watching)"), run.comment)
        #expect(run.result.status == 130, run.comment)
    }

    @Test("gstpipe's own viewer page, opened at https://…/live#token= through nginx, plays the stream", .browser)
    func viewerPageThroughTLS() async throws {
        let embed = "\(Self.proxied)/live%23token%3D\(Self.secret)"
        let run = try await Self.watchThroughProxy(query: "embed=\(embed)")
        let states = run.report?["embed"] as? [String: Any] ?? [:]
        let said = states["states"] as? [String] ?? []
        #expect(said == ["connecting", "connected", "playing"] || said == ["connecting", "playing"], run.comment)
        #expect(states["width"] as? Int == 320 && states["height"] as? Int == 240, run.comment)
        #expect(states["origin"] as? String == Self.proxied, run.comment)
        #expect(run.result.stderr.contains("viewer 1 joined (1 watching)"), run.comment)
        #expect(run.result.status == 130, run.comment)
    }

    @Test(
        "gstpipe's own publisher page, opened at https://…/in#token= through nginx, publishes the camera",
        .browser, .enabled(if: FFProbe.isInstalled, "ffprobe is not installed"))
    func publisherPageThroughTLS() async throws {
        let recording = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gstpipe-proxy-\(UUID().uuidString).mkv")
        defer { try? FileManager.default.removeItem(at: recording) }
        let (session, server, nginx, _) = try await Self.behindNginx(
            ["--timeout", "60", "webrtc://127.0.0.1:8890/in", "!", "gray", "!", recording.path],
            environment: ["GSTPIPE_WEBRTC_TOKEN": Self.secret])
        let browser = session.namespace.run(
            Browser.executable,
            Browser.arguments(
                profile: session.folder.appendingPathComponent("profile").path,
                url: "\(Self.proxied)/in#token=\(Self.secret)", flags: ["--ignore-certificate-errors"]))
        // The page asks for the (fake) camera, offers with the token through the proxy and publishes;
        // then the browser is gone, and 5 s of silence end the stream.
        try await Task.sleep(for: .seconds(12))
        browser.signal(SIGKILL)
        _ = await browser.finish(timeout: 10)
        let result = await server.finish(timeout: 60)
        _ = await nginx.stop()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("a publisher came, sending audio and video"), "\(result.stderr)")
        let probe = try FFProbe(recording)
        #expect(probe.video.count == 1 && probe.audio.count == 1, "\(result.stderr)")
        #expect((probe.duration ?? 0) >= 2, "\(probe.duration ?? 0) s\n\(result.stderr)")
        WebRTCTokenTests.expectNoSecret([result.stdout, result.stderr], Self.secret)
    }

    /// The article's nginx `stream` block, and nginx running it in `session`.
    static func streamProxy(in session: RTSPAuthSession) async throws -> Nginx {
        let block = try ArticleSnippet.block(startingWith: "stream {", containing: "proxy_pass 127.0.0.1:8556;")
        return try await Nginx(in: session.namespace, folder: session.folder, stream: block, port: 8555)
    }

    @Test(
        "rtsps:// with a password behind nginx's stream module: ffmpeg reads through it, a wrong password is 401",
        .enabled(if: Nginx.hasStreamModule, "nginx's stream module is missing (Debian: libnginx-mod-stream)"),
        .enabled(if: FFmpegCut.isInstalled, "ffmpeg is not installed"))
    func rtspsThroughStreamProxy() async throws {
        let session = try await RTSPAuthSession()
        let certificate = try await session.certificate(named: "server")
        let server = try await session.serve(
            "rtsps://alice:\(Self.password)@127.0.0.1:8556/gray",
            ["--tls-cert", certificate.certificate, "--tls-key", certificate.key])
        let nginx = try await Self.streamProxy(in: session)
        // ffmpeg asks for TCP by itself over rtsps://.
        await session.expectFrames("rtsps://alice:\(Self.password)@127.0.0.1:8555/gray", tcp: false)
        await session.expectRefused("rtsps://alice:wrong@127.0.0.1:8555/gray", tcp: false)
        let describe = await session.describe(port: 8555, tls: true)
        #expect(describe.hasPrefix("RTSP/1.0 401") && describe.contains("WWW-Authenticate: Digest"), "\(describe)")
        // Three connections went through the proxy, the one that read frames carrying the media.
        let sent = await nginx.bytesSent(count: 3)
        #expect(sent.count == 3 && sent.max() ?? 0 > 50_000, "\(sent)")
        await session.stop(server, saying: "rtsps://alice:***@127.0.0.1:8556/gray", secret: Self.password)
        let proxy = await nginx.stop()
        #expect(proxy.status == 0, "\(proxy.stderr)")
    }

    @Test(
        "rtsp:// behind nginx's stream module: over TCP the media goes through the proxy, over UDP around it",
        .enabled(if: Nginx.hasStreamModule, "nginx's stream module is missing (Debian: libnginx-mod-stream)"),
        .enabled(if: FFmpegCut.isInstalled, "ffmpeg is not installed"))
    func rtspTransportThroughStreamProxy() async throws {
        let session = try await RTSPAuthSession()
        // Snow: pictures that do not compress, so the media's bytes stand out from the RTSP requests'.
        let server = session.gstpipe([
            "videotestsrc", "is-live=true", "pattern=snow", "!", "video/x-raw,width=320,height=240,framerate=30/1",
            "!", "gray", "!", "rtsp://127.0.0.1:8556/gray"
        ])
        guard await session.waitForListener(8556) else {
            Issue.record("gstpipe did not listen: \(await server.finish(timeout: 5).stderr)")
            return
        }
        let nginx = try await Self.streamProxy(in: session)
        await session.expectFrames("rtsp://127.0.0.1:8555/gray", tcp: true)
        let overTCP = await nginx.bytesSent(count: 1)
        // Over UDP gstpipe sends RTP to the address the RTSP connection came from: nginx's, which on this
        // one machine is the client's too, so frames still come; but none of them through nginx.
        await session.expectFrames("rtsp://127.0.0.1:8555/gray", tcp: false)
        let both = await nginx.bytesSent(count: 2)
        #expect(overTCP.count == 1 && overTCP[0] > 100_000, "over TCP: \(overTCP)")
        #expect(both.count == 2 && both[1] < 20_000, "over UDP: \(both)")
        await session.stop(server, saying: "rtsp://127.0.0.1:8556/gray", secret: nil)
        _ = await nginx.stop()
    }
}
