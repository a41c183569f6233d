import Foundation
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
        ])
    func comparing(_ header: String, _ admitted: Bool) throws {
        let address = try Self.address("webrtc://:8890/live?token=s3cret")
        let token = try #require(BearerToken(address: address, environment: [:]))
        #expect(token.admits(header) == admitted)
        #expect(!token.admits(nil))
    }

    @Test("Addresses are shown with token=***, other options kept")
    func masking() {
        #expect(BearerToken.masked("webrtc://:8890/live?codec=h264&token=abc&max-clients=2")
            == "webrtc://:8890/live?codec=h264&token=***&max-clients=2")
    }
}
