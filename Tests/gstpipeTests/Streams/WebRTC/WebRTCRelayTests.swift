import BrowserOffers
import Foundation
import Testing

/// `--turn`, `--stun` and `--public-ip` on a `webrtc://` output: a viewer that may use relayed
/// candidates alone still watches, through Debian's coturn started in the test's namespace.
/// In WebRTCTests' suite, so that it runs serialized with the other browser tests.
extension WebRTCTests {
    static let turnUser = "alice"
    static let turnPassword = "s3cret-turn-pass"

    /// coturn on 127.0.0.1:3478 with one user, relaying to loopback peers (which it refuses by default).
    static func startTURN(in namespace: NetworkNamespace) async throws -> Spawned {
        let turn = namespace.run(
            "/usr/bin/turnserver",
            [
                "-n", "--listening-ip=127.0.0.1", "--relay-ip=127.0.0.1", "--listening-port=3478",
                "--lt-cred-mech", "--user=\(turnUser):\(turnPassword)", "--realm=gstpipe.test",
                "--allow-loopback-peers", "--no-tls", "--no-dtls", "--no-cli", "--min-port=49152",
                "--max-port=49300", "--log-file=stdout", "--simple-log"
            ])
        // turnserver speaks no HTTP: wait until its UDP port is bound.
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            let bound = await namespace.run("/usr/bin/ss", ["-uln", "sport = :3478"]).finish(timeout: 5)
            if bound.stdout.contains("127.0.0.1:3478") { return turn }
            try await Task.sleep(for: .milliseconds(200))
        }
        turn.signal(SIGKILL)
        throw NetworkNamespace.NamespaceError(message: "coturn did not listen: \(await turn.finish(timeout: 5).stdout)")
    }

    @Test(
        "--turn: a viewer limited to relayed candidates watches through coturn; the page and WHEP give the server",
        .browser,
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/turnserver"),
            "coturn is not installed (scripts/setup.sh installs it)"))
    func relayedViewer() async throws {
        let namespace = try await NetworkNamespace()
        let turn = try await Self.startTURN(in: namespace)
        defer { turn.signal(SIGKILL) }
        let turnURI = "turn://\(Self.turnUser):\(Self.turnPassword)@127.0.0.1:3478"
        let server = namespace.run(
            CLI.binary.path, ["noise", "!", "gray", "!", "webrtc://127.0.0.1:8890/live", "--turn", turnURI])
        guard await namespace.waitForListener(8890) else {
            Issue.record("gstpipe did not listen: \(await server.finish(timeout: 5).stderr)")
            return
        }

        // gstpipe's own page gives its peer connection the same TURN server.
        let page = await namespace.curl(["http://127.0.0.1:8890/live"])
        #expect(page.contains(#""urls":"turn:127.0.0.1:3478""#), "\(page.prefix(2000))")
        #expect(page.contains(#""username":"alice""#), "\(page.prefix(2000))")

        let configuration =
            #"{"iceTransportPolicy":"relay","iceServers":[{"urls":"turn:127.0.0.1:3478","#
            + #""username":"\#(Self.turnUser)","credential":"\#(Self.turnPassword)"}]}"#
        let query =
            "endpoint=\(Self.endpoint)&viewers=1&watch=4&ice="
            + (configuration.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        let session = try await BrowserSession(in: namespace, query: query)
        let report = await session.result(named: "report", timeout: 90)
        await session.close()
        server.signal(SIGINT)
        let run = Run(report: report, result: await server.finish(timeout: 20))
        let comment = run.comment
        if let error = report?["error"] { Issue.record("the page failed: \(error)") }
        // The server gathered relay candidates of its own through coturn, and the browser, allowed
        // no other kind, reached it through its own relay.
        #expect((run.firstViewer["relayCandidates"] as? Int ?? 0) >= 1, comment)
        #expect(run.seen(0)["localCandidateType"] as? String == "relay", comment)
        Self.expectMovingGray(run.seen(0), seconds: 4, comment)
        // The note names the TURN server without its password.
        #expect(run.result.stderr.contains("ICE: turn://alice:***@127.0.0.1:3478"), comment)
        expectHidden([Self.turnPassword], in: ShownText(run.result))
        #expect(run.result.status == 130, comment)
    }

    @Test("--stun and --public-ip: the WHEP answer offers each host candidate at the public address too")
    func publicAddress() async throws {
        let namespace = try await NetworkNamespace()
        let server = namespace.run(
            CLI.binary.path,
            [
                "noise", "!", "gray", "!", "webrtc://127.0.0.1:8890/live", "--public-ip", "203.0.113.7",
                "--stun", "stun://127.0.0.1:3478"
            ])
        guard await namespace.waitForListener(8890) else {
            Issue.record("gstpipe did not listen: \(await server.finish(timeout: 5).stderr)")
            return
        }
        let answer = await namespace.curl([
            "-X", "POST", "-H", "Content-Type: application/sdp", "--data-binary", BrowserOffers.video(),
            Self.endpoint
        ])
        server.signal(SIGINT)
        let result = await server.finish(timeout: 20)
        #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer)")
        let candidates = answer.components(separatedBy: "\r\n").filter { $0.hasPrefix("a=candidate:") }
        let local = candidates.filter { $0.contains(" 127.0.0.1 ") && $0.contains("typ host") }
        let published = candidates.filter { $0.contains(" 203.0.113.7 ") && $0.contains("typ host") }
        #expect(!local.isEmpty, "\(answer)")
        // The same ports, at the public address.
        let port = { (line: String) in line.split(separator: " ")[5] }
        #expect(Set(published.map(port)) == Set(local.map(port)), "\(answer)")
        #expect(answer.lowercased().contains(#"link: <stun:127.0.0.1:3478>; rel="ice-server""#), "\(answer)")
        #expect(result.stderr.contains("ICE: stun://127.0.0.1:3478, public address 203.0.113.7"), "\(result.stderr)")
        #expect(result.status == 130, "\(result.stderr)")
    }
}
