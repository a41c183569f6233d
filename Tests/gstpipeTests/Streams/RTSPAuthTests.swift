import Foundation
import Testing

/// `rtsp://` and `rtsps://` with credentials, TLS and a client limit, against clients no one here
/// wrote (FFmpeg, and a Python socket asking for a status line and its headers), each test in a
/// network namespace of its own with loopback alone. Every output gstpipe gives in these tests is
/// searched for the password (`RTSPAuthSession.checkNoSecret`). ffmpeg's own messages are not: it
/// echoes the URI it was given, password and all.
@Suite(
    "RTSP with credentials, TLS and a client limit, read by ffmpeg", .serialized,
    .enabled(if: FFProbe.isInstalled, "ffmpeg and ffprobe are not installed"),
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"))
struct RTSPAuthTests {
    static let secret = "Pa55-w0rd-Xq7"

    @Test("Digest by default: no credentials and a wrong password get 401, the right one gets frames")
    func digest() async throws {
        let session = try await RTSPAuthSession()
        let server = try await session.serve("rtsp://alice:\(Self.secret)@127.0.0.1:8554/gray")
        let challenge = await session.describe(port: 8554)
        #expect(challenge.hasPrefix("RTSP/1.0 401"), "\(challenge)")
        #expect(challenge.contains("WWW-Authenticate: Digest realm=\"gstpipe\""), "\(challenge)")
        #expect(!challenge.contains("Basic"), "Basic offered although not asked for: \(challenge)")
        await session.expectRefused("rtsp://127.0.0.1:8554/gray")
        await session.expectRefused("rtsp://alice:not-it@127.0.0.1:8554/gray")
        await session.expectFrames("rtsp://alice:\(Self.secret)@127.0.0.1:8554/gray")
        await session.stop(server, saying: "rtsp://alice:***@127.0.0.1:8554/gray", secret: Self.secret)
    }

    @Test("?auth=basic asks for Basic, and serves the right password")
    func basic() async throws {
        let session = try await RTSPAuthSession()
        let server = try await session.serve("rtsp://alice:\(Self.secret)@127.0.0.1:8554/gray?auth=basic")
        let challenge = await session.describe(port: 8554)
        #expect(challenge.contains("WWW-Authenticate: Basic realm=\"gstpipe\""), "\(challenge)")
        #expect(!challenge.contains("Digest"), "\(challenge)")
        await session.expectRefused("rtsp://alice:not-it@127.0.0.1:8554/gray", status: "401")
        await session.expectFrames("rtsp://alice:\(Self.secret)@127.0.0.1:8554/gray")
        await session.stop(server, secret: Self.secret)
    }

    @Test("--rtsp-users: refused while others can read it; then its users (a password, an htdigest hash) get in")
    func usersFile() async throws {
        let session = try await RTSPAuthSession()
        let file = session.folder.appendingPathComponent("users")
        let hash = try await md5("carol:gstpipe:carol-\(Self.secret)")
        try "# who may watch\nbob:bob-\(Self.secret)\n\ncarol:gstpipe:\(hash)\n".write(
            to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let open = await session.gstpipe(
            liveGray(frames: 30) + ["!", "rtsp://127.0.0.1:8554/gray", "--rtsp-users", file.path]
        ).finish(timeout: 30)
        #expect(open.status == 1, "\(open.stderr)")
        #expect(open.stderr.contains("is open to other users (mode 644): chmod 600 \(file.path)"), "\(open.stderr)")

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let server = try await session.serve("rtsp://127.0.0.1:8554/gray", ["--rtsp-users", file.path])
        await session.expectFrames("rtsp://bob:bob-\(Self.secret)@127.0.0.1:8554/gray")
        await session.expectFrames("rtsp://carol:carol-\(Self.secret)@127.0.0.1:8554/gray")
        await session.expectRefused("rtsp://bob:carol-\(Self.secret)@127.0.0.1:8554/gray", status: "401")
        await session.stop(server, secret: Self.secret)
    }

    @Test("rtsp://alice@ takes the password from GSTPIPE_RTSP_PASSWORD; without it, a usage error")
    func passwordFromEnvironment() async throws {
        let session = try await RTSPAuthSession()
        let missing = await session.gstpipe(liveGray(frames: 30) + ["!", "rtsp://alice@127.0.0.1:8554/gray"])
            .finish(timeout: 30)
        #expect(missing.status == 2 && missing.stderr.contains("set GSTPIPE_RTSP_PASSWORD"), "\(missing.stderr)")
        let server = try await session.serve(
            "rtsp://alice@127.0.0.1:8554/gray", environment: ["GSTPIPE_RTSP_PASSWORD": Self.secret])
        await session.expectFrames("rtsp://alice:\(Self.secret)@127.0.0.1:8554/gray")
        await session.stop(server, saying: "rtsp://alice:***@127.0.0.1:8554/gray", secret: Self.secret)
    }

    @Test("rtsps:// with a certificate from openssl req: ffmpeg reads it with the password, 401 without")
    func tls() async throws {
        let session = try await RTSPAuthSession()
        let (certificate, key) = try await session.certificate(named: "server")
        let server = try await session.serve(
            "rtsps://alice:\(Self.secret)@127.0.0.1:8555/gray", ["--tls-cert", certificate, "--tls-key", key])
        let challenge = await session.describe(port: 8555, tls: true)
        #expect(challenge.hasPrefix("RTSP/1.0 401") && challenge.contains("Digest"), "\(challenge)")
        // ffmpeg 5.1 does not check a server's certificate unless told (-tls_verify 1), and reads
        // rtsps:// over the TLS connection (interleaved), the only way this server sends.
        await session.expectRefused("rtsps://alice:not-it@127.0.0.1:8555/gray", status: "401", tcp: false)
        await session.expectFrames("rtsps://alice:\(Self.secret)@127.0.0.1:8555/gray", tcp: false)
        await session.stop(server, saying: "rtsps://alice:***@127.0.0.1:8555/gray", secret: Self.secret)
    }

    @Test("rtsps:// refuses, before serving, a key that is not the certificate's, a missing or expired certificate")
    func tlsRefused() async throws {
        let session = try await RTSPAuthSession()
        let (certificate, _) = try await session.certificate(named: "one")
        let (_, otherKey) = try await session.certificate(named: "two")
        let output = "rtsps://alice:\(Self.secret)@127.0.0.1:8555/gray"
        let mismatched = await session.gstpipe(
            liveGray(frames: 30) + ["!", output, "--tls-cert", certificate, "--tls-key", otherKey]
        ).finish(timeout: 30)
        #expect(
            mismatched.status == 1 && mismatched.stderr.contains("the key is not the certificate's"), "\(mismatched)")
        let missing = await session.gstpipe(
            liveGray(frames: 30) + ["!", output, "--tls-cert", "/nonexistent.pem", "--tls-key", otherKey]
        ).finish(timeout: 30)
        #expect(missing.status == 1 && missing.stderr.contains("/nonexistent.pem (--tls-cert) does not exist"))
        let old = try await session.expiredCertificate(for: otherKey)
        let expired = await session.gstpipe(
            liveGray(frames: 30) + ["!", output, "--tls-cert", old, "--tls-key", otherKey]
        ).finish(timeout: 30)
        #expect(expired.status == 1 && expired.stderr.contains("the certificate expired on"), "\(expired.stderr)")
        let none = await session.gstpipe(liveGray(frames: 30) + ["!", output]).finish(timeout: 30)
        #expect(none.status == 2 && none.stderr.contains("give its certificate and key with --tls-cert"))
        session.checkNoSecret(Self.secret)
    }

    @Test(
        "?max-clients=1: a second client gets 503 while the first watches, then another gets in; PLAY again and again forces a key frame at most once a second"
    )
    func maxClients() async throws {
        let session = try await RTSPAuthSession()
        let server = try await session.serve("rtsp://127.0.0.1:8554/gray?max-clients=1")
        // A place is taken at SETUP: the listener probe's connection, which never sets one up, takes none.
        try await Task.sleep(for: .seconds(1))
        let first = session.namespace.run(
            "/usr/bin/ffmpeg",
            [
                "-hide_banner", "-nostdin", "-rtsp_transport", "tcp", "-i", "rtsp://127.0.0.1:8554/gray", "-f", "null",
                "-"
            ])
        try await Task.sleep(for: .seconds(3))
        await session.expectRefused("rtsp://127.0.0.1:8554/gray", status: "503 Service Unavailable")
        first.signal(SIGKILL)
        _ = await first.finish(timeout: 10)
        try await Task.sleep(for: .seconds(1))
        await session.expectFrames("rtsp://127.0.0.1:8554/gray")
        // A client repeating PLAY every 50 ms for 3 s: forced key frames at most one a second (with the
        // encoder's own, one every 2 s), not one a PLAY.
        let spam = await session.namespace.run("/usr/bin/python3", ["-c", Self.playAgainScript, "8554"])
            .finish(timeout: 30)
        let keyFrames = Int(spam.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(keyFrames.map { 1...6 ~= $0 } == true, "\(spam.stdout) \(spam.stderr)")
        await session.stop(server, secret: nil)
    }

    /// An RTSP client over TCP that plays /gray, sends PLAY again every 50 ms for three seconds, and
    /// prints how many key frames (IDR pictures, by RTP timestamp) it received meanwhile.
    static let playAgainScript = #"""
        import socket, sys, time
        port = int(sys.argv[1])
        url = f'rtsp://127.0.0.1:{port}/gray'
        conn = socket.create_connection(('127.0.0.1', port), timeout=20)
        buffer = b''
        cseq = 0
        def request(method, uri, headers=''):
            global cseq, buffer
            cseq += 1
            conn.sendall(f'{method} {uri} RTSP/1.0\r\nCSeq: {cseq}\r\n{headers}\r\n'.encode())
        def response():
            # Reads up to the next RTSP response, skipping interleaved packets; returns its headers and body.
            global buffer
            while True:
                while len(buffer) < 4:
                    buffer += conn.recv(65536)
                if buffer[0] == 0x24:
                    size = int.from_bytes(buffer[2:4], 'big')
                    while len(buffer) < 4 + size:
                        buffer += conn.recv(65536)
                    buffer = buffer[4 + size:]
                    continue
                while b'\r\n\r\n' not in buffer:
                    buffer += conn.recv(65536)
                head, buffer = buffer.split(b'\r\n\r\n', 1)
                text = head.decode(errors='replace')
                length = 0
                for line in text.split('\r\n'):
                    if line.lower().startswith('content-length:'):
                        length = int(line.split(':')[1])
                while len(buffer) < length:
                    buffer += conn.recv(65536)
                body, buffer = buffer[:length], buffer[length:]
                return text, body.decode(errors='replace')
        request('DESCRIBE', url, 'Accept: application/sdp\r\n')
        _, sdp = response()
        control = next(l.split(':', 1)[1] for l in sdp.split('\r\n') if l.startswith('a=control:') and l != 'a=control:*')
        track = control if control.startswith('rtsp') else url + '/' + control
        request('SETUP', track, 'Transport: RTP/AVP/TCP;unicast;interleaved=0-1\r\n')
        head, _ = response()
        session = next(l.split(':', 1)[1].split(';')[0].strip() for l in head.split('\r\n') if l.lower().startswith('session:'))
        request('PLAY', url, f'Session: {session}\r\n')
        response()
        # PLAY again every 50 ms for three seconds, counting the key frames (IDR NAL units) that arrive.
        idr_times = set()
        end = time.monotonic() + 3
        next_play = time.monotonic()
        conn.settimeout(0.05)
        while time.monotonic() < end:
            if time.monotonic() >= next_play:
                request('PLAY', url, f'Session: {session}\r\n')
                next_play += 0.05
            try:
                buffer += conn.recv(65536)
            except socket.timeout:
                pass
            while len(buffer) >= 4:
                if buffer[0] != 0x24:
                    cut = buffer.find(b'\r\n\r\n')
                    if cut < 0:
                        break
                    # A response: Content-Length 0 for PLAY.
                    buffer = buffer[cut + 4:]
                    continue
                size = int.from_bytes(buffer[2:4], 'big')
                if len(buffer) < 4 + size:
                    break
                channel = buffer[1]
                packet, buffer = buffer[4:4 + size], buffer[4 + size:]
                if channel != 0 or len(packet) < 13:
                    continue
                timestamp = packet[4:8]
                nal = packet[12] & 0x1F
                if nal == 5 or (nal == 28 and len(packet) > 13 and packet[13] & 0x1F == 5) or nal == 24:
                    if nal == 24 and not (len(packet) > 15 and packet[15] & 0x1F in (5, 7)):
                        continue
                    idr_times.add(timestamp)
        print(len(idr_times))
        """#

    @Test("gstpipe reads gstpipe's rtsps:// server with the password (--tls-no-verify said loudly), not without")
    func gstpipeInput() async throws {
        let session = try await RTSPAuthSession()
        let (certificate, key) = try await session.certificate(named: "server")
        let server = try await session.serve(
            "rtsps://alice:\(Self.secret)@127.0.0.1:8555/gray", ["--tls-cert", certificate, "--tls-key", key])
        let refused = await session.gstpipe([
            "rtsps://alice:not-it@127.0.0.1:8555/gray", "!", "fakesink", "--tls-no-verify"
        ]).finish(timeout: 40)
        #expect(refused.status == 1 && refused.stderr.contains("Unauthorized"), "\(refused.stderr)")
        #expect(refused.stderr.contains("rtsps://alice:***@127.0.0.1:8555/gray"), "\(refused.stderr)")
        #expect(refused.stderr.contains("check the user and password"), "\(refused.stderr)")
        let untrusted = await session.gstpipe(["rtsps://alice:\(Self.secret)@127.0.0.1:8555/gray", "!", "fakesink"])
            .finish(timeout: 40)
        #expect(untrusted.status == 1 && untrusted.stderr.contains("--tls-no-verify reads"), "\(untrusted.stderr)")
        let output = session.folder.appendingPathComponent("read.mkv").path
        let graph = session.folder.appendingPathComponent("read.dot").path
        let read = await session.gstpipe([
            "rtsps://alice:\(Self.secret)@127.0.0.1:8555/gray", "!", "identity", "eos-after=60", "!", output,
            "--tls-no-verify", "--graph", graph
        ]).finish(timeout: 60)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(
            read.stderr.contains("WARNING: --tls-no-verify: the certificate of rtsps://alice:***@"), "\(read.stderr)")
        // 60 frames, or 59 when the first did not decode whole (as StreamInputTests allows).
        let streams = try await probeStreams(output, entries: "width,nb_read_frames")
        #expect(streams == ["320,60"] || streams == ["320,59"], "\(streams)")
        // The graph shows rtspsrc's properties, the password among them: masked.
        let drawn = try String(contentsOfFile: graph, encoding: .utf8)
        #expect(drawn.contains("GstRTSPSrc") && drawn.contains(#"user-pw=\"***\""#), "\(drawn.prefix(2000))")
        #expect(!drawn.contains(Self.secret))
        await session.stop(server, secret: Self.secret)
    }

    @Test("A client speaking plain RTSP to an rtsps:// port is let go (it was held forever); viewers still served")
    func plainClientOnTLSPort() async throws {
        let session = try await RTSPAuthSession()
        let (certificate, key) = try await session.certificate(named: "server")
        let server = try await session.serve(
            "rtsps://alice:\(Self.secret)@127.0.0.1:8555/gray", ["--tls-cert", certificate, "--tls-key", key])
        // Ten at once, each waiting up to 40 s for the server to end its connection (gst-rtsp-server
        // 1.22 kept them open, past the 10 s that idle connections get).
        let script = #"""
            import socket, time
            conns = [socket.create_connection(('127.0.0.1', 8555), timeout=40) for _ in range(10)]
            start = time.time()
            for conn in conns:
                conn.sendall(b'OPTIONS rtsp://127.0.0.1:8555/gray RTSP/1.0\r\nCSeq: 1\r\n\r\n')
            for conn in conns:
                try:
                    while conn.recv(4096):
                        pass
                except socket.timeout:
                    print('held')
            print('ended after %.1f' % (time.time() - start))
            """#
        let result = await session.namespace.run("/usr/bin/python3", ["-c", script]).finish(timeout: 120)
        #expect(!result.stdout.contains("held"), "\(result.stdout) \(result.stderr)")
        let last = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").last
        #expect(last.flatMap { Double($0) }.map { $0 < 30 } == true, "\(result.stdout)")
        await session.expectFrames("rtsps://alice:\(Self.secret)@127.0.0.1:8555/gray", tcp: false)
        await session.stop(server, secret: Self.secret)
    }

    /// MD5 of `text`, hex, as htdigest writes it.
    private func md5(_ text: String) async throws -> String {
        let result = await
            (try Spawned(
                "/usr/bin/python3",
                ["-c", "import hashlib,sys; print(hashlib.md5(sys.argv[1].encode()).hexdigest())", text]
            )).finish(timeout: 10)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
