import CGStreamer
import Foundation
import GstPipeParsing
import MediaIO
import Testing

@testable import gstpipe

/// `Secrets.redact`, read without a network: every form a secret takes, what stays as written, and
/// the secrets registered at start-up.
@Suite("Secrets: passwords and tokens written ***")
struct SecretsTests {
    @Test(
        "A URI's password is hidden, the rest of the URI kept",
        arguments: [
            ("cannot read rtsp://alice:s3cret@127.0.0.1:554/cam", "cannot read rtsp://alice:***@127.0.0.1:554/cam"),
            ("rtsps://alice:p@ss@host/x (served)", "rtsps://alice:***@host/x (served)"),
            ("ICE: turn://alice:pw%40x@turn.example.net:3478", "ICE: turn://alice:***@turn.example.net:3478"),
            ("turns://bob:k3y@[::1]:5349", "turns://bob:***@[::1]:5349"),
            (
                #"text=(string)"Connecting\ to\ rtsp://alice:s3cret\@h/x""#,
                #"text=(string)"Connecting\ to\ rtsp://alice:***\@h/x""#
            ),
            (#"location=\"rtsp://alice:s3cret@127.0.0.1:1/x\"\n"#, #"location=\"rtsp://alice:***@127.0.0.1:1/x\"\n"#),
            // No password, or no user: nothing to hide.
            ("rtsp://alice@host:8554/live", "rtsp://alice@host:8554/live"),
            ("http://127.0.0.1:8080/live?x=1", "http://127.0.0.1:8080/live?x=1"),
            // A port and a path to a URI parser, a password to its user: hidden (a path's `@` is rarer than a
            // password of digits before a slash).
            ("rtsp://alice:123/x@host/", "rtsp://alice:***@host/"),
            ("rtsp://host:8554/a@b", "rtsp://host:***@b"),
            // Help text's placeholders stay.
            ("rtsp://USER:PASS@HOST:PORT/PATH", "rtsp://USER:PASS@HOST:PORT/PATH")
        ])
    func uriPasswords(text: String, shown: String) {
        #expect(Secrets.redact(text) == shown)
    }

    @Test(
        "token=, password= and passphrase= values, in a query, a fragment, a description or a graph",
        arguments: [
            ("whip+http://h/whip?codec=vp8&token=abc&room=1", "whip+http://h/whip?codec=vp8&token=***&room=1"),
            (
                "cannot reach whep+http://h/whep?token=abc: refused",
                "cannot reach whep+http://h/whep?token=***: refused"
            ),
            ("http://h:8889/live#token=abc", "http://h:8889/live#token=***"),
            ("srt://127.0.0.1:9?passphrase=longphrase1 failed", "srt://127.0.0.1:9?passphrase=*** failed"),
            (#"proxy-pw=NULL\nuser-pw=\"otherpw\""#, #"proxy-pw=NULL\nuser-pw=\"***\""#),
            ("rtspsrc user-pw=otherpw ! fakesink", "rtspsrc user-pw=*** ! fakesink"),
            // Whole values, whatever they hold: separators, quotes, spaces and non-ASCII, as a graph escapes them.
            (#"user-pw=\"ab;cdefgh\""#, #"user-pw=\"***\""#),
            (#"user-pw=\"ab;cd,ef g\\\"h'i\\303\\251\\\\\\\\x\"";"#, #"user-pw=\"***\"";"#),
            (#"password="a b;c,d\"e" x"#, #"password="***" x"#),
            ("passphrase='a b;c' x", "passphrase='***' x"),
            ("rtspsrc user-pw=ab;cd,ef ! fakesink", "rtspsrc user-pw=*** ! fakesink"),
            ("?password=pässwörd&x=1", "?password=***&x=1"),
            ("token=abc, then", "token=***, then"),
            // Placeholders and empty values stay.
            ("add ?token=TOKEN to the address", "add ?token=TOKEN to the address"),
            ("webrtc://h/p?token=: token= is empty", "webrtc://h/p?token=: token= is empty")
        ])
    func options(text: String, shown: String) {
        #expect(Secrets.redact(text) == shown)
    }

    @Test("GLib's log (g_log, g_warning) goes through the redactor once gstpipe's log is taken over")
    func glibLog() throws {
        Secrets.register("glibsecret42")
        redactGLibLog()
        // Standard error swapped for a pipe while one warning is logged, then put back.
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let saved = dup(STDERR_FILENO)
        dup2(ends[1], STDERR_FILENO)
        let words = [
            "GLIB_DOMAIN", "gstpipe-test", "MESSAGE", "reaching rtsp://alice:glibsecret42@h/x and glibsecret42 alone"
        ]
        let texts = words.map { strdup($0)! }
        defer { texts.forEach { free($0) } }
        var fields = [
            GLogField(key: UnsafePointer(texts[0]), value: UnsafeRawPointer(texts[1]), length: -1),
            GLogField(key: UnsafePointer(texts[2]), value: UnsafeRawPointer(texts[3]), length: -1)
        ]
        g_log_structured_array(G_LOG_LEVEL_WARNING, &fields, 2)
        dup2(saved, STDERR_FILENO)
        close(saved)
        close(ends[1])
        var bytes = [UInt8](repeating: 0, count: 65536)
        let count = read(ends[0], &bytes, bytes.count)
        close(ends[0])
        let shown = String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
        #expect(shown.contains("reaching rtsp://alice:***@h/x and *** alone"), "\(shown)")
        #expect(!shown.contains("glibsecret42"), "\(shown)")
    }

    @Test("A bearer token is hidden; the words \"Bearer token\" and a challenge's realm stay")
    func bearer() {
        #expect(Secrets.redact("Authorization: Bearer abc.DEF-1_2~3+4/5==") == "Authorization: Bearer ***")
        #expect(Secrets.redact("give a Bearer token") == "give a Bearer token")
        #expect(
            Secrets.redact(#"WWW-Authenticate: Bearer realm="gstpipe""#) == #"WWW-Authenticate: Bearer realm="gstpipe""#
        )
        // A registered secret (another test's token, a user's --token) can be one piece of a longer
        // token; masked first, it must not leave the rest of the token showing.
        Secrets.register("q7zk")
        #expect(Secrets.redact("Authorization: Bearer q7zk.DEF-1_2") == "Authorization: Bearer ***")
    }

    @Test("Secrets of the command line and of GSTPIPE_*_PASSWORD/TOKEN are hidden on their own too")
    func registered() {
        Secrets.registerStartup(
            arguments: ["rtsp://alice:argpass17@127.0.0.1/x", "--turn=turn://bob:turn%2Fpw9@h:3478", "!", "fakesink"],
            environment: [
                "GSTPIPE_RTSP_PASSWORD": "envpass23", "GSTPIPE_WHIP_TOKEN": "envtoken31", "HOME": "/root",
                "GSTPIPE_RTSP_USER": "carol"
            ])
        #expect(Secrets.redact("401 for alice with argpass17") == "401 for alice with ***")
        // As written and percent-decoded.
        #expect(Secrets.redact("turn/pw9 and turn%2Fpw9") == "*** and ***")
        #expect(Secrets.redact("Authorization envpass23 envtoken31") == "Authorization *** ***")
        // Other variables are no secrets.
        #expect(Secrets.redact("/root carol") == "/root carol")
        #expect(Secrets.isSecretVariable("GSTPIPE_RTSP_PASSWORD") && !Secrets.isSecretVariable("GSTPIPE_RTSP_USER"))
        #expect(Secrets.isSecretVariable("GSTPIPE_RTMP_KEY"))
        // An RTMP address's stream key is found in a command line, and hidden wherever it shows then.
        let command = "noise ! gray ! rtmp://a.rtmp.youtube.com/live2/abcd-1234?bitrate=3000"
        #expect(Secrets.found(in: command) == ["abcd-1234"])
        #expect(Secrets.found(in: "rtmps://host/live") == [])
        #expect(Secrets.found(in: "rtsp://a:b1@h/x?token=t2 Bearer t3") == ["b1", "t2", "t3"])
    }

    @Test("A short registered secret is hidden where it stands alone, not inside longer words (\"token\")")
    func shortSecretInsideWords() {
        // As `whip+http://…?token=tok` and a password "ord" register them: each is also a piece of
        // ordinary words ("token", "password", "words"), which used to print `?***en=***`.
        Secrets.registerStartup(
            arguments: ["whip+http://127.0.0.1:9/whip?token=tok", "rtsp://alice:ord@127.0.0.1/x"], environment: [:])
        #expect(
            Secrets.redact("cannot publish to whip+http://127.0.0.1:9/whip?token=tok: 401")
                == "cannot publish to whip+http://127.0.0.1:9/whip?token=***: 401")
        #expect(
            Secrets.redact("the password for rtsp://alice:ord@h/x: wrong words")
                == "the password for rtsp://alice:***@h/x: wrong words")
        // Alone, after a slash, in quotes or at either end, the secret itself never shows.
        #expect(Secrets.redact("tok said ord") == "*** said ***")
        #expect(Secrets.redact(#"a token "tok" in /ord/x, (tok)"#) == #"a token "***" in /***/x, (***)"#)
        #expect(Secrets.redact("tokens, stoke, tok2 and word") == "tokens, stoke, tok2 and word")
        // A secret of 8 characters or more is hidden even run together with other text: a percent
        // escape, base64, a word.
        Secrets.register("hunter2pw")
        #expect(Secrets.redact("%3Dhunter2pw and hunter2pws, Zhunter2pw") == "%3D*** and ***s, Z***")
    }

    @Test("A registered secret with a space, a ; or a quote is hidden whole where a form's value stops early")
    func registeredSecretInsideForms() {
        // Found by Fuzz/FuzzRedactor: the forms went first, masked `2755` and left ` 244751 4567`, and the
        // secret, no longer whole, was not found after.
        for secret in ["2755 244751 4567", "ab;cdefgh", #"p@ss w'rd"é9€"#] { Secrets.register(secret) }
        #expect(
            Secrets.redact("srt: srt://host?passphrase=2755 244751 4567&latency=low refused")
                == "srt: srt://host?passphrase=***&latency=low refused")
        #expect(Secrets.redact(#"rtspsrc user-pw=\"ab;cdefgh\" ! fakesink"#) == #"rtspsrc user-pw=\"***\" ! fakesink"#)
        #expect(Secrets.redact(#"graph: [label="p@ss w'rd"é9€"]"#) == #"graph: [label="***"]"#)
    }

    @Test("A registered secret holding a NUL, or followed by a combining mark, is hidden without a crash")
    func registeredSecretScalars() {
        // Found by Fuzz/FuzzDescription: Foundation's range(of:) gave indices past the text for a secret
        // with a NUL (from a description file's bytes), and the redactor trapped.
        Secrets.register("nul\0in-the-secret")
        #expect(Secrets.redact("rtsp://[::3]/x?a=nul\0in-the-secret b") == "rtsp://[::3]/x?a=*** b")
        // As Characters, "-combined" followed by U+0301 ends in "d\u{301}", not "d": found by scalars.
        Secrets.register("secret-combined")
        #expect(Secrets.redact("said secret-combined\u{301}.") == "said ***\u{301}.")
    }

    @Test("A registered secret inside a real GStreamer error and its debug details is hidden")
    func gstreamerError() throws {
        Secrets.register("gstsecret41")
        let pipeline = try Pipeline(launch: "filesrc location=/nonexistent/gstsecret41.mp4 ! fakesink")
        defer { pipeline.stop() }
        do {
            try pipeline.play()
            Issue.record("a missing file played")
        } catch {
            let text = "\(error.message)\n\(error.debug ?? "")"
            #expect(text.contains("gstsecret41"), "GStreamer's words no longer quote the location: \(text)")
            let shown = Secrets.redact(text)
            #expect(!shown.contains("gstsecret41") && shown.contains("/nonexistent/***.mp4"), "\(shown)")
        }
    }

    @Test("A failure read before it is printed (a scheme's usage error) is redacted as a whole")
    func failure() {
        guard case .usage(let message) = FileJob.Failure.usage("rtsp://alice:pw55x@h/x: bad").redacted else {
            Issue.record("not a usage error")
            return
        }
        #expect(message == "rtsp://alice:***@h/x: bad")
    }
}
