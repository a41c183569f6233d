import Foundation
import Testing

/// Network inputs served by senders no one here wrote: ffmpeg (SRT, UDP) and GStreamer's own RTSP
/// server (gst-rtsp-server through its Python binding: neither ffmpeg nor gst-launch-1.0 can serve
/// RTSP). gstpipe writes what it reads to a file, which ffprobe counts.
@Suite("Stream inputs: rtsp://, srt://, udp:// read from real senders", .serialized, .enabled(if: FFProbe.isInstalled))
struct StreamInputTests {
    /// ffmpeg sending 4 s of a 320x240 test pattern at its own pace, as MPEG-TS, to `url`.
    static func ffmpegSending(to url: String) throws -> Spawned {
        try Spawned(
            "/usr/bin/ffmpeg",
            [
                "-hide_banner", "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
                "testsrc=size=320x240:rate=30", "-t", "4", "-c:v", "libx264", "-preset", "veryfast", "-g", "30",
                "-f", "mpegts", url
            ])
    }

    /// Frames and size of the video in `file`, as ffprobe counts them.
    static func probe(_ file: URL) async throws -> String {
        try await probeStreams(file.path, entries: "width,height,nb_read_frames", videoOnly: true).first ?? ""
    }

    /// "320,240,N" with N frames or more.
    static func check(_ probed: String, atLeast frames: Int) -> Bool {
        let fields = probed.split(separator: ",")
        return fields.count == 3 && fields[0] == "320" && fields[1] == "240" && (Int(fields[2]) ?? 0) >= frames
    }

    @Test("udp:// (MPEG-TS from ffmpeg) is decoded; the run ends when the sender stops")
    func udp() async throws {
        let port = StreamPorts.take()
        let output = Media.temporary("udp-in", "mkv")
        defer { try? FileManager.default.removeItem(at: output) }
        // --timeout 5: ffmpeg (libx264's start-up included) must get its first packet out before then,
        // which on a loaded 2-core machine took more than the 2 s this test once allowed.
        let reader = try Spawned.gstpipe(["udp://127.0.0.1:\(port)", "!", "gray", "!", output.path, "--timeout", "5"])
        try await Task.sleep(for: .seconds(1))
        let sender = try Self.ffmpegSending(to: "udp://127.0.0.1:\(port)?pkt_size=1316")
        #expect(await sender.finish(timeout: 30).status == 0)
        let result = await reader.finish(timeout: 20)
        #expect(
            result.status == 0 && result.stderr.contains("sent nothing for 5 s: the sender stopped"), "\(result.stderr)"
        )
        let probed = try await Self.probe(output)
        #expect(Self.check(probed, atLeast: 60), "\(probed)")
    }

    @Test("srt:// calls ffmpeg's SRT listener and decodes what it sends")
    func srt() async throws {
        let port = StreamPorts.take()
        let output = Media.temporary("srt-in", "mkv")
        defer { try? FileManager.default.removeItem(at: output) }
        let sender = try Self.ffmpegSending(to: "srt://:\(port)?mode=listener")
        try await Task.sleep(for: .seconds(1))
        // srtsrc calls again until the listener answers; the run ends 2 s after the sender stops.
        let result = try CLI.run(
            ["srt://127.0.0.1:\(port)", "!", "gray", "!", output.path, "--timeout", "2"], timeout: 40)
        #expect(result.status == 0, "\(result.stderr)")
        _ = await sender.finish(timeout: 10)
        let probed = try await Self.probe(output)
        #expect(Self.check(probed, atLeast: 30), "\(probed)")
    }

    @Test(
        "srt:// with options (latency, passphrase) is an input too: they reach srtsrc, which decrypts what ffmpeg sends"
    )
    func srtWithOptions() async throws {
        let port = StreamPorts.take()
        let output = Media.temporary("srt-options-in", "mkv")
        defer { try? FileManager.default.removeItem(at: output) }
        let secret = "passphrase=gstpipe-secret-2&pbkeylen=16"
        let sender = try Self.ffmpegSending(to: "srt://:\(port)?mode=listener&\(secret)")
        try await Task.sleep(for: .seconds(1))
        let result = try CLI.run(
            ["srt://127.0.0.1:\(port)?latency=80&\(secret)", "!", "gray", "!", output.path, "--timeout", "2"],
            timeout: 40)
        #expect(result.status == 0, "\(result.stderr)")
        expectHidden(["gstpipe-secret-2"], in: ShownText(result), masked: false)
        _ = await sender.finish(timeout: 10)
        let probed = try await Self.probe(output)
        #expect(Self.check(probed, atLeast: 30), "\(probed)")
    }

    @Test("An srt:// input with an option SRT does not have is a usage error, not ignored")
    func srtUnknownOption() throws {
        let result = try CLI.run(["srt://127.0.0.1:9?latnecy=80", "!", "fakesink"], timeout: 20)
        #expect(result.status == 2 && result.stderr.contains("SRT has no option latnecy"), "\(result.stderr)")
    }

    @Test("rtsp:// from gst-rtsp-server, over UDP and with --rtsp-tcp", arguments: [false, true])
    func rtsp(tcp: Bool) async throws {
        let port = StreamPorts.take()
        let server = try Spawned("/usr/bin/python3", ["-c", Self.rtspServer, String(port)])
        #expect(await StreamPorts.waitForListener(port))
        let output = Media.temporary("rtsp-in", "mkv")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try CLI.run(
            ["rtsp://127.0.0.1:\(port)/test", "!", "identity", "eos-after=60", "!", "gray", "!", output.path]
                + (tcp ? ["--rtsp-tcp"] : []), timeout: 40)
        server.signal(SIGKILL)
        #expect(result.status == 0, "\(result.stderr)")
        let probed = try await Self.probe(output)
        #expect(Self.check(probed, atLeast: 59), "\(probed)")
    }

    @Test("An input that sends nothing fails after --timeout, saying what to check")
    func timeout() async throws {
        let started = Date()
        let result = try CLI.run([
            "udp://127.0.0.1:\(StreamPorts.take())", "!", "gray", "!", "fakesink", "--timeout", "1.5"
        ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains("nothing arrived in 1.5 s: check that the sender is running"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test("An RTSP server that is not there is an error at once")
    func rtspRefused() async throws {
        let result = try CLI.run(["rtsp://127.0.0.1:\(StreamPorts.take())/none", "!", "gray", "!", "fakesink"])
        #expect(result.status == 1 && result.stderr.contains("cannot read rtsp://127.0.0.1:"), "\(result.stderr)")
    }

    /// A test pattern served at rtsp://127.0.0.1:PORT/test by gst-rtsp-server, through its Python binding.
    static let rtspServer = """
        import sys, gi
        gi.require_version('Gst', '1.0'); gi.require_version('GstRtspServer', '1.0')
        from gi.repository import Gst, GstRtspServer, GLib
        Gst.init(None)
        server = GstRtspServer.RTSPServer(); server.set_address('127.0.0.1'); server.set_service(sys.argv[1])
        factory = GstRtspServer.RTSPMediaFactory()
        factory.set_launch('( videotestsrc is-live=true ! video/x-raw,width=320,height=240,framerate=30/1 '
                           '! x264enc tune=zerolatency key-int-max=30 ! rtph264pay name=pay0 pt=96 )')
        factory.set_shared(True)
        server.get_mount_points().add_factory('/test', factory)
        server.attach(None)
        GLib.MainLoop().run()
        """
}
