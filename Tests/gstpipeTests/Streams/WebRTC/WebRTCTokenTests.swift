import BrowserOffers
import Foundation
import Testing

/// `webrtc://…?token=SECRET` (and `GSTPIPE_WEBRTC_TOKEN`) and `?max-clients=N`, with curl and
/// headless Chromium as the clients, each test in a network namespace of its own: WHEP and WHIP
/// refuse a request without the token or with a wrong one (401, `WWW-Authenticate: Bearer`), the
/// pages are still served and pass the token on, the N+1th viewer gets 503 with `Retry-After`, an
/// offer too large 413, a header too long 400; and the token shows in nothing gstpipe or a client
/// printed.
@Suite(
    "WebRTCTokenTests", .serialized,
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"))
struct WebRTCTokenTests {
    static let secret = "tok-7Hq2Zp9Vx4"
    static let endpoint = WebRTCTests.endpoint

    /// Fails the test if `secret` is anywhere in `outputs`.
    static func expectNoSecret(_ outputs: [String], _ secret: String = secret) {
        for (index, output) in outputs.enumerated() {
            #expect(!output.contains(secret), "output \(index) shows the token: \(output.prefix(2000))")
        }
    }

    /// curl's POST of `body` as SDP to `url`, with `authorization` when given.
    static func post(_ namespace: NetworkNamespace, _ url: String, _ body: String, authorization: String? = nil)
        async -> String
    {
        let header = authorization.map { ["-H", "Authorization: \($0)"] } ?? []
        return await namespace.curl(
            ["-X", "POST", "-H", "Content-Type: application/sdp", "--data-binary", body] + header + [url])
    }

    @Test("With ?token=, WHEP without or with a wrong token is 401 with WWW-Authenticate; with it, it is served")
    func whepToken() async throws {
        let namespace = try await NetworkNamespace()
        // -v and --graph too: GStreamer's messages and the pipeline's picture must not show the token either.
        let graph = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-\(UUID().uuidString).dot")
        defer { try? FileManager.default.removeItem(at: graph) }
        let server = namespace.run(
            CLI.binary.path,
            [
                "-v", "--graph", graph.path, "noise", "!", "gray", "!",
                "webrtc://127.0.0.1:8890/live?token=\(Self.secret)"
            ])
        guard await namespace.waitForListener(8890) else {
            Issue.record("gstpipe did not listen: \(await server.finish(timeout: 5).stderr)")
            return
        }
        var outputs: [String] = []

        let page = await namespace.curl(["http://127.0.0.1:8890/live?token=\(Self.secret)"])
        #expect(page.hasPrefix("HTTP/1.1 200"), "\(page.prefix(300))")
        #expect(page.contains("'Bearer ' + token"))
        let preflight = await namespace.curl([
            "-X", "OPTIONS", "-H", "Origin: http://example.test", "-H", "Access-Control-Request-Method: POST",
            "-H", "Access-Control-Request-Headers: authorization, content-type", Self.endpoint
        ]).lowercased()
        #expect(preflight.hasPrefix("http/1.1 204"), "\(preflight)")
        #expect(preflight.contains("access-control-allow-headers: content-type, authorization"), "\(preflight)")

        let offer = BrowserOffers.video()
        let none = await Self.post(namespace, Self.endpoint, offer)
        #expect(none.hasPrefix("HTTP/1.1 401"), "\(none)")
        #expect(none.contains("WWW-Authenticate: Bearer realm=\"gstpipe\"\r\n"), "\(none)")
        #expect(none.contains("Access-Control-Allow-Origin: *"), "\(none)")
        let wrong = await Self.post(namespace, Self.endpoint, offer, authorization: "Bearer \(Self.secret)x")
        #expect(wrong.hasPrefix("HTTP/1.1 401"), "\(wrong)")
        #expect(wrong.contains("WWW-Authenticate: Bearer realm=\"gstpipe\", error=\"invalid_token\""), "\(wrong)")
        let basic = await Self.post(namespace, Self.endpoint, offer, authorization: "Basic \(Self.secret)")
        #expect(basic.hasPrefix("HTTP/1.1 401"), "\(basic)")
        let deleted = await namespace.curl(["-X", "DELETE", "\(Self.endpoint)/some-session"])
        #expect(deleted.hasPrefix("HTTP/1.1 401"), "\(deleted)")
        let patched = await namespace.curl([
            "-X", "PATCH", "-H", "Content-Type: application/trickle-ice-sdpfrag", "\(Self.endpoint)/some-session"
        ])
        #expect(patched.hasPrefix("HTTP/1.1 401"), "\(patched)")

        let right = await Self.post(namespace, Self.endpoint, offer, authorization: "Bearer \(Self.secret)")
        #expect(right.hasPrefix("HTTP/1.1 201"), "\(right)")
        let session = right.firstMatch(of: #/Location: (\S+)/#).map { String($0.1) } ?? "/none"
        let gone = await namespace.curl([
            "-X", "DELETE", "-H", "Authorization: Bearer \(Self.secret)", "http://127.0.0.1:8890\(session)"
        ])
        #expect(gone.hasPrefix("HTTP/1.1 200"), "\(gone)")
        outputs += [page, preflight, none, wrong, basic, deleted, patched, right, gone]

        server.signal(SIGINT)
        let result = await server.finish(timeout: 20)
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("serving webrtc://127.0.0.1:8890/live?token=***: "), "\(result.stderr)")
        #expect(result.stderr.contains("watch at http://127.0.0.1:8890/live#token=*** "), "\(result.stderr)")
        let picture = (try? String(contentsOf: graph, encoding: .utf8)) ?? ""
        #expect(picture.contains("digraph"), "no graph written: \(result.stderr)")
        Self.expectNoSecret(outputs + [result.stdout, result.stderr, picture])
    }

    @Test(
        "?max-clients=1: of six offers at once one is served, the others 503 with Retry-After; an offer too large is 413, a header too long 400"
    )
    func limits() async throws {
        let namespace = try await NetworkNamespace()
        let server = try await WebRTCTests.serveNoise(
            in: namespace, uri: "webrtc://127.0.0.1:8890/live?max-clients=1")
        let offer = BrowserOffers.video()
        // Six offers at once: the check and the reservation of a place are one step, so one gets in.
        let answers = await withTaskGroup(of: String.self) { group in
            for _ in 0..<6 { group.addTask { await Self.post(namespace, Self.endpoint, offer) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.filter { $0.hasPrefix("HTTP/1.1 201") }.count == 1, "\(answers.map { $0.prefix(20) })")
        let second = try #require(answers.first { !$0.hasPrefix("HTTP/1.1 201") })
        #expect(second.hasPrefix("HTTP/1.1 503"), "\(second)")
        #expect(second.contains("Retry-After: 15\r\n"), "\(second)")
        #expect(second.contains("1 viewers are watching, the most served at once"), "\(second)")

        // 380 KB, past the 64 KiB an offer may have (a file: more than an argument may hold).
        let large = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-offer-\(UUID().uuidString)")
        try ("v=0\r\n" + String(repeating: "a=x-filler:\(String(repeating: "0", count: 80))\r\n", count: 4000))
            .write(to: large, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: large) }
        let tooLarge = await Self.post(namespace, Self.endpoint, "@\(large.path)")
        #expect(tooLarge.hasPrefix("HTTP/1.1 413"), "\(tooLarge.prefix(300))")
        let longHeader = await namespace.curl([
            "-H", "X-Long: \(String(repeating: "z", count: 20_000))", "http://127.0.0.1:8890/live"
        ])
        #expect(longHeader.hasPrefix("HTTP/1.1 400"), "\(longHeader.prefix(300))")
        let longPath = await namespace.curl(["http://127.0.0.1:8890/live/\(String(repeating: "p", count: 20_000))"])
        #expect(longPath.hasPrefix("HTTP/1.1 400"), "\(longPath.prefix(300))")
        let page = await namespace.curl(["http://127.0.0.1:8890/live"])
        #expect(page.hasPrefix("HTTP/1.1 200"), "\(page.prefix(300))")

        server.signal(SIGINT)
        let result = await server.finish(timeout: 20)
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("up to 1 viewer)"), "\(result.stderr)")
        #expect(result.stderr.contains("viewer 1 joined (1 watching)"), "\(result.stderr)")
    }

    /// gstpipe taking a publisher at webrtc://127.0.0.1:8891/in, its token from GSTPIPE_WEBRTC_TOKEN.
    static func recordWithToken(in namespace: NetworkNamespace) async throws -> Spawned {
        let server = namespace.run(
            "/usr/bin/env",
            [
                "GSTPIPE_WEBRTC_TOKEN=\(secret)", CLI.binary.path, "--timeout", "60", "webrtc://127.0.0.1:8891/in",
                "!", "gray", "!", "fakesink"
            ])
        guard await namespace.waitForListener(8891) else {
            Issue.record("gstpipe did not listen: \(await server.finish(timeout: 5).stderr)")
            throw NetworkNamespace.NamespaceError(message: "no server")
        }
        return server
    }

    @Test("A webrtc:// input with GSTPIPE_WEBRTC_TOKEN: WHIP without the token is 401, the publisher page is served")
    func whipToken() async throws {
        let namespace = try await NetworkNamespace()
        let server = try await Self.recordWithToken(in: namespace)
        let whip = "http://127.0.0.1:8891/in/whip"
        let page = await namespace.curl(["http://127.0.0.1:8891/in"])
        #expect(page.hasPrefix("HTTP/1.1 200") && page.contains("'Bearer ' + token"), "\(page.prefix(300))")
        let none = await Self.post(namespace, whip, WebRTCInputTests.offer)
        #expect(none.hasPrefix("HTTP/1.1 401") && none.contains("WWW-Authenticate: Bearer"), "\(none)")
        let wrong = await Self.post(namespace, whip, WebRTCInputTests.offer, authorization: "Bearer nope")
        #expect(wrong.hasPrefix("HTTP/1.1 401") && wrong.contains("invalid_token"), "\(wrong)")
        let deleted = await namespace.curl(["-X", "DELETE", "\(whip)/some-session"])
        #expect(deleted.hasPrefix("HTTP/1.1 401"), "\(deleted)")
        // Past the token, the offer is read: this one is not SDP.
        let right = await Self.post(namespace, whip, "hello", authorization: "Bearer \(Self.secret)")
        #expect(right.hasPrefix("HTTP/1.1 400"), "\(right)")

        server.signal(SIGINT)
        let result = await server.finish(timeout: 20)
        #expect(result.stderr.contains("open http://127.0.0.1:8891/in#token=*** in a browser"), "\(result.stderr)")
        Self.expectNoSecret([page, none, wrong, deleted, right, result.stdout, result.stderr])
    }

    @Test(
        "gstpipe's own viewer page opened with #token= plays the stream; a test page bearing the token watches",
        .browser)
    func pagesWithToken() async throws {
        let uri = "webrtc://127.0.0.1:8890/live?token=\(Self.secret)"
        let embed = "http%3A%2F%2F127.0.0.1%3A8890%2Flive%23token%3D\(Self.secret)"
        let embedded = try await WebRTCTests.watchNoise(at: uri, query: "embed=\(embed)")
        let states = embedded.report?["embed"] as? [String: Any] ?? [:]
        // 'connected' is left out when the first frame beat the connection's state change (WebRTCTests.viewerPage).
        let said = states["states"] as? [String] ?? []
        #expect(said == ["connecting", "connected", "playing"] || said == ["connecting", "playing"], embedded.comment)
        #expect(states["width"] as? Int == 320 && states["height"] as? Int == 240, embedded.comment)

        let watched = try await WebRTCTests.watchNoise(
            at: uri, query: "viewers=1&watch=3&leave=delete&token=\(Self.secret)")
        WebRTCTests.expectMovingGray(watched.seen(0), seconds: 3, watched.comment)
        #expect(watched.report?["deletes"] as? [Int] == [200, 404], watched.comment)
        for run in [embedded, watched] {
            #expect(run.result.status == 130, run.comment)
            Self.expectNoSecret([run.result.stdout, run.result.stderr])
        }
    }

    @Test(
        "A token with + / = is percent-decoded from the address: curl bearing it is served, the page decodes its own",
        .browser)
    func escapedToken() async throws {
        // A base64 token, as a user generates one: written percent-encoded in the address and the page's URL.
        let token = "b64+Zq9/Xv=="
        let encoded = "b64%2BZq9%2FXv%3D%3D"
        let uri = "webrtc://127.0.0.1:8890/live?token=\(encoded)"
        let namespace = try await NetworkNamespace()
        let server = namespace.run(CLI.binary.path, ["noise", "!", "gray", "!", uri])
        guard await namespace.waitForListener(8890) else {
            Issue.record("gstpipe did not listen: \(await server.finish(timeout: 5).stderr)")
            return
        }
        let offer = BrowserOffers.video()
        // The server compared the token as written (%2B and all): the decoded one was refused.
        let right = await Self.post(namespace, Self.endpoint, offer, authorization: "Bearer \(token)")
        #expect(right.hasPrefix("HTTP/1.1 201"), "\(right)")
        let asWritten = await Self.post(namespace, Self.endpoint, offer, authorization: "Bearer \(encoded)")
        #expect(asWritten.hasPrefix("HTTP/1.1 401"), "\(asWritten)")
        server.signal(SIGINT)
        let result = await server.finish(timeout: 20)
        #expect(result.status == 130, "\(result.stderr)")
        Self.expectNoSecret([result.stdout, result.stderr], token)
        Self.expectNoSecret([result.stdout, result.stderr], encoded)

        // The page read its URL with URLSearchParams, which made the + a space.
        let embed = "http%3A%2F%2F127.0.0.1%3A8890%2Flive%23token%3D\(encoded.replacing("%", with: "%25"))"
        let embedded = try await WebRTCTests.watchNoise(at: uri, query: "embed=\(embed)")
        let states = embedded.report?["embed"] as? [String: Any] ?? [:]
        #expect((states["states"] as? [String] ?? []).last == "playing", embedded.comment)
        #expect(states["width"] as? Int == 320 && states["height"] as? Int == 240, embedded.comment)
        #expect(embedded.result.status == 130, embedded.comment)
    }

    @Test("gstpipe's own publisher page opened with #token= publishes into an input that needs the token", .browser)
    func publisherPageWithToken() async throws {
        let namespace = try await NetworkNamespace()
        let server = try await Self.recordWithToken(in: namespace)
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let browser = namespace.run(
            Browser.executable,
            Browser.arguments(profile: profile.path, url: "http://127.0.0.1:8891/in#token=\(Self.secret)"))
        // The page asks for the (fake) camera, offers with the token and publishes.
        try await Task.sleep(for: .seconds(10))
        browser.signal(SIGKILL)
        _ = await browser.finish(timeout: 10)
        server.signal(SIGINT)
        let result = await server.finish(timeout: 30)
        #expect(result.stderr.contains("a publisher came, sending audio and video"), "\(result.stderr)")
        Self.expectNoSecret([result.stdout, result.stderr])
    }
}
