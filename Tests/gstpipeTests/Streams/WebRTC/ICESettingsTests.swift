import Foundation
import GstPipeWebRTC
import Testing

@testable import gstpipe

/// `--stun`, `--turn` and `--public-ip` read, refused and applied to an answer, without a network.
@Suite("ICE settings for webrtc://, read without a network")
struct ICESettingsTests {
    @Test("--turn: user, password and address; percent-encoding both ways; the password never shown")
    func turn() throws {
        let turn = try ICESettings.turnServer("turn://alice:p%40ss:w@turn.example.net:3479")
        #expect(turn.user == "alice" && turn.password == "p@ss:w" && turn.host == "turn.example.net")
        #expect(turn.port == 3479 && !turn.secure)
        #expect(turn.gstreamerURI == "turn://alice:p%40ss%3Aw@turn.example.net:3479")
        #expect(turn.browserURL == "turn:turn.example.net:3479")
        #expect(turn.shown == "turn://alice:***@turn.example.net:3479")
        let secure = try ICESettings.turnServer("turns://bob:pw@[2001:db8::1]")
        #expect(secure.secure && secure.host == "2001:db8::1" && secure.port == 3478)
        #expect(secure.browserURL == "turns:[2001:db8::1]:3478")
        #expect(throws: ICESettings.Invalid.self) { try ICESettings.turnServer("turn://turn.example.net:3478") }
        #expect(throws: ICESettings.Invalid.self) { try ICESettings.turnServer("turn://alice@turn.example.net") }
        #expect(throws: ICESettings.Invalid.self) { try ICESettings.turnServer("stun://a:b@turn.example.net") }
        #expect(throws: ICESettings.Invalid.self) { try ICESettings.turnServer("turn://a:b@host:99999") }
    }

    @Test("--stun takes stun://HOST:PORT or the browser's stun:HOST:PORT; --public-ip an address")
    func stunAndPublicAddress() throws {
        #expect(try ICESettings.stunServer("stun:stun.example.net:19302") == "stun://stun.example.net:19302")
        #expect(try ICESettings.stunServer("stun://127.0.0.1") == "stun://127.0.0.1:3478")
        #expect(throws: ICESettings.Invalid.self) { try ICESettings.stunServer("http://stun.example.net") }
        #expect(throws: ICESettings.Invalid.self) { try ICESettings.stunServer("stun://host:port") }
        #expect(try ICESettings.publicAddress("203.0.113.7") == "203.0.113.7")
        #expect(try ICESettings.publicAddress("[2001:db8::7]") == "2001:db8::7")
        #expect(throws: ICESettings.Invalid.self) { try ICESettings.publicAddress("my.host.example") }
    }

    @Test("--public-ip: each host candidate again at the public address, same port, lower priority")
    func advertised() throws {
        var ice = ICESettings()
        let sdp =
            "v=0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\n"
            + "a=candidate:1 1 UDP 2015363327 10.0.0.5 40000 typ host\r\n"
            + "a=candidate:2 1 UDP 1679819007 198.51.100.2 40000 typ srflx raddr 10.0.0.5 rport 40000\r\n"
        #expect(ice.advertised(sdp) == sdp)
        ice.publicAddress = "203.0.113.7"
        let lines = ice.advertised(sdp).components(separatedBy: "\r\n")
        #expect(lines.contains("a=candidate:19 1 UDP 2015363326 203.0.113.7 40000 typ host"))
        #expect(lines.filter { $0.hasPrefix("a=candidate:") }.count == 3)
        // A priority at Int's bottom (the arithmetic below it trapped) or 0 gives the lowest, 1.
        for priority in ["-9223372036854775808", "0"] {
            let odd = "a=candidate:1 1 UDP \(priority) 10.0.0.5 40000 typ host\r\n"
            #expect(ice.advertised(odd).contains("a=candidate:19 1 UDP 1 203.0.113.7 40000 typ host"))
        }
    }

    @Test("The page's configuration: STUN and TURN as a browser takes them, safe inside a script")
    func pageConfiguration() throws {
        var ice = ICESettings()
        #expect(ice.pageConfiguration == #"{"iceServers":[]}"#)
        ice.stun = "stun://127.0.0.1:3478"
        ice.turn = try ICESettings.turnServer("turn://alice:a%3C%2Fscript%3E@127.0.0.1:3478")
        let json = ice.pageConfiguration
        #expect(!json.contains("</script>"))
        let parsed = try #require(
            try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [[String: String]]])
        #expect(parsed["iceServers"]?.first == ["urls": "stun:127.0.0.1:3478"])
        #expect(parsed["iceServers"]?.last?["credential"] == "a</script>")
    }

    @Test("--turn without WebRTC in the description, or written wrong, is a usage error")
    func usage() throws {
        let noOutput = try CLI.run(
            ["noise", "num-buffers=1", "!", "gray", "!", "fakesink", "--turn", "turn://a:b@127.0.0.1:3478"],
            timeout: 30)
        #expect(noOutput.status == 2, "\(noOutput.stderr)")
        #expect(
            noOutput.stderr.contains("--stun, --turn and --public-ip are for WebRTC (webrtc://, whip+http://"),
            "\(noOutput.stderr)")
        let wrong = try CLI.run(
            ["noise", "!", "gray", "!", "webrtc://127.0.0.1:8890/live", "--turn", "turn://127.0.0.1:3478"],
            timeout: 30)
        #expect(wrong.status == 2, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("--turn takes turn://USER:PASS@HOST:PORT"), "\(wrong.stderr)")
    }
}
