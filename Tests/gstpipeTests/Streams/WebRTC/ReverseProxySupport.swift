import Foundation

/// nginx as a test runs it: in the test's network namespace, in the foreground (`daemon off`), with
/// everything it writes (pid, logs, temporary files) in a folder of the test's, and around the
/// "Serving safely" article's own configuration blocks (`ArticleSnippet`), so that what it tells users to write
/// is what the tests run.
final class Nginx: Sendable {
    static let executable = "/usr/sbin/nginx"
    /// Debian builds the stream (TCP) module as a module of its own, in `libnginx-mod-stream`.
    static let streamModule = "/usr/lib/nginx/modules/ngx_stream_module.so"

    /// Debian's `libnginx-mod-rtmp`: RTMP ingest and playback, for the `rtmp://` tests.
    static let rtmpModule = "/usr/lib/nginx/modules/ngx_rtmp_module.so"

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }
    static var hasRTMPModule: Bool { isInstalled && FileManager.default.fileExists(atPath: rtmpModule) }
    static var hasStreamModule: Bool { isInstalled && FileManager.default.fileExists(atPath: streamModule) }

    /// The folder's stream log: one line per proxied TCP connection, `bytes_sent bytes_received`.
    let streamLog: URL
    private let folder: URL
    private let process: Spawned

    /// Starts nginx with `http` (blocks for its `http` context), `stream` (a whole `stream { … }`
    /// block, which gets a log of the bytes each connection carried) and `rtmp` (a whole `rtmp { … }`
    /// block) in `namespace`, and waits until it listens on `port`. With `rtmp`, nginx runs as one
    /// process (no master): killed outright, nothing of it stays to hold the connections.
    init(
        in namespace: NetworkNamespace, folder: URL, http: String? = nil, stream: String? = nil, rtmp: String? = nil,
        port: Int
    ) async throws {
        self.folder = folder.appendingPathComponent("nginx")
        streamLog = self.folder.appendingPathComponent("stream.log")
        try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
        let path = self.folder.path
        var configuration = [
            // The master reads the certificate; the workers (root too: the folder is root's) write
            // request bodies into the folder.
            "user root;", "worker_processes 1;", "pid \(path)/nginx.pid;", "error_log \(path)/error.log info;"
        ]
        if stream != nil { configuration.append("load_module \(Self.streamModule);") }
        if rtmp != nil { configuration += ["load_module \(Self.rtmpModule);", "master_process off;"] }
        configuration.append("events { worker_connections 512; }")
        if let http {
            configuration += [
                "http {", "access_log \(path)/access.log;", "client_body_temp_path \(path)/body;",
                "proxy_temp_path \(path)/proxy;", "fastcgi_temp_path \(path)/fastcgi;",
                "uwsgi_temp_path \(path)/uwsgi;", "scgi_temp_path \(path)/scgi;", http, "}"
            ]
        }
        if let rtmp { configuration.append(rtmp) }
        if let stream {
            let log = "log_format bytes '$bytes_sent $bytes_received';\naccess_log \(streamLog.path) bytes;"
            configuration.append(stream.replacingOccurrences(of: "stream {", with: "stream {\n\(log)"))
        }
        let file = self.folder.appendingPathComponent("nginx.conf")
        try configuration.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        // -e: the error log from the start, before the configuration names one (else /var/log/nginx).
        process = namespace.run(
            Self.executable, ["-p", path, "-e", "\(path)/error.log", "-c", file.path, "-g", "daemon off;"])
        let probe =
            "for i in $(seq 300); do (exec 3<>/dev/tcp/127.0.0.1/\(port)) 2>/dev/null && exit 0; sleep 0.1; done; "
            + "exit 1"
        guard await namespace.run("/bin/bash", ["-c", probe]).finish(timeout: 40).status == 0 else {
            let result = await process.finish(timeout: 5)
            let log = (try? String(contentsOf: self.folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
            let written = configuration.joined(separator: "\n")
            throw NetworkNamespace.NamespaceError(
                message: "nginx did not listen on \(port): \(result.stderr)\n\(log)\n\(written)")
        }
    }

    /// The bytes each finished proxied connection sent to its client, once `count` of them are in the
    /// stream log (nginx writes a line when a connection closes), waiting up to `timeout` seconds.
    /// Connections whose client sent nothing (the probe that waited for nginx to listen) are left out.
    func bytesSent(count: Int, timeout: TimeInterval = 20) async -> [Int] {
        let deadline = Date().addingTimeInterval(timeout)
        var sent: [Int] = []
        repeat {
            let log = (try? String(contentsOf: streamLog, encoding: .utf8)) ?? ""
            let connections = log.split(separator: "\n").map { $0.split(separator: " ").compactMap { Int($0) } }
            sent = connections.filter { $0.count == 2 && $0[1] > 0 }.map { $0[0] }
            if sent.count >= count { break }
            try? await Task.sleep(for: .milliseconds(200))
        } while Date() < deadline
        return sent
    }

    /// The http access log so far: one line per request nginx passed on, with its status.
    var accessLog: String {
        (try? String(contentsOf: folder.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
    }

    /// A self-signed certificate for 127.0.0.1 (as its name and as an IP address, which clients that
    /// verify it, as libcurl does, check) and its key, made by `openssl req` in `folder`.
    static func certificate(in folder: URL) async throws -> (certificate: String, key: String) {
        let certificate = folder.appendingPathComponent("proxy.pem").path
        let key = folder.appendingPathComponent("proxy.key").path
        let made = await
            (try Spawned(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"
                ])).finish(timeout: 60)
        guard made.status == 0 else { throw NetworkNamespace.NamespaceError(message: "openssl: \(made.stderr)") }
        return (certificate, key)
    }

    /// Kills nginx outright (SIGKILL), as a crash or a power cut would, and waits for it to be gone.
    func kill() async {
        process.signal(SIGKILL)
        _ = await process.finish(timeout: 10)
    }

    /// Stops nginx (SIGQUIT: a graceful end) and returns how it ended.
    func stop() async -> CLIResult {
        process.signal(SIGQUIT)
        return await process.finish(timeout: 20)
    }
}

/// The "Serving safely" article's own configuration blocks, read from the article itself: an indented block
/// that starts with a line and ends at the closing brace at that line's indentation.
enum ArticleSnippet {
    static let article = Repository.url("Sources/gstpipe/Documentation.docc/ServingSafely.md")

    /// The block starting with the line `first` (indentation aside) that holds `containing`, its
    /// indentation taken off.
    static func block(startingWith first: String, containing: String) throws -> String {
        let lines = try String(contentsOf: article, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces) == first {
            let indent = line.prefix { $0 == " " }.count
            guard let end = lines[index...].firstIndex(where: { $0 == String(repeating: " ", count: indent) + "}" })
            else { continue }
            let block = lines[index...end].map { String($0.dropFirst(indent)) }.joined(separator: "\n")
            if block.contains(containing) { return block }
        }
        throw NetworkNamespace.NamespaceError(
            message: "ServingSafely.md has no block starting with \(first) holding \(containing)")
    }
}
