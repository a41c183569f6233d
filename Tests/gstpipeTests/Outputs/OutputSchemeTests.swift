import Foundation
import GstPipeParsing
import Testing

@testable import gstpipe

/// The table of stream outputs, without running anything: which token names which scheme, and that
/// an entry can describe a server with checked query options, as `webrtc://` will need.
@Suite("Stream output schemes: one table entry each")
struct OutputSchemeTests {
    /// The message of a usage error, nil for anything else.
    static func usageMessage(_ body: () throws(FileJob.Failure) -> Void) -> String? {
        do {
            try body()
        } catch {
            if case .usage(let message) = error { return message }
        }
        return nil
    }

    @Test("Each scheme's token gives its output; other URIs and file names give none")
    func tokens() throws {
        #expect(try StreamOutputs.output(named: "rtsp://0.0.0.0:8554/live") is RTSPOutput)
        #expect(try StreamOutputs.output(named: "srt://:9000?latency=80") is SRTOutput)
        #expect(try StreamOutputs.output(named: "UDP://127.0.0.1:5000") is UDPOutput)
        #expect(try StreamOutputs.output(named: "rtp://127.0.0.1:5004") is RTPOutput)
        #expect(try StreamOutputs.output(named: "live/stream.M3U8") is HLSOutput)
        for token in ["http://example.com/live.m3u8", "hls://127.0.0.1:5000", "out.mp4", "gray", "v4l2:///dev/video0"] {
            #expect(try StreamOutputs.output(named: token) == nil, "\(token)")
        }
        let rtsp = try #require(try StreamOutputs.output(named: "rtsp://camera/live"))
        #expect(rtsp.address.port == 8554 && rtsp.address.host == "camera" && rtsp.address.path == "/live")
        #expect(rtsp.startNote(StreamSettings()) == nil, "a server says where it serves once it listens")
    }

    @Test("srt:// latencies and local ports past what libsrt takes are usage errors naming the range")
    func srtNumbers() throws {
        #expect(
            Self.usageMessage { () throws(FileJob.Failure) in
                _ = try StreamOutputs.output(named: "srt://:9000?latency=9223372036854775807")
            } == "srt://:9000?latency=9223372036854775807: latency=9223372036854775807 is not a number of "
                + "milliseconds (0 to 2147483647)")
        #expect(
            Self.usageMessage { () throws(FileJob.Failure) in
                _ = try StreamOutputs.output(named: "srt://127.0.0.1:9000?localport=70000")
            } == "srt://127.0.0.1:9000?localport=70000: localport=70000 is not a port (0 to 65535)")
        let most = try #require(try StreamOutputs.output(named: "srt://:9000?latency=2147483647") as? SRTOutput)
        #expect(most.lingerAfterEnd > 4_294_967)
    }

    @Test("--help lists the schemes from the table, in its order")
    func help() {
        #expect(
            StreamOutputs.help
                == "rtsp://HOST:PORT/PATH (served to any number of viewers), srt://HOST:PORT (caller) or "
                + "srt://:PORT (listener), udp://HOST:PORT (MPEG-TS), rtp://HOST:PORT (the SDP printed, or written "
                + "by --sdp), DIR/NAME.m3u8 (HLS), webrtc://HOST:PORT/PATH (a page and WHEP for browsers), "
                + "whip+http(s)://HOST:PORT/PATH (published to a WHIP server) or rtmp(s)://HOST[:PORT]/APP/KEY "
                + "(published to an RTMP server)")
        #expect(StreamInput.helpNames.listed("or") == "rtsp://, srt://, udp://, rtmp://, webrtc:// or whep+http://")
    }

    /// An entry of the shape `webrtc://HOST:PORT/PATH?codec=h264` needs: a server (port 0 picks a
    /// free port), a path it may leave out, and query options checked by the scheme.
    static let server = OutputScheme(
        naming: .uri(["webrtc"]), help: "webrtc://HOST:PORT/PATH (a viewer page and WHEP)",
        example: "webrtc://0.0.0.0:8080/live", isServer: true, defaultPort: 8080, needsPath: true,
        options: .checked { options, token throws(FileJob.Failure) in
            for (name, value) in options where name != "codec" || !["h264", "vp8"].contains(value) {
                throw .usage("\(token): \(name)=\(value) is not an option here: write codec=h264 or codec=vp8")
            }
        })

    /// Why `server` refuses `token`.
    static func refusal(_ token: String) -> String? {
        usageMessage { () throws(FileJob.Failure) in _ = try StreamAddress.parse(token, as: server) }
    }

    @Test("A server entry with checked query options: port 0 is taken, a bad option is refused in its words")
    func serverWithOptions() throws {
        let address = try StreamAddress.parse("webrtc://0.0.0.0:0/live?codec=vp8", as: Self.server)
        #expect(address.port == 0 && address.path == "/live" && address.option("codec") == "vp8")
        #expect(try StreamAddress.parse("WEBRTC://host/live", as: Self.server).port == 8080)
        #expect(
            Self.refusal("webrtc://host:8080/live?codec=theora")
                == "webrtc://host:8080/live?codec=theora: codec=theora is not an option here: write codec=h264 or "
                + "codec=vp8")
        #expect(
            Self.refusal("webrtc://host:8080")
                == "webrtc://host:8080 has no path: name the stream, such as webrtc://0.0.0.0:8080/live")
        // Not a server: port 0 is no port to send to.
        #expect(
            Self.usageMessage { () throws(FileJob.Failure) in _ = try StreamOutputs.output(named: "udp://127.0.0.1:0") }
                == "udp://127.0.0.1:0: the port must be between 1 and 65535")
    }
}
