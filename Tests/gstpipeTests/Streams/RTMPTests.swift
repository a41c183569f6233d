import Foundation
import Testing

@testable import gstpipe

/// `rtmp://` both ways against a real server: nginx with Debian's RTMP module, started by each test
/// in a network namespace of its own with loopback alone. gstpipe publishes a Swift source (noise
/// through gray) and ffmpeg plays it back from nginx; ffmpeg publishes and gstpipe reads; nginx is
/// killed and started again while gstpipe publishes; a key nginx refuses fails the run. The stream
/// key never shows in anything gstpipe writes.
@Suite(
    "RTMPTests",
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"),
    .enabled(if: Nginx.hasRTMPModule, "nginx's RTMP module is not installed (scripts/setup.sh installs it)"),
    .enabled(if: FFProbe.isInstalled, "ffmpeg and ffprobe are not installed"))
struct RTMPTests {
    static let key = "live-Rtmp5treamKey-9q"

    /// nginx's `rtmp` block: `live` takes any key, `closed` refuses every publisher.
    static let rtmp = """
        rtmp {
            server {
                listen 127.0.0.1:1935;
                application live { live on; record off; }
                application closed { live on; deny publish all; }
            }
        }
        """

    /// A namespace, a folder, and nginx listening on 1935 in it.
    static func server() async throws -> (namespace: NetworkNamespace, folder: URL, nginx: Nginx) {
        let namespace = try await NetworkNamespace()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-rtmp-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let nginx = try await Nginx(in: namespace, folder: folder, rtmp: rtmp, port: 1935)
        return (namespace, folder, nginx)
    }

    /// ffmpeg records `seconds` of what nginx plays at `url` into `file` (packets copied as they come),
    /// trying again until the stream is there (a player that comes before the publisher is refused).
    static func record(
        _ url: String, seconds: Int, into file: URL, in namespace: NetworkNamespace, timeout: TimeInterval = 40
    ) async -> CLIResult {
        let deadline = Date().addingTimeInterval(timeout)
        var result = CLIResult(status: -1, stdout: "", stderr: "never tried")
        while Date() < deadline {
            result = await namespace.run(
                "/usr/bin/ffmpeg",
                [
                    "-hide_banner", "-nostdin", "-v", "error", "-i", url, "-t", "\(seconds)", "-c", "copy", "-y",
                    file.path
                ]
            ).finish(timeout: Double(seconds) + 20)
            if result.status == 0 { return result }
            try? await Task.sleep(for: .milliseconds(300))
        }
        return result
    }

    /// The key frames' times in a recording, in seconds.
    static func keyFrameTimes(_ file: URL) async throws -> [Double] {
        let result = try await Spawned(
            "/usr/bin/ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0",
                file.path
            ]
        ).finish(timeout: 30)
        return result.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, fields[1].hasPrefix("K") else { return nil }
            return Double(fields[0])
        }
    }

    static func expectNoKey(_ texts: [String], _ comment: String = "") {
        for text in texts { #expect(!text.contains(Self.key), "the key shows: \(comment)\n\(text)") }
    }

    @Test("Addresses refused before anything runs (exit 2), naming the address with its key hidden")
    func usage() throws {
        let cases: [(address: String, says: String)] = [
            ("rtmp://127.0.0.1/live", "rtmp://127.0.0.1/live has no stream key: write it as "),
            ("rtmp://127.0.0.1", "rtmp://127.0.0.1 has no application and stream key"),
            ("rtmp://127.0.0.1:70000/live/\(Self.key)", "rtmp://127.0.0.1:70000/live/***: the port must be between"),
            ("rtmp://127.0.0.1/live/\(Self.key)?bitrate=fast", "rtmp://127.0.0.1/live/***?bitrate=fast: bitrate=fast "),
            (
                "rtmp://127.0.0.1/live/\(Self.key)?latency=2",
                "rtmp://127.0.0.1/live/***?latency=2: an rtmp:// output has no option latency"
            )
        ]
        for (address, says) in cases {
            let result = try CLI.run(
                ["noise", "!", "gray", "!", address], environment: ["GSTPIPE_RTMP_KEY": nil], timeout: 30)
            #expect(result.status == 2, "\(address): \(result.stderr)")
            #expect(result.stderr.contains(says), "\(address): \(result.stderr)")
            Self.expectNoKey([result.stdout, result.stderr], address)
        }
        #expect(RTMPOutput.defaultBitrate(width: 320, height: 240, rate: 30) == 500)
        #expect(RTMPOutput.defaultBitrate(width: 1920, height: 1080, rate: 30) == 4500)
        #expect(RTMPOutput.defaultBitrate(width: 1280, height: 720, rate: 60) == 3750)
    }

    @Test("A Swift source goes live: ffmpeg plays H.264 4:2:0 and stereo AAC back, a key frame every 2 s")
    func publishes() async throws {
        let (namespace, folder, nginx) = try await Self.server()
        defer { try? FileManager.default.removeItem(at: folder) }
        let graph = folder.appendingPathComponent("graph.dot")
        let publisher = namespace.run(
            CLI.binary.path,
            ["--graph", graph.path, "noise", "num-buffers=300", "!", "gray", "!", "rtmp://127.0.0.1/live/\(Self.key)"])
        let recording = folder.appendingPathComponent("played.flv")
        let played = await Self.record(
            "rtmp://127.0.0.1/live/\(Self.key)", seconds: 6, into: recording, in: namespace)
        let published = await publisher.finish(timeout: 40)
        _ = await nginx.stop()
        let comment = Comment(rawValue: "gstpipe: \(published.stderr)\nffmpeg: \(played.stderr)")
        #expect(published.status == 0, comment)
        #expect(played.status == 0, comment)
        #expect(
            published.stderr.contains(
                "publishing H.264 (a bitrate suited to the size) and AAC in FLV to "
                    + "rtmp://127.0.0.1/live/***"), comment)

        let streams = try await probeStreams(
            recording.path, entries: "codec_name,pix_fmt,width,height,sample_rate,channels,nb_read_frames")
        let video = streams.first { $0.hasPrefix("h264,") } ?? ""
        let audio = streams.first { $0.hasPrefix("aac,") } ?? ""
        #expect(video.hasPrefix("h264,320,240,yuv420p,"), "\(streams) \(comment)")
        let frames = Int(video.split(separator: ",").last ?? "") ?? 0
        // Six seconds from the first key frame the player got (up to 2 s in), at 30 frames a second.
        #expect(frames >= 100, "\(streams) \(comment)")
        #expect(audio.hasPrefix("aac,48000,2,") || audio.hasPrefix("aac,44100,2,"), "\(streams)")
        let audioFrames = Int(audio.split(separator: ",").last ?? "") ?? 0
        #expect(audioFrames >= 170, "silent AAC all along: \(streams)")
        let keys = try await Self.keyFrameTimes(recording)
        let gaps = zip(keys, keys.dropFirst()).map { $1 - $0 }
        #expect(gaps.count >= 2 && gaps.allSatisfy { abs($0 - 2) < 0.1 }, "key frames at \(keys)")
        let dot = (try? String(contentsOf: graph, encoding: .utf8)) ?? ""
        let pictured = dot.lowercased()
        #expect(pictured.contains("flvmux") && pictured.contains("x264enc"), "the graph: \(dot.prefix(300))")
        Self.expectNoKey([published.stdout, published.stderr, dot], "publishes")
    }

    @Test("A file without sound goes live with silent AAC with every frame; push, RTSP and file encode once")
    func fileWithoutSound() async throws {
        let namespace = try await NetworkNamespace()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-rtmp-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // nginx writes what it is sent, from the first frame on: no player racing the publisher.
        let recording = """
            rtmp {
                server {
                    listen 127.0.0.1:1935;
                    application rec { live on; record all; record_path \(folder.path); }
                }
            }
            """
        let nginx = try await Nginx(in: namespace, folder: folder, rtmp: recording, port: 1935)
        // 100 frames (4 s) at 25 frames a second, H.264 in MP4, no audio track.
        let input = try await Media.madeFile(
            "rtmp-video-only.mp4",
            "videotestsrc num-buffers=100 ! video/x-raw,width=320,height=240,framerate=25/1 ! x264enc "
                + "speed-preset=ultrafast ! mp4mux ! filesink location=%@")
        // At once: one output alone, and with --one-encode an RTMP push, an RTSP server and a file in a tee's
        // branches, which share one encoder (the push's) and one silence (the queues after a shared encoder
        // hold seconds of the file's pictures ahead of the clock).
        let graph = folder.appendingPathComponent("graph.dot")
        let archive = folder.appendingPathComponent("archive.mp4")
        let started = Date()
        let alone = namespace.run(CLI.binary.path, [input.path, "!", "rtmp://127.0.0.1/rec/\(Self.key)"])
        let teed = await namespace.run(
            CLI.binary.path,
            [
                "--one-encode", "--graph", graph.path, input.path, "!", "tee", "name=t", "!", "queue", "!",
                "rtmp://127.0.0.1/rec/\(Self.key)-2", "t.", "!", "queue", "!", "rtsp://127.0.0.1:8554/cam", "t.", "!",
                "queue", "!", archive.path
            ]
        ).finish(timeout: 40)
        let published = await alone.finish(timeout: 40)
        let seconds = Date().timeIntervalSince(started)
        _ = await nginx.stop()
        #expect(published.status == 0 && teed.status == 0, "\(published.stderr)\n\(teed.stderr)")
        for name in [Self.key, "\(Self.key)-2"] {
            let written = folder.appendingPathComponent("\(name).flv")
            let streams = try await probeStreams(
                written.path, entries: "codec_name,sample_rate,channels,nb_read_frames")
            let frames = streams.first { $0.hasPrefix("h264,") }.flatMap { Int($0.split(separator: ",").last ?? "") }
            #expect(frames == 100, "every frame: \(streams)")
            #expect(streams.contains { $0.hasPrefix("aac,48000,2,") || $0.hasPrefix("aac,44100,2,") }, "\(streams)")
            // Silence from the first frame to the last, and not beyond: silence made ahead of the pictures
            // once held the last frame for the 30 s it had queued.
            let video = try await Self.packetTimes(written, stream: "v:0")
            let audio = try await Self.packetTimes(written, stream: "a:0")
            #expect(
                (audio.first ?? 9) < 0.1 && (video.first ?? 9) < 0.1,
                "\(name) starts: audio \(audio.first ?? -1), video \(video.prefix(3))")
            let (audioEnd, videoEnd) = (audio.last ?? 0, video.last ?? 0)
            #expect(abs(audioEnd - videoEnd) < 0.3, "\(name): the audio ends at \(audioEnd), the video at \(videoEnd)")
        }
        let archived = try await probeStreams(archive.path, entries: "codec_name,nb_read_frames")
        // The file holds what the input has, the video alone: silence is for receivers that refuse that.
        #expect(archived == ["h264,100"], "the file: \(archived)")
        let encoders = StreamOutputTests.encoders(in: (try? String(contentsOf: graph, encoding: .utf8)) ?? "")
        #expect(encoders.h264 == 1 && encoders.aac == 1, "x264enc \(encoders.h264), AAC \(encoders.aac)")
        #expect(seconds < 15, "published in \(seconds) s")
        Self.expectNoKey([published.stdout, published.stderr, teed.stdout, teed.stderr], "file without sound")
    }

    /// The times of a recording's packets of `stream` (`v:0`, `a:0`), in seconds, in the order stored.
    static func packetTimes(_ file: URL, stream: String) async throws -> [Double] {
        let result = try await Spawned(
            "/usr/bin/ffprobe",
            ["-v", "error", "-select_streams", stream, "-show_entries", "packet=pts_time", "-of", "csv=p=0", file.path]
        ).finish(timeout: 30)
        return result.stdout.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }

    @Test("nginx killed and started again: the publisher says so once, goes on, and publishes again")
    func serverRestarts() async throws {
        let (namespace, folder, first) = try await Self.server()
        var nginx = first
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("gstpipe.log")
        let publisher = namespace.run(
            "/bin/sh",
            [
                "-c", "exec \"$0\" \"$@\" 2>\(log.path)", CLI.binary.path, "noise", "!", "gray", "!",
                "rtmp://127.0.0.1/live/\(Self.key)"
            ])
        let url = "rtmp://127.0.0.1/live/\(Self.key)"
        let beforeFile = folder.appendingPathComponent("before.flv")
        let before = await Self.record(url, seconds: 3, into: beforeFile, in: namespace)
        #expect(before.status == 0, "\(before.stderr)")
        await nginx.kill()
        try await Task.sleep(for: .seconds(2))
        nginx = try await Nginx(in: namespace, folder: folder, rtmp: Self.rtmp, port: 1935)
        let afterFile = folder.appendingPathComponent("after.flv")
        let after = await Self.record(url, seconds: 3, into: afterFile, in: namespace)
        let stillRunning = publisher.process.isRunning
        publisher.signal(SIGINT)
        let result = await publisher.finish(timeout: 20)
        _ = await nginx.stop()
        let stderr = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(stillRunning, "\(stderr)")
        #expect(after.status == 0, "\(after.stderr)\n\(stderr)")
        let streams = try await probeStreams(afterFile.path, entries: "codec_name,nb_read_frames")
        let frames = streams.first { $0.hasPrefix("h264,") }.flatMap { Int($0.split(separator: ",").last ?? "") } ?? 0
        #expect(frames >= 45, "\(streams)")
        #expect(result.status == 130, "\(stderr)")
        #expect(
            stderr.components(separatedBy: "the connection to rtmp://127.0.0.1/live/*** was lost").count == 2,
            "\(stderr)")
        let back = "publishing to rtmp://127.0.0.1/live/*** again, after"
        #expect(stderr.components(separatedBy: back).count == 2, "\(stderr)")
        Self.expectNoKey([result.stdout, stderr], "restart")
    }

    @Test("A key the server refuses, and a server that is not there: exit 1, the address named without the key")
    func refused() async throws {
        let (namespace, folder, nginx) = try await Self.server()
        defer { try? FileManager.default.removeItem(at: folder) }
        let denied = await namespace.run(
            CLI.binary.path, ["noise", "!", "gray", "!", "rtmp://127.0.0.1/closed/\(Self.key)"]
        ).finish(timeout: 30)
        #expect(denied.status == 1, "\(denied.stderr)")
        let refusal =
            "cannot publish to rtmp://127.0.0.1/closed/***: the server closed the connection as gstpipe "
            + "began to publish: it refused the stream key"
        #expect(denied.stderr.contains(refusal), "\(denied.stderr)")
        // The key from the environment, and a port nothing listens on.
        let nobody = await namespace.run(
            "/usr/bin/env",
            [
                "GSTPIPE_RTMP_KEY=\(Self.key)", CLI.binary.path, "noise", "!", "gray", "!",
                "rtmp://127.0.0.1:1936/live"
            ]
        ).finish(timeout: 30)
        _ = await nginx.stop()
        #expect(nobody.status == 1, "\(nobody.stderr)")
        #expect(
            nobody.stderr.contains(
                "cannot publish to rtmp://127.0.0.1:1936/live: nothing answers at "
                    + "rtmp://127.0.0.1:1936/live"), "\(nobody.stderr)")
        Self.expectNoKey([denied.stdout, denied.stderr, nobody.stdout, nobody.stderr], "refused")
    }

    @Test("rtmps:// through nginx's stream module terminating TLS: refused untrusted, published once trusted")
    func overTLS() async throws {
        let namespace = try await NetworkNamespace()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-rtmps-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificate = try await Nginx.certificate(in: folder)
        let stream = """
            stream {
                server {
                    listen 127.0.0.1:1936 ssl;
                    ssl_certificate \(certificate.certificate);
                    ssl_certificate_key \(certificate.key);
                    proxy_pass 127.0.0.1:1935;
                }
            }
            """
        let nginx = try await Nginx(in: namespace, folder: folder, stream: stream, rtmp: Self.rtmp, port: 1935)
        let address = "rtmps://127.0.0.1:1936/live/\(Self.key)"
        let untrusted = await namespace.run(CLI.binary.path, ["noise", "!", "gray", "!", address]).finish(timeout: 30)
        // Trusted: the certificate as the system's CA bundle (which GLib's TLS reads), in a mount
        // namespace of the publisher's own, so that the machine's bundle is left alone.
        let trusting = "mount --bind \"$0\" /etc/ssl/certs/ca-certificates.crt && exec \"$@\""
        let publisher = namespace.run(
            "/usr/bin/unshare",
            [
                "-m", "/bin/sh", "-c", trusting, certificate.certificate, CLI.binary.path, "noise", "num-buffers=210",
                "!",
                "gray", "!", address
            ])
        let recording = folder.appendingPathComponent("tls.flv")
        let played = await Self.record(
            "rtmp://127.0.0.1/live/\(Self.key)", seconds: 3, into: recording, in: namespace)
        let published = await publisher.finish(timeout: 40)
        _ = await nginx.stop()
        let comment = Comment(rawValue: "untrusted: \(untrusted.stderr)\ntrusted: \(published.stderr)")
        #expect(untrusted.status == 1, comment)
        let refusal = "cannot publish to rtmps://127.0.0.1:1936/live/***: the TLS connection"
        #expect(untrusted.stderr.contains(refusal), comment)
        #expect(published.status == 0 && played.status == 0, "\(comment)\n\(played.stderr)")
        let streams = try await probeStreams(recording.path, entries: "codec_name,nb_read_frames")
        let frames = streams.first { $0.hasPrefix("h264,") }.flatMap { Int($0.split(separator: ",").last ?? "") } ?? 0
        #expect(frames >= 30, "\(streams)")
        Self.expectNoKey([untrusted.stdout, untrusted.stderr, published.stdout, published.stderr], "rtmps")
    }

    @Test("gstpipe reads what ffmpeg publishes to nginx, and ends once the publisher has gone (--timeout)")
    func reads() async throws {
        let (namespace, folder, nginx) = try await Self.server()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sender = namespace.run(
            "/usr/bin/ffmpeg",
            [
                "-hide_banner", "-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25",
                "-f", "lavfi", "-i", "sine", "-t", "5", "-c:v", "libx264", "-g", "25", "-c:a", "aac", "-f", "flv",
                "rtmp://127.0.0.1/live/camera"
            ])
        try await Task.sleep(for: .seconds(1))
        let output = folder.appendingPathComponent("read.mp4")
        let reader = await namespace.run(
            CLI.binary.path, ["--timeout", "3", "rtmp://127.0.0.1/live/camera", "!", "gray", "!", output.path]
        ).finish(timeout: 40)
        _ = await sender.finish(timeout: 20)
        _ = await nginx.stop()
        #expect(reader.status == 0, "\(reader.stderr)")
        let streams = try await probeStreams(output.path, entries: "codec_name,width,height,nb_read_frames")
        let video = streams.first { $0.hasPrefix("h264,") } ?? ""
        let frames = Int(video.split(separator: ",").last ?? "") ?? 0
        #expect(video.hasPrefix("h264,320,240,") && frames >= 60, "\(streams) \(reader.stderr)")
        #expect(streams.contains { $0.hasPrefix("aac,") }, "the input's audio: \(streams)")
    }
}
