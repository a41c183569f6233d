import Testing

/// `?ladder=` on a `webrtc://` output, as the command line reads it (the parsing itself:
/// `ViewerBandwidthTests` in GstPipeWebRTCTests).
@Suite("WebRTCLadderUsageTests")
struct WebRTCLadderUsageTests {
    @Test("a ladder that cannot be encoded is a usage error (exit 2) naming the rung")
    func ladderUsage() throws {
        let cases = [
            ("640x360:0", "'640x360:0' has a bit rate of 0 kbit/s: write one from 1 to 100000"),
            ("big", "'big' is not a rung: write ladder=off or ladder=WxH:KBPS,...")
        ]
        for (ladder, expected) in cases {
            let address = "webrtc://127.0.0.1:8890/live?ladder=\(ladder)"
            let result = try CLI.run(["videotestsrc", "!", address], timeout: 20)
            #expect(result.status == 2, "\(result.stderr)")
            // The address shown whole: rungs are written WxH:KBPS, since an `@` after a port reads as a
            // password's end to the redactor, which hides too much rather than too little.
            #expect(result.stderr.contains("\(address): ladder=\(ladder): \(expected)"), "\(result.stderr)")
        }
    }
}
