import Foundation
import Testing

/// The WebRTC server's limits with a real slow client (`scripts/slow-requests.py`) against a
/// `webrtc://` input, the limits made short by `GSTPIPE_WEBRTC_LIMITS` so that the test takes
/// seconds: a request's whole time, connections per address, the close after a 401 without reading
/// the body, and a publisher that never connects giving its place up. In a network namespace.
@Suite(
    "ServerLimitsTests",
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"))
struct ServerLimitsTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/slow-requests.py").path

    @Test("A slow body is cut at the request limit, a 5th connection from one address refused, 401 closes")
    func limits() async throws {
        let secret = "slow-client-secret-4f1"
        let namespace = try await NetworkNamespace()
        let offer = FileManager.default.temporaryDirectory.appendingPathComponent("offer-\(UUID().uuidString).sdp")
        try WebRTCInputTests.offer.write(to: offer, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: offer) }
        let server = namespace.run(
            "/usr/bin/env",
            ["GSTPIPE_WEBRTC_LIMITS=request=3,per-address=4,connect=2", CLI.binary.path, "--timeout", "40",
             "webrtc://127.0.0.1:8891/in?token=\(secret)", "!", "gray", "!", "fakesink"])
        guard await namespace.waitForListener(8891) else {
            let result = await server.finish(timeout: 5)
            Issue.record("gstpipe did not listen: \(result.stderr)")
            return
        }
        let client = await namespace.run("/usr/bin/python3", [Self.script, "8891", secret, offer.path])
            .finish(timeout: 60)
        server.signal(SIGINT)
        let result = await server.finish(timeout: 20)
        let report = (try? JSONSerialization.jsonObject(with: Data(client.stdout.utf8))) as? [String: Any] ?? [:]
        let comment = Comment(rawValue: "\(client.stdout) \(client.stderr) \(result.stderr)")
        #expect(report["perAddress"] as? Int == 2, comment)
        #expect((report["otherAddress"] as? String)?.hasPrefix("HTTP/1.1 200") == true, comment)
        let slow = report["slowBody"] as? Double ?? 0
        #expect(slow >= 2 && slow <= 6, comment)
        #expect((report["status401"] as? String)?.hasPrefix("HTTP/1.1 401") == true, comment)
        #expect(report["after401"] as? Double ?? 99 < 1.5, comment)
        let publishers = (report["publishers"] as? [String] ?? []).map { $0.prefix(12) }
        #expect(publishers == ["HTTP/1.1 201", "HTTP/1.1 409", "HTTP/1.1 201"], comment)
        #expect(result.stderr.contains("did not connect within 2 s; waiting for another"), comment)
        #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), comment)
    }
}
