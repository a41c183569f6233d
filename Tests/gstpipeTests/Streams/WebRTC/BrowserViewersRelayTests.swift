import Foundation
import Testing

/// `BrowserViewers.serve(…, ice: BrowserICEServers(turn:))`: the library, not the CLI, serves a browser
/// that may use relayed candidates alone, through Debian's coturn started in the test's namespace
/// (`WebRTCTests.startTURN`). The helper executable `BrowserViewersTone` serves; headless Chromium
/// watches from the test page on another origin with `iceTransportPolicy: 'relay'`. In the serialized
/// suite of the library's other browser test.
extension BrowserViewersAudioTests {
    @Test(
        "a browser limited to relayed candidates watches a Swift VideoSource served by the library through coturn",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/turnserver"),
            "coturn is not installed (scripts/setup.sh installs it)"))
    func relayedViewer() async throws {
        let namespace = try await NetworkNamespace()
        let turn = try await WebRTCTests.startTURN(in: namespace)
        defer { turn.signal(SIGKILL) }
        let (user, password) = (WebRTCTests.turnUser, WebRTCTests.turnPassword)
        let configuration =
            #"{"iceTransportPolicy":"relay","iceServers":[{"urls":"turn:127.0.0.1:3478","#
            + #""username":"\#(user)","credential":"\#(password)"}]}"#
        let query =
            "endpoint=\(WebRTCTests.endpoint)&viewers=1&watch=4&ice="
            + (configuration.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        var page = ""
        let run = try await Self.watchHelper(
            in: namespace, arguments: ["--turn", "turn://\(user):\(password)@127.0.0.1:3478"], query: query
        ) {
            // The library's viewer page gives its peer connection the same TURN server.
            page = await namespace.curl(["http://127.0.0.1:8890/live"])
        }
        guard let run else { return }
        #expect(page.contains(#""urls":"turn:127.0.0.1:3478""#), "\(page.prefix(2000))")
        let (report, result, comment) = (run.report, run.result, run.comment)
        #expect(report?["error"] == nil, comment)
        // The library's webrtcbin gathered relay candidates through coturn, and the browser, allowed no
        // other kind, reached it through its own relay.
        #expect((run.firstViewer["relayCandidates"] as? Int ?? 0) >= 1, comment)
        let seen = run.seen(0)
        #expect(seen["localCandidateType"] as? String == "relay", comment)
        // Gray bars (R = G = B) at 320x240, moving, frames still coming after 4 s.
        #expect((seen["frames"] as? Int ?? 0) >= 4 * 10, comment)
        #expect(seen["width"] as? Int == 320 && seen["height"] as? Int == 240, comment)
        #expect((seen["maxSpread"] as? Int ?? 255) <= 12, comment)
        #expect((seen["changes"] as? Int ?? 0) >= 2, comment)
        // Closed cleanly, the TURN password printed nowhere (`result.stderr` holds both of its streams).
        #expect(result.status == 0, comment)
        #expect(!result.stderr.contains(password), comment)
    }
}

extension BrowserViewersAudioTests {
    /// In `namespace`: the helper serves on port 8890 with `arguments`, `before` runs once it listens,
    /// the test page watches with `query` from another origin, then the helper is sent SIGINT and
    /// waited for. The run's `result.stderr` holds what the helper printed on both streams; nil (an
    /// issue recorded) when the helper is not built or never listened.
    static func watchHelper(
        in namespace: NetworkNamespace, arguments: [String] = [], query: String,
        before: () async -> Void = {}
    ) async throws -> WebRTCTests.Run? {
        let built = FileManager.default.isExecutableFile(atPath: executable)
        try #require(built, "build the helper: swift build --build-tests")
        let server = namespace.run(executable, ["--port", "8890"] + arguments)
        guard await namespace.waitForListener(8890) else {
            let result = await server.finish(timeout: 5)
            Issue.record("BrowserViewersTone did not listen: \(result.stdout) \(result.stderr)")
            return nil
        }
        await before()
        let session = try await BrowserSession(in: namespace, query: query)
        let report = await session.result(named: "report", timeout: 90)
        await session.close()
        server.signal(SIGINT)
        var result = await server.finish(timeout: 20)
        result.stderr = result.stdout + result.stderr
        try #require(report != nil, "the page reported nothing: \(result.stderr)")
        return WebRTCTests.Run(report: report, result: result)
    }
}
