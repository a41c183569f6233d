import Foundation
import GstPipeSupport
import Synchronization
import Testing

/// One test of `RTSPAuthTests`: a network namespace with loopback alone, a folder for its files, and
/// every gstpipe run of the test remembered, so that `checkNoSecret` can search all they wrote.
final class RTSPAuthSession: Sendable {
    let namespace: NetworkNamespace
    let folder: URL
    private let results = Locked<[CLIResult]>([])

    init() async throws {
        namespace = try await NetworkNamespace()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-rtsp-auth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// A gstpipe run inside the namespace, its outcome remembered once it ends.
    final class Run: Sendable {
        let process: Spawned
        private let session: RTSPAuthSession

        fileprivate init(_ process: Spawned, _ session: RTSPAuthSession) {
            self.process = process
            self.session = session
        }

        func signal(_ number: Int32) { process.signal(number) }

        func finish(timeout: TimeInterval) async -> CLIResult {
            let result = await process.finish(timeout: timeout)
            session.results.withLock { $0.append(result) }
            return result
        }
    }

    /// gstpipe with `arguments`, and `environment` added to the test's own.
    func gstpipe(_ arguments: [String], environment: [String: String] = [:]) -> Run {
        let assignments = environment.map { "\($0.key)=\($0.value)" }
        return Run(namespace.run("/usr/bin/env", assignments + [CLI.binary.path] + arguments), self)
    }

    /// gstpipe serving `frames` of live gray video (30 fps) to `output`, once it listens: a minute by
    /// default, which the tests end sooner (`stop`), so that slow clients on a loaded machine still
    /// find it serving.
    func serve(
        _ output: String, _ options: [String] = [], frames: Int = 1800, environment: [String: String] = [:]
    ) async throws -> Run {
        let server = gstpipe(liveGray(frames: frames) + ["!", output] + options, environment: environment)
        guard let port = output.firstMatch(of: #/:(\d+)\//#).flatMap({ Int($0.1) }), await waitForListener(port) else {
            let result = await server.finish(timeout: 5)
            throw NetworkNamespace.NamespaceError(message: "the server did not listen: \(result.stderr)")
        }
        return server
    }

    /// Waits until something accepts TCP connections on 127.0.0.1:`port` in the namespace.
    func waitForListener(_ port: Int) async -> Bool {
        let probe =
            "for i in $(seq 300); do (exec 3<>/dev/tcp/127.0.0.1/\(port)) 2>/dev/null && exit 0; sleep 0.1; done; "
            + "exit 1"
        return await namespace.run("/bin/bash", ["-c", probe]).finish(timeout: 40).status == 0
    }

    /// ffmpeg reading 30 frames of `uri` (over TCP unless `tcp` is false: rtsps:// chooses itself).
    func ffmpeg(_ uri: String, tcp: Bool = true) async -> FFmpegRead {
        let transport = tcp ? ["-rtsp_transport", "tcp"] : []
        return FFmpegRead(
            await namespace.run(
                "/usr/bin/ffmpeg",
                ["-hide_banner", "-nostdin", "-nostats", "-progress", "pipe:1"] + transport
                    + ["-i", uri, "-frames:v", "30", "-f", "null", "-"]
            ).finish(timeout: 40))
    }

    /// Expects ffmpeg to be refused `uri` with a status line holding `status`.
    func expectRefused(
        _ uri: String, status: String = "401 Unauthorized", tcp: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let read = await ffmpeg(uri, tcp: tcp)
        #expect(
            read.result.status != 0 && read.result.stderr.contains(status), "\(read)", sourceLocation: sourceLocation)
    }

    /// Expects ffmpeg to read 30 frames of 320x240 from `uri`.
    func expectFrames(_ uri: String, tcp: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) async {
        let read = await ffmpeg(uri, tcp: tcp)
        #expect(
            read.result.status == 0 && read.frames == 30 && read.width == 320, "\(read)", sourceLocation: sourceLocation
        )
    }

    /// Stops `server` (Ctrl-C), expects it to have said `serving` (if given), and that no gstpipe
    /// run of the test wrote `secret`.
    func stop(
        _ server: Run, saying serving: String? = nil, secret: String?, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        server.signal(SIGINT)
        let served = await server.finish(timeout: 30)
        if let serving {
            #expect(served.stderr.contains("serving \(serving)"), "\(served.stderr)", sourceLocation: sourceLocation)
        }
        if let secret { checkNoSecret(secret, sourceLocation: sourceLocation) }
    }

    /// The status line and headers of the answer to a DESCRIBE of /gray without credentials, over TLS
    /// (any certificate) when `tls`.
    func describe(port: Int, tls: Bool = false) async -> String {
        await namespace.run("/usr/bin/python3", ["-c", Self.describeScript, String(port), tls ? "1" : "0"])
            .finish(timeout: 30).stdout
    }

    private static let describeScript = #"""
        import socket, ssl, sys
        port, tls = int(sys.argv[1]), sys.argv[2] == '1'
        conn = socket.create_connection(('127.0.0.1', port), timeout=20)
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            conn = context.wrap_socket(conn)
        request = f'DESCRIBE rtsp://127.0.0.1:{port}/gray RTSP/1.0\r\nCSeq: 1\r\nAccept: application/sdp\r\n\r\n'
        conn.sendall(request.encode())
        data = b''
        while b'\r\n\r\n' not in data:
            chunk = conn.recv(4096)
            if not chunk:
                break
            data += chunk
        print(data.decode(errors='replace'))
        """#

    /// A self-signed certificate for 127.0.0.1 and its key, made by `openssl req`, in the folder.
    func certificate(named name: String) async throws -> (certificate: String, key: String) {
        let certificate = folder.appendingPathComponent("\(name).pem").path
        let key = folder.appendingPathComponent("\(name).key").path
        try await openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2",
            "-subj", "/CN=127.0.0.1"
        ])
        return (certificate, key)
    }

    /// A certificate for `key` that expired a day ago (`openssl x509 -days -1`), in the folder.
    func expiredCertificate(for key: String) async throws -> String {
        let request = folder.appendingPathComponent("expired.csr").path
        let certificate = folder.appendingPathComponent("expired.pem").path
        try await openssl(["req", "-new", "-key", key, "-subj", "/CN=127.0.0.1", "-out", request])
        try await openssl(["x509", "-req", "-in", request, "-signkey", key, "-days", "-1", "-out", certificate])
        return certificate
    }

    private func openssl(_ arguments: [String]) async throws {
        let made = await (try Spawned("/usr/bin/openssl", arguments)).finish(timeout: 60)
        guard made.status == 0 else { throw NetworkNamespace.NamespaceError(message: "openssl: \(made.stderr)") }
    }

    /// Expects that no gstpipe run of the test wrote `secret`, on either output.
    func checkNoSecret(_ secret: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let results = results.withLock { $0 }
        #expect(!results.isEmpty, sourceLocation: sourceLocation)
        for result in results {
            #expect(!result.stdout.contains(secret), "\(result.stdout)", sourceLocation: sourceLocation)
            #expect(!result.stderr.contains(secret), "\(result.stderr)", sourceLocation: sourceLocation)
        }
    }
}
