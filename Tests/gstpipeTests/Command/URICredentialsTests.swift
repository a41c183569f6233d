import Foundation
import GstPipeParsing
import Testing

@testable import gstpipe

/// Credentials in URIs and users files, read without running anything: taken out of what GStreamer
/// and the messages see, masked wherever a URI is shown, and never in an error.
@Suite("Credentials: URIs, GSTPIPE_RTSP_PASSWORD, users files, rtsp:// options")
struct URICredentialsTests {
    static func failure(_ body: () throws(FileJob.Failure) -> Void) -> String? {
        do {
            try body()
        } catch {
            switch error {
            case .usage(let message), .runtime(let message): return message
            }
        }
        return nil
    }

    @Test("rtsp://USER:PASS@ is split (percent-decoded), masked as USER:***@, and its address has no password")
    func split() throws {
        let (uri, credentials) = try URICredentials.split(
            "rtsp://alice:p%40ss:w@camera:8554/live?x=1", environment: [:])
        #expect(uri == "rtsp://camera:8554/live?x=1")
        #expect(credentials?.user == "alice" && credentials?.password == "p@ss:w")
        #expect(Secrets.redact("rtsps://alice:secret@h/live") == "rtsps://alice:***@h/live")
        #expect(Secrets.redact("rtsp://alice@h/live") == "rtsp://alice@h/live")
        #expect(Secrets.redact("rtsp://h/live?a=b@c") == "rtsp://h/live?a=b@c")
        let output = try #require(
            try StreamOutputs.output(named: "rtsp://alice:secret@0.0.0.0:8554/live") as? RTSPOutput)
        #expect(output.address.uri == "rtsp://alice:***@0.0.0.0:8554/live" && output.address.host == "0.0.0.0")
        #expect(output.address.credentials?.password == "secret")
        // Secrets are the process's: distinct ones, so that tests running beside this one mask nothing here.
        _ = try URICredentials.split("rtsp://alice:s3cr3t-of-split@h/live", environment: [:])
        #expect(Secrets.redact("said s3cr3t-of-split;") == "said ***;")
    }

    @Test("A password with a quote or a backslash is hidden in the address shown and in refusals")
    func passwordWithQuote() throws {
        // Found by Fuzz/FuzzDescription: the address was redacted before its password was registered, and
        // the URI form stops at a quote, so `uri` showed the password whole.
        let output = try #require(
            try StreamOutputs.output(named: #"rtsp://alice:'s3cr%t-quote@0.0.0.0:8554/live"#) as? RTSPOutput)
        #expect(!output.address.uri.contains("s3cr%t-quote"), "\(output.address.uri)")
        #expect(output.address.credentials?.password == "'s3cr%t-quote")
        let refused = Self.failure { () throws(FileJob.Failure) in
            _ = try StreamOutputs.output(named: #"srt://bob:back\slash-pw@127.0.0.1:9000"#)
        }
        #expect(
            refused?.contains("takes no user or password") == true && refused?.contains("slash-pw") == false,
            "\(refused ?? "")")
        let noUser = Self.failure { () throws(FileJob.Failure) in
            _ = try URICredentials.split(#"rtsp://:no"user-pw@h/live"#, environment: [:])
        }
        #expect(
            noUser?.contains("names a password without a user") == true && noUser?.contains("user-pw") == false,
            "\(noUser ?? "")")
    }

    @Test("rtsp://alice@ takes GSTPIPE_RTSP_PASSWORD, and without it says to set it")
    func environment() throws {
        let (_, credentials) = try URICredentials.split(
            "rtsp://alice@h/live", environment: ["GSTPIPE_RTSP_PASSWORD": "env-pa55"])
        #expect(credentials?.password == "env-pa55")
        let message = Self.failure { () throws(FileJob.Failure) in
            _ = try URICredentials.split("rtsp://alice@h/live", environment: [:])
        }
        #expect(message?.contains("names the user alice without a password: set GSTPIPE_RTSP_PASSWORD") == true)
    }

    @Test("A scheme without credentials refuses them, the password masked")
    func refused() {
        let message = Self.failure { () throws(FileJob.Failure) in
            _ = try StreamOutputs.output(named: "srt://bob:hunter2@127.0.0.1:9000")
        }
        #expect(
            message == "srt://bob:***@127.0.0.1:9000: a srt:// address takes no user or password: write it as "
                + "srt://HOST:9000 (caller) or srt://:9000 (listener)", "\(message ?? "")")
    }

    @Test("A users file: comments and blank lines skipped, htdigest's user:gstpipe:HASH a hash, errors without secrets")
    func usersFile() throws {
        let users = try RTSPUser.parse(
            "# viewers\n\nbob:b0b-pass\n carol:gstpipe:0123456789abcdef0123456789ABCDEF \n"
                + "dave:00112233445566778899aabbccddeeff\nerin:pa:ss\n", file: "users")
        #expect(users.map(\.name) == ["bob", "carol", "dave", "erin"])
        guard case .password("b0b-pass") = users[0].secret, case .digestHash(let hash) = users[1].secret,
            // 32 hex digits alone are a password (openssl rand -hex 16), not a hash.
            case .password("00112233445566778899aabbccddeeff") = users[2].secret,
            case .password("pa:ss") = users[3].secret
        else {
            Issue.record("\(users)")
            return
        }
        #expect(hash == "0123456789abcdef0123456789abcdef")
        // htdigest's line for another realm: its hash could never match, and it is no password either.
        let otherRealm = Self.failure { () throws(FileJob.Failure) in
            _ = try RTSPUser.parse("bob:pw1\nfrank:Cameras:0123456789abcdef0123456789abcdef\n", file: "u")
        }
        #expect(
            otherRealm == "u, line 2: an htdigest hash for the realm Cameras, which gstpipe does not use: make it "
                + "for the realm gstpipe (htdigest FILE gstpipe frank)")
        // Written on Windows: each line ends in "\r\n".
        let crlf = try RTSPUser.parse("# viewers\r\nbob:b0b-pass\r\ncarol:c4rol\r\n", file: "users")
        #expect(crlf.map(\.name) == ["bob", "carol"])
        guard case .password("b0b-pass") = crlf.first?.secret else {
            Issue.record("\(crlf)")
            return
        }
        let bad = Self.failure { () throws(FileJob.Failure) in
            _ = try RTSPUser.parse("dave-no-colon-s3cret\n", file: "u")
        }
        #expect(bad == "u, line 1: write each user as user:password (or user:gstpipe:digest-hash)")
        let empty = Self.failure { () throws(FileJob.Failure) in _ = try RTSPUser.parse("# nobody\n", file: "u") }
        #expect(empty == "the users file u names no user: add lines of user:password")
    }

    @Test("rtsp:// options: auth=basic|digest and max-clients=N; anything else named")
    func options() {
        #expect(
            Self.failure { () throws(FileJob.Failure) in
                _ = try StreamOutputs.output(named: "rtsp://h/live?auth=basic&max-clients=3")
            } == nil)
        #expect(
            Self.failure { () throws(FileJob.Failure) in
                _ = try StreamOutputs.output(named: "rtsp://h/live?auth=ntlm")
            } == "rtsp://h/live?auth=ntlm: auth takes basic or digest, not ntlm")
        #expect(
            Self.failure { () throws(FileJob.Failure) in
                _ = try StreamOutputs.output(named: "rtsp://h/live?max-clients=0")
            } == "rtsp://h/live?max-clients=0: max-clients takes a number of clients, 1 to 10000, not 0")
        #expect(
            Self.failure { () throws(FileJob.Failure) in
                _ = try StreamOutputs.output(named: "rtsp://h/live?max-clients=3000000000")
            } == "rtsp://h/live?max-clients=3000000000: max-clients takes a number of clients, 1 to 10000, "
                + "not 3000000000")
        let other = Self.failure { () throws(FileJob.Failure) in
            _ = try StreamOutputs.output(named: "rtsp://h/live?x=1")
        }
        #expect(
            other?.hasPrefix("rtsp://h/live?x=1: an rtsp:// output takes auth=basic|digest and max-clients=N") == true)
    }
}
