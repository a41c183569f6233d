import Foundation
import Testing

/// Stream outputs read by a client no one here wrote (FFmpeg), all on 127.0.0.1: each gets the
/// frames at the size sent.
@Suite("Stream outputs: RTSP, SRT, UDP, RTP and HLS read by ffmpeg", .serialized, .enabled(if: FFProbe.isInstalled))
struct StreamOutputTests {
    @Test("rtsp:// serves ffmpeg 50 frames of 320x240; Ctrl-C ends the server with 130 and the client sees the end")
    func rtsp() async throws {
        let port = StreamPorts.take()
        let server = try Spawned.gstpipe(liveGray(frames: 900) + ["!", "rtsp://127.0.0.1:\(port)/gray"])
        #expect(await StreamPorts.waitForListener(port))
        // One reader takes 50 frames; another reads to the end of the stream, which Ctrl-C makes.
        let counted = try Spawned.ffmpeg([
            "-rtsp_transport", "tcp", "-i", "rtsp://127.0.0.1:\(port)/gray", "-frames:v", "50", "-f", "null", "-"
        ])
        let toTheEnd = try Spawned.ffmpeg([
            "-rtsp_transport", "tcp", "-i", "rtsp://127.0.0.1:\(port)/gray", "-f", "null", "-"
        ])
        let read = await FFmpegRead(counted.finish(timeout: 30))
        #expect(read.result.status == 0 && read.frames == 50 && read.width == 320 && read.height == 240, "\(read)")
        server.signal(SIGINT)
        let ended = await FFmpegRead(toTheEnd.finish(timeout: 15))
        let serverResult = await server.finish(timeout: 15)
        #expect(serverResult.status == 130, "\(serverResult.stderr)")
        #expect(serverResult.stderr.contains("serving rtsp://127.0.0.1:\(port)/gray"))
        #expect(ended.result.status == 0 && ended.frames > 0, "the client saw no end of stream: \(ended)")
    }

    @Test("8 RTSP clients at once each receive frames while one leaves mid-stream; all see the end of stream")
    func rtspClients() async throws {
        let port = StreamPorts.take()
        // 12 s of video; the clients join at once and read to its end. Eight ffmpeg processes starting
        // on two cores right after another test can take seconds to get going: once, with 8 s of
        // video, every client joined so late that the stream ended before a key frame reached it.
        let server = try Spawned.gstpipe(liveGray(frames: 360) + ["!", "rtsp://127.0.0.1:\(port)/gray"])
        #expect(await StreamPorts.waitForListener(port))
        let clients = try (0..<8).map { _ in
            try Spawned.ffmpeg(["-rtsp_transport", "tcp", "-i", "rtsp://127.0.0.1:\(port)/gray", "-f", "null", "-"])
        }
        try await Task.sleep(for: .seconds(3))
        clients[0].signal(SIGKILL)  // leaves without a TEARDOWN
        let serverResult = await server.finish(timeout: 30)
        #expect(serverResult.status == 0, "\(serverResult.stderr)")
        for (index, client) in clients.enumerated().dropFirst() {
            let read = await FFmpegRead(client.finish(timeout: 10))
            // Joined within a few seconds of the start: more than a third of the 360 frames.
            #expect(
                read.result.status == 0 && read.frames > 120 && read.width == 320,
                "client \(index): \(read); server: \(serverResult.stderr)")
        }
    }

    @Test("rtsp:// from a file serves its audio too: H.264 and AAC in MPEG-TS, one RTP stream")
    func rtspKeepsAudio() async throws {
        // 10 s, not the 4 s clip: on a loaded machine ffmpeg joined when the shared stream was nearly over,
        // and found no codec parameters in what was left.
        let clip = try await Media.longClipWithAudio()
        let port = StreamPorts.take()
        let server = try Spawned.gstpipe([clip.path, "!", "gray", "!", "rtsp://127.0.0.1:\(port)/clip"])
        #expect(await StreamPorts.waitForListener(port))
        let read = FFmpegRead(
            try await Spawned.ffmpeg([
                "-rtsp_transport", "tcp", "-i", "rtsp://127.0.0.1:\(port)/clip", "-frames:v", "30", "-f", "null", "-"
            ]).finish(timeout: 30))
        #expect(read.result.status == 0 && read.frames == 30 && read.width == 320 && read.height == 240, "\(read)")
        #expect(read.result.stderr.contains("Audio: aac"), "\(read.result.stderr)")
        #expect(await server.finish(timeout: 20).status == 0)
    }

    /// ffmpeg calling gstpipe's SRT listener on `port` and reading `frames` frames. SRT runs over UDP:
    /// there is nothing to poll for the listener but calling it, a few tries while it starts.
    static func callSRTListener(port: Int, query: String, frames: Int) async throws -> FFmpegRead {
        var read: FFmpegRead
        var tries = 0
        repeat {
            try await Task.sleep(for: .seconds(1))
            tries += 1
            read = FFmpegRead(
                try await Spawned.ffmpeg(
                    ["-i", "srt://127.0.0.1:\(port)?\(query)", "-frames:v", String(frames), "-f", "null", "-"]
                ).finish(timeout: 30))
        } while read.result.status != 0 && tries < 5
        return read
    }

    @Test("A tee's udp://, rtsp:// and file outputs encode once with --one-encode; without it the file has its own")
    func oneEncode() async throws {
        let nothingToShare = try CLI.run(["--one-encode", "noise", "!", "gray", "!", "udp://127.0.0.1:9"], timeout: 30)
        #expect(nothingToShare.status == 2, "\(nothingToShare.stderr)")
        #expect(
            nothingToShare.stderr.contains("this description writes no video file and no rtmp://"),
            "\(nothingToShare.stderr)")
        let clip = try await Media.clipWithAudio()
        let (udpPort, rtspPort) = (StreamPorts.take(), StreamPorts.take())
        let file = Media.temporary("one-encode", "mp4")
        let graph = Media.temporary("one-encode-graph", "dot")
        defer { [file, graph].forEach { try? FileManager.default.removeItem(at: $0) } }
        let outputs = [
            "tee", "name=t", "!", "queue", "!", "udp://127.0.0.1:\(udpPort)", "t.", "!", "queue", "!",
            "rtsp://127.0.0.1:\(rtspPort)/clip", "t.", "!", "queue", "!", file.path
        ]
        // UDP has no handshake: the receiver listens before anything is sent. It looks at 1 s of the stream
        // before decoding, not ffmpeg's 5 s: the clip is 4 s long.
        let receiver = try Spawned.ffmpeg([
            "-analyzeduration", "1000000", "-i", "udp://127.0.0.1:\(udpPort)", "-frames:v", "25", "-f", "null", "-"
        ])
        let shared = try await Spawned.gstpipe(["--one-encode", "--graph", graph.path, clip.path, "!"] + outputs)
            .finish(timeout: 40)
        let read = await FFmpegRead(receiver.finish(timeout: 10))
        #expect(shared.status == 0, "\(shared.stderr)")
        let dot = (try? String(contentsOf: graph, encoding: .utf8)) ?? ""
        let encoders = Self.encoders(in: dot)
        #expect(encoders.h264 == 1 && encoders.aac == 1, "x264enc \(encoders.h264), AAC \(encoders.aac)")
        let streams = try await probeStreams(file.path, entries: "codec_name,width,nb_read_frames")
        #expect(streams.contains("h264,640,100") && streams.contains { $0.hasPrefix("aac,") }, "\(streams)")
        #expect(read.frames == 25 && read.width == 640, "\(read)")
        #expect(read.result.stderr.contains("Audio: aac"), "the shared AAC on udp://: \(read.result.stderr)")
        #expect(!shared.stderr.contains("gets video only"), "\(shared.stderr)")

        // Without --one-encode, the file is encoded for quality on its own; the streams still share.
        let own = try await Spawned.gstpipe(
            ["--graph", graph.path, "videotestsrc", "num-buffers=30", "!"] + outputs
        ).finish(timeout: 40)
        #expect(own.status == 0, "\(own.stderr)")
        let ownEncoders = Self.encoders(in: (try? String(contentsOf: graph, encoding: .utf8)) ?? "")
        #expect(ownEncoders.h264 == 2, "x264enc \(ownEncoders.h264)")
        let ownStreams = try await probeStreams(file.path, entries: "codec_name,nb_read_frames")
        #expect(ownStreams == ["h264,30"], "\(ownStreams)")
    }

    /// The H.264 and AAC encoders a `--graph` drawing shows (each element's label starts with its type).
    static func encoders(in dot: String) -> (h264: Int, aac: Int) {
        func count(_ type: String) -> Int { dot.components(separatedBy: "label=\"\(type)\\n").count - 1 }
        return (count("GstX264Enc"), count("avenc_aac") + count("GstVoAacEnc"))
    }

    @Test("srt://:PORT listens: ffmpeg calls and reads 50 frames of 320x240")
    func srtListener() async throws {
        let port = StreamPorts.take()
        let server = try Spawned.gstpipe(liveGray(frames: 300) + ["!", "srt://:\(port)?latency=120"])
        let read = try await Self.callSRTListener(port: port, query: "mode=caller", frames: 50)
        #expect(read.result.status == 0 && read.frames == 50 && read.width == 320 && read.height == 240, "\(read)")
        server.signal(SIGTERM)
        let serverResult = await server.finish(timeout: 15)
        #expect(serverResult.status == 143, "\(serverResult.stderr)")
    }

    @Test("srt://HOST:PORT calls ffmpeg's listener, which gets every frame")
    func srtCaller() async throws {
        let port = StreamPorts.take()
        let receiver = try Spawned.ffmpeg(["-i", "srt://:\(port)?mode=listener", "-f", "null", "-"])
        try await Task.sleep(for: .seconds(1))
        let sender = try CLI.run(liveGray(frames: 90) + ["!", "srt://127.0.0.1:\(port)"], timeout: 30)
        #expect(sender.status == 0, "\(sender.stderr)")
        let read = await FFmpegRead(receiver.finish(timeout: 10))
        #expect(read.frames == 90 && read.width == 320 && read.height == 240, "\(read)")
    }

    @Test("srt:// options are passed on: a listener with a passphrase is read with it, and refuses a caller without it")
    func srtPassphrase() async throws {
        let port = StreamPorts.take()
        let secret = "passphrase=gstpipe-secret-1&pbkeylen=16"
        let server = try Spawned.gstpipe(liveGray(frames: 600) + ["!", "srt://:\(port)?latency=80&\(secret)"])
        let read = try await Self.callSRTListener(port: port, query: "mode=caller&\(secret)", frames: 30)
        #expect(read.result.status == 0 && read.frames == 30 && read.width == 320 && read.height == 240, "\(read)")
        // Without the passphrase the listener turns the caller away: no frame is decoded.
        let refused = FFmpegRead(
            try await Spawned.ffmpeg(["-i", "srt://127.0.0.1:\(port)?mode=caller", "-frames:v", "30", "-f", "null", "-"]
            )
            .finish(timeout: 30))
        #expect(refused.result.status != 0 && refused.frames == 0, "\(refused)")
        server.signal(SIGTERM)
        let ended = await server.finish(timeout: 15)
        #expect(ended.status == 143)
        expectHidden(["gstpipe-secret-1"], in: ShownText(ended), masked: false)
    }

    @Test(
        "udp:// to a multicast group: ffmpeg joins the group and reads the stream",
        .enabled(if: StreamPorts.canSendMulticast, "no route for multicast on this machine"))
    func udpMulticast() async throws {
        let port = StreamPorts.take()
        let group = "239.255.\(port % 200 + 1).\(port % 250 + 1)"
        let receiver = try Spawned.ffmpeg(["-i", "udp://\(group):\(port)", "-frames:v", "50", "-f", "null", "-"])
        // ttl-mc: udpsink's property, passed on; 0 keeps the packets on this machine.
        let sender = try Spawned.gstpipe(liveGray(frames: 900) + ["!", "udp://\(group):\(port)?ttl-mc=0"])
        let read = await FFmpegRead(receiver.finish(timeout: 30))
        #expect(read.result.status == 0 && read.frames == 50 && read.width == 320 && read.height == 240, "\(read)")
        sender.signal(SIGINT)
        let sent = await sender.finish(timeout: 10)
        #expect(sent.status == 130 && sent.stderr.contains("sending MPEG-TS to udp://\(group)"), "\(sent.stderr)")
    }

    @Test("udp://HOST:PORT sends MPEG-TS that ffmpeg reads")
    func udp() async throws {
        let port = StreamPorts.take()
        let receiver = try Spawned.ffmpeg(["-i", "udp://127.0.0.1:\(port)", "-frames:v", "50", "-f", "null", "-"])
        // Up to 30 s of video: UDP has no end of stream, the receiver stops at 50 frames.
        let sender = try Spawned.gstpipe(liveGray(frames: 900) + ["!", "udp://127.0.0.1:\(port)"])
        let read = await FFmpegRead(receiver.finish(timeout: 30))
        #expect(read.result.status == 0 && read.frames == 50 && read.width == 320 && read.height == 240, "\(read)")
        sender.signal(SIGINT)
        #expect(await sender.finish(timeout: 10).status == 130)
    }

    @Test("rtp://HOST:PORT sends RTP H.264; ffmpeg reads it with the session description written by --sdp")
    func rtp() async throws {
        let port = StreamPorts.take()
        let sdp = Media.temporary("stream", "sdp")
        defer { try? FileManager.default.removeItem(at: sdp) }
        let sender = try Spawned.gstpipe(liveGray(frames: 240) + ["!", "rtp://127.0.0.1:\(port)", "--sdp", sdp.path])
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: sdp.path) && Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        let read = FFmpegRead(
            try await Spawned.ffmpeg([
                "-protocol_whitelist", "file,udp,rtp", "-i", sdp.path, "-frames:v", "50", "-f", "null", "-"
            ]).finish(timeout: 30))
        #expect(read.result.status == 0 && read.frames == 50 && read.width == 320 && read.height == 240, "\(read)")
        #expect(await sender.finish(timeout: 15).status == 0)
        let text = try String(contentsOf: sdp, encoding: .utf8)
        #expect(text.contains("m=video \(port) RTP/AVP 96") && text.contains("a=rtpmap:96 H264/90000"))
    }

    @Test("rtp:// from a file sends its audio too: H.264 and AAC in MPEG-TS, which the session description says")
    func rtpKeepsAudio() async throws {
        let clip = try await Media.longClipWithAudio()
        let port = StreamPorts.take()
        let sdp = Media.temporary("stream-audio", "sdp")
        defer { try? FileManager.default.removeItem(at: sdp) }
        let sender = try Spawned.gstpipe([clip.path, "!", "gray", "!", "rtp://127.0.0.1:\(port)", "--sdp", sdp.path])
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: sdp.path) && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let text = try String(contentsOf: sdp, encoding: .utf8)
        #expect(text.contains("m=video \(port) RTP/AVP 33\na=rtpmap:33 MP2T/90000"), "\(text)")
        // The receiver joins a 10 s stream: it reads from the first key frame it gets (one every 2 s).
        let read = FFmpegRead(
            try await Spawned.ffmpeg([
                // A long probe: on a loaded machine the first packets may be lost before it finds both streams.
                "-protocol_whitelist", "file,udp,rtp", "-analyzeduration", "8000000", "-i", sdp.path,
                "-frames:v", "30", "-f", "null", "-"
            ]).finish(timeout: 30))
        #expect(read.result.status == 0 && read.frames == 30 && read.width == 320 && read.height == 240, "\(read)")
        #expect(read.result.stderr.contains("Audio: aac"), "\(read.result.stderr)")
        #expect(await sender.finish(timeout: 20).status == 0)
    }

    @Test("rtp:// with no --sdp prints the session description on standard output")
    func rtpPrintsSDP() async throws {
        let result = try CLI.run(["videotestsrc", "num-buffers=5", "!", "rtp://127.0.0.1:\(StreamPorts.take())"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("v=0\n") && result.stdout.contains("a=fmtp:96 packetization-mode=1"))
    }

    /// A new folder for an HLS output's playlist and segments.
    static func hlsFolder() throws -> URL {
        let folder = Media.temporary("hls", "d")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("NAME.m3u8 writes an HLS playlist ffprobe reads whole (--hls-window 0), with 2 s segments")
    func hlsFull() async throws {
        let folder = try Self.hlsFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let playlist = folder.appendingPathComponent("live.m3u8")
        let result = try CLI.run(
            [
                "videotestsrc", "num-buffers=150", "!", "video/x-raw,width=320,height=240,framerate=30/1", "!", "gray",
                "!",
                playlist.path, "--hls-window", "0"
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: playlist, encoding: .utf8)
        #expect(text.contains("#EXT-X-ENDLIST") && text.contains("live00002.ts"), "\(text)")
        // A program's stream, then the stream: one line each.
        let probed = try await probeStreams(playlist.path, entries: "width,height,nb_read_frames")
        #expect(probed.first == "320,240,150", "\(probed)")
    }

    @Test("A key frame every 2 s of stream time at any frame rate: at 10 fps, not x264's every 30 frames (3 s)")
    func keyFramesByTime() async throws {
        let port = StreamPorts.take()
        let received = Media.temporary("keyframes", "ts")
        defer { try? FileManager.default.removeItem(at: received) }
        let receiver = try Spawned.ffmpeg([
            "-i", "udp://127.0.0.1:\(port)", "-frames:v", "40", "-c", "copy", "-f", "mpegts", "-y", received.path
        ])
        // Up to 10 s of live video at 10 frames a second; the receiver keeps 4 s of it from its first key frame.
        let sender = try Spawned.gstpipe([
            "videotestsrc", "is-live=true", "num-buffers=100", "!", "video/x-raw,width=320,height=240,framerate=10/1",
            "!", "udp://127.0.0.1:\(port)"
        ])
        #expect(await receiver.finish(timeout: 30).status == 0)
        sender.signal(SIGINT)
        _ = await sender.finish(timeout: 10)
        let frames = try await Spawned(
            "/usr/bin/ffprobe",
            [
                "-v", "error", "-select_streams", "v", "-show_entries", "frame=key_frame,pts_time", "-of", "csv=p=0",
                received.path
            ]
        ).finish(timeout: 30).stdout.split(separator: "\n")
        let keys = frames.filter { $0.hasPrefix("1,") }.compactMap { Double($0.split(separator: ",")[1]) }
        let gaps = zip(keys.dropFirst(), keys).map { $0 - $1 }
        #expect(frames.count >= 35, "\(frames.count) frames")
        #expect(keys.count >= 2 && gaps.allSatisfy { abs($0 - 2) < 0.05 }, "key frames at \(keys)")
    }

    @Test("A file's audio goes into the HLS segments beside its video, as AAC")
    func hlsKeepsAudio() async throws {
        let clip = try await Media.clipWithAudio()
        let folder = try Self.hlsFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let playlist = folder.appendingPathComponent("clip.m3u8")
        let result = try CLI.run([clip.path, "!", "gray", "!", playlist.path, "--hls-window", "0"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = await Set(try probeStreams(playlist.path, entries: "codec_name,width,height,nb_read_frames"))
        #expect(lines.contains("h264,640,360,100") && lines.contains { $0.hasPrefix("aac,") }, "\(lines)")
    }

    @Test("An HLS live window lists the last segments and deletes older ones")
    func hlsWindow() async throws {
        let folder = try Self.hlsFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let playlist = folder.appendingPathComponent("live.m3u8")
        // 20 s of video, written as fast as it encodes: 10 segments.
        let result = try CLI.run(
            [
                "videotestsrc", "num-buffers=600", "!", "video/x-raw,width=160,height=120,framerate=30/1", "!",
                playlist.path, "--hls-window", "3"
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: playlist, encoding: .utf8)
        let listed = text.split(separator: "\n").filter { $0.hasSuffix(".ts") }
        #expect(listed == ["live00007.ts", "live00008.ts", "live00009.ts"], "\(text)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".ts") }
        #expect(files.count <= 5 && !files.contains("live00000.ts"), "\(files)")
    }

    @Test(
        "Stream addresses that cannot work are usage errors that say how to write them",
        arguments: [
            ("udp://127.0.0.1", "udp://127.0.0.1 has no port"),
            ("rtsp://127.0.0.1:8554", "has no path: name the stream"),
            ("srt://127.0.0.1:70000", "the port must be between 1 and 65535"),
            ("udp://:5000", "has no host"),
            ("srt://127.0.0.1:9000?latency", "the option latency has no value"),
            ("srt://:9000?latnecy=80", "SRT has no option latnecy (GStreamer would ignore it)"),
            ("srt://:9000?pbkeylen=8", "pbkeylen=8 is not an SRT key length: write 16, 24 or 32"),
            ("srt://:9000?mode=server", "mode=server is not an SRT mode"),
            ("srt://:9000?passphrase=short", "an SRT passphrase has 10 to 79 characters")
        ])
    func badAddress(address: String, message: String) async throws {
        let result = try CLI.run(["videotestsrc", "num-buffers=5", "!", address])
        #expect(result.status == 2 && result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("An SRT caller with nobody listening fails at once, naming the listener to start")
    func srtNobodyListening() async throws {
        let port = StreamPorts.take()
        let result = try CLI.run(["videotestsrc", "num-buffers=50", "!", "srt://127.0.0.1:\(port)"], timeout: 30)
        #expect(result.status == 1 && result.stderr.contains("start the receiver first"), "\(result.stderr)")
    }

    @Test("An RTSP port in use is an error that says to choose another")
    func rtspPortInUse() async throws {
        let port = StreamPorts.take()
        let first = try Spawned.gstpipe(liveGray(frames: 300) + ["!", "rtsp://127.0.0.1:\(port)/a"])
        #expect(await StreamPorts.waitForListener(port))
        let second = try CLI.run(["videotestsrc", "num-buffers=5", "!", "rtsp://127.0.0.1:\(port)/b"])
        #expect(
            second.status == 1 && second.stderr.contains("Address already in use (choose another port"),
            "\(second.stderr)")
        first.signal(SIGINT)
        #expect(await first.finish(timeout: 10).status == 130)
    }
}
