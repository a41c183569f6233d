import Foundation
import Testing

/// With a token, the pages of a `webrtc://` output and input hold no TURN password (anyone may load
/// them): the endpoint gives the ICE servers, credentials and all, as `Link` headers to an `OPTIONS`
/// that bears the token, and to nothing else. curl in a network namespace of its own.
@Suite(
    "WebRTCICEServersTests", .serialized,
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"))
struct WebRTCICEServersTests {
    static let secret = "tok-Ice3Rv8"
    static let password = "pw-Turn7xQ"
    static let turn = "turn://alice:\(password)@127.0.0.1:3478"

    /// The page, and the endpoint's OPTIONS without and with the token, of the server at `port`.
    static func check(_ namespace: NetworkNamespace, page: String, endpoint: String) async {
        let served = await namespace.curl([page])
        #expect(served.hasPrefix("HTTP/1.1 200"), "\(served.prefix(300))")
        #expect(!served.contains(password), "the page holds the TURN password")
        #expect(served.contains("withServerICE"), "the page asks the endpoint for its ICE servers")
        let anonymous = await namespace.curl(["-X", "OPTIONS", endpoint])
        #expect(anonymous.hasPrefix("HTTP/1.1 204"), "\(anonymous)")
        #expect(!anonymous.contains(password), "OPTIONS without the token gives the TURN password: \(anonymous)")
        let wrong = await namespace.curl(["-X", "OPTIONS", "-H", "Authorization: Bearer nope", endpoint])
        #expect(!wrong.contains(password), "OPTIONS with a wrong token gives the TURN password: \(wrong)")
        let admitted = await namespace.curl(["-X", "OPTIONS", "-H", "Authorization: Bearer \(secret)", endpoint])
        let link = #"<turn:127.0.0.1:3478>; rel="ice-server"; username="alice"; credential=""# + password + "\""
        #expect(admitted.contains(link), "\(admitted)")
    }

    @Test("webrtc:// output, a token and --turn: no TURN password in the viewer page; OPTIONS with the token has it")
    func viewerPage() async throws {
        let namespace = try await NetworkNamespace()
        let server = namespace.run(
            CLI.binary.path,
            ["--turn", Self.turn, "noise", "!", "gray", "!", "webrtc://127.0.0.1:8890/live?token=\(Self.secret)"])
        guard await namespace.waitForListener(8890) else {
            Issue.record("gstpipe did not listen: \(await server.finish(timeout: 5).stderr)")
            return
        }
        await Self.check(namespace, page: "http://127.0.0.1:8890/live", endpoint: "http://127.0.0.1:8890/live/whep")
        server.signal(SIGINT)
        let result = await server.finish(timeout: 30)
        #expect(!(result.stdout + result.stderr).contains(Self.password), "gstpipe printed the TURN password")
    }

    @Test("webrtc:// input, a token and --turn: no TURN password in the publisher page; OPTIONS with the token has it")
    func publisherPage() async throws {
        let namespace = try await NetworkNamespace()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-\(UUID().uuidString).mkv")
        defer { try? FileManager.default.removeItem(at: output) }
        let server = namespace.run(
            CLI.binary.path,
            ["--turn", Self.turn, "webrtc://127.0.0.1:8891/in?token=\(Self.secret)", "!", "gray", "!", output.path])
        guard await namespace.waitForListener(8891) else {
            Issue.record("gstpipe did not listen: \(await server.finish(timeout: 5).stderr)")
            return
        }
        await Self.check(namespace, page: "http://127.0.0.1:8891/in", endpoint: "http://127.0.0.1:8891/in/whip")
        server.signal(SIGINT)
        _ = await server.finish(timeout: 30)
    }
}
