import Foundation
import GstPipeParsing
import GstPipeWebRTC
import Testing

@testable import gstpipe

/// How a `webrtc://` address's token is read and compared, without a network (`BearerToken`).
@Suite("BearerToken: a webrtc:// address's token, read and compared")
struct BearerTokenTests {
    static func address(_ uri: String) throws -> StreamAddress {
        try StreamAddress.parse(uri, as: WebRTCOutput.scheme)
    }

    @Test("The address's token wins over the environment's; none, or an empty one, is no token")
    func reading() throws {
        let withToken = try Self.address("webrtc://:8890/live?token=abc")
        let without = try Self.address("webrtc://:8890/live")
        let environment = [BearerToken.variable: "env"]
        #expect(BearerToken(address: withToken, environment: environment)?.admits("Bearer abc") == true)
        #expect(BearerToken(address: withToken, environment: environment)?.admits("Bearer env") == false)
        #expect(BearerToken(address: without, environment: environment)?.admits("Bearer env") == true)
        #expect(BearerToken(address: without, environment: [:]) == nil)
        #expect(BearerToken(address: without, environment: [BearerToken.variable: ""]) == nil)
    }

    @Test(
        "Only Bearer and the token itself are admitted",
        arguments: [
            ("Bearer s3cret", true), ("bearer s3cret", true), ("Bearer s3cre", false), ("Bearer s3cret!", false),
            ("Bearer S3CRET", false), ("Basic s3cret", false), ("s3cret", false), ("Bearer ", false), ("", false),
            // 256 bytes more: a length difference kept to its low byte would be none.
            ("Bearer s3cret" + String(repeating: "x", count: 256), false)
        ])
    func comparing(_ header: String, _ admitted: Bool) throws {
        let address = try Self.address("webrtc://:8890/live?token=s3cret")
        let token = try #require(BearerToken(address: address, environment: [:]))
        #expect(token.admits(header) == admitted)
        #expect(!token.admits(nil))
    }

    @Test("Addresses are shown with token=***, other options kept")
    func masking() {
        #expect(
            Secrets.redact("webrtc://:8890/live?codec=h264&token=abc&max-clients=2")
                == "webrtc://:8890/live?codec=h264&token=***&max-clients=2")
    }

    @Test("Options a webrtc:// output or input refuses are named, the token shown as ***")
    func refusedOptions() {
        func refusal(_ uri: String, as scheme: OutputScheme) -> String? {
            OutputSchemeTests.usageMessage { () throws(FileJob.Failure) in
                _ = try StreamAddress.parse(uri, as: scheme)
            }
        }
        #expect(
            refusal("webrtc://:8890/live?token=abc&max-clients=0", as: WebRTCOutput.scheme)
                == "webrtc://:8890/live?token=***&max-clients=0: max-clients=0 is not a number of viewers: write one "
                + "from 1 to 10000")
        #expect(
            refusal("webrtc://:8890/live?token=abc&fps=5", as: WebRTCOutput.scheme)
                == "webrtc://:8890/live?token=***&fps=5: webrtc:// takes codec (vp8 or h264), token, max-clients and "
                + "ladder, not fps")
        #expect(
            refusal("webrtc://:8891/in?token=abc&codec=h264", as: WebRTCInput.scheme)
                == "webrtc://:8891/in?token=***&codec=h264: a webrtc:// input takes one option, token, not codec")
        #expect(refusal("webrtc://:8891/in?token=abc", as: WebRTCInput.scheme) == nil)
        // An empty token is refused (as every option without a value), not read as none.
        #expect(refusal("webrtc://:8890/live?token=", as: WebRTCOutput.scheme)?.contains("token= has no value") == true)
        #expect(refusal("webrtc://:8891/in?token=", as: WebRTCInput.scheme)?.contains("token= has no value") == true)
    }

    @Test("An empty GSTPIPE_WEBRTC_TOKEN is a usage error (exit 2) before anything is served")
    func emptyEnvironmentToken() throws {
        #expect(BearerToken.emptiness(nil, environment: [BearerToken.variable: ""]) != nil)
        #expect(BearerToken.emptiness(nil, environment: [:]) == nil)
        #expect(BearerToken.emptiness("x", environment: [BearerToken.variable: ""]) == nil)
        for address in ["webrtc://127.0.0.1:8890/live", "webrtc://127.0.0.1:8891/in"] {
            let description = address.hasSuffix("/in") ? [address, "!", "fakesink"] : ["videotestsrc", "!", address]
            let result = try CLI.run(description, environment: [BearerToken.variable: ""], timeout: 20)
            #expect(result.status == 2, "\(address): \(result.stderr)")
            #expect(result.stderr.contains("GSTPIPE_WEBRTC_TOKEN is set but empty"), "\(result.stderr)")
        }
    }
}
