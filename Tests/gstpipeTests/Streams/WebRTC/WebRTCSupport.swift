import Foundation

/// A private network namespace with loopback alone, for the WebRTC tests: a process that holds it
/// (`unshare -n`), and every server, page server and browser of a test entered into it (`nsenter`),
/// so that no packet can leave the machine, webrtcbin's ICE must work on 127.0.0.1, and the ports a
/// test uses clash with nothing else running.
final class NetworkNamespace: Sendable {
    private let holder: Spawned
    /// The namespace's file, which `nsenter --net=` takes.
    let path: String

    /// True when this machine lets the tests make one (root, or a user namespace allowed).
    static let isAvailable: Bool = succeeds("/usr/bin/unshare", ["-n", "true"])

    init() async throws {
        holder = try Spawned("/usr/bin/unshare", ["-n", "sleep", "600"])
        path = "/proc/\(holder.process.processIdentifier)/ns/net"
        let own = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/net")
        // unshare makes the namespace and then runs sleep: wait until the holder is in a namespace of its own.
        // The kernel makes and tears down namespaces under shared locks: beside other tests' namespaces going
        // away on a busy machine, both steps have taken over 10 s, so the waits are long and say which step it was.
        let started = Date()
        let deadline = started.addingTimeInterval(60)
        while (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == own && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        guard let entered = try? FileManager.default.destinationOfSymbolicLink(atPath: path), entered != own else {
            throw NamespaceError(
                message: "unshare -n made no namespace in \(Int(Date().timeIntervalSince(started))) s "
                    + "(running: \(holder.process.isRunning))")
        }
        let up = await run("/usr/sbin/ip", ["link", "set", "lo", "up"]).finish(timeout: 60)
        guard up.status == 0 else {
            throw NamespaceError(
                message: "ip link set lo up: status \(up.status) after \(Int(Date().timeIntervalSince(started))) s "
                    + "(-1: it did not end) \(up.stderr)")
        }
    }

    /// Starts `executable` inside the namespace: nsenter execs it, so the process is the program
    /// itself (a signal sent to it reaches the program).
    func run(_ executable: String, _ arguments: [String]) -> Spawned {
        // Spawning nsenter fails only when it is missing, which isAvailable rules out with unshare's package.
        try! Spawned("/usr/bin/nsenter", ["--net=\(path)", "--", executable] + arguments)
    }

    /// curl inside the namespace: the response's status line and headers, then its body.
    func curl(_ arguments: [String]) async -> String {
        await run("/usr/bin/curl", ["-s", "-i", "--max-time", "20"] + arguments).finish(timeout: 30).stdout
    }

    /// Waits until something listens on `host`:`port` inside the namespace.
    func waitForListener(_ port: Int, host: String = "127.0.0.1", timeout: TimeInterval = 30) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let probe = await run("/usr/bin/curl", ["-s", "-o", "/dev/null", "http://\(host):\(port)/"])
                .finish(timeout: 10)
            // 7: connection refused; anything else (a 404 included) means a server answered.
            if probe.status == 0 { return true }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return false
    }

    struct NamespaceError: Error {
        let message: String
    }
}

/// Headless Chromium as a real WHEP client, and the second origin it loads its test page from: a
/// tiny Python server (`collector`) on another port, which serves the page and writes what the page
/// POSTs to /result/NAME into NAME.json beside it.
enum Browser {
    static let executable = "/usr/bin/chromium"

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// The flags a headless browser peer needs here: loopback candidates allowed, no mDNS hiding of local addresses, and
    /// no prompt or real device for media; `flags` added (`--ignore-certificate-errors` for a proxy's
    /// self-signed certificate).
    static func arguments(profile: String, url: String, flags: [String] = []) -> [String] {
        flags + [
            "--headless=new", "--no-sandbox", "--allow-loopback-in-peer-connection",
            "--disable-features=WebRtcHideLocalIpsWithMdns", "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream", "--autoplay-policy=no-user-gesture-required", "--no-first-run",
            "--disable-gpu", "--user-data-dir=\(profile)", url
        ]
    }

    /// The page server: static files from the folder given, results POSTed to /result/NAME.
    static let collector = #"""
        import http.server, os, sys
        root, port = sys.argv[1], int(sys.argv[2])

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=root, **kwargs)

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
                name = os.path.basename(self.path)
                with open(os.path.join(root, name + '.tmp'), 'wb') as file:
                    file.write(body)
                os.rename(os.path.join(root, name + '.tmp'), os.path.join(root, name + '.json'))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        http.server.ThreadingHTTPServer(('127.0.0.1', port), Handler).serve_forever()
        """#
}

/// One browser session of a WebRTC test: the namespace's page server on port 8000 serving `page`
/// (`WebRTCTestPage.html` unless told), and Chromium opening it with `query` (and `flags`);
/// `result(named:)` waits for what the page reports.
final class BrowserSession: Sendable {
    let folder: URL
    private let pageServer: Spawned
    private let browser: Spawned

    init(
        in namespace: NetworkNamespace, query: String, page: String = WebRTCTestPage.html, flags: [String] = []
    ) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-webrtc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let collector = folder.appendingPathComponent("collector.py")
        try Browser.collector.write(to: collector, atomically: true, encoding: .utf8)
        try page.write(
            to: folder.appendingPathComponent("viewer.html"), atomically: true, encoding: .utf8)
        pageServer = namespace.run("/usr/bin/python3", [collector.path, folder.path, "8000"])
        guard await namespace.waitForListener(8000) else {
            throw NetworkNamespace.NamespaceError(message: "no page server")
        }
        let profile = folder.appendingPathComponent("profile").path
        let url = "http://127.0.0.1:8000/viewer.html?\(query)"
        browser = namespace.run(Browser.executable, Browser.arguments(profile: profile, url: url, flags: flags))
    }

    /// What the page POSTed to /result/`name`, as JSON, waiting up to `timeout` seconds; nil if nothing came.
    func result(named name: String, timeout: TimeInterval = 60) async -> [String: Any]? {
        let file = folder.appendingPathComponent("\(name).json")
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let data = try? Data(contentsOf: file) {
                return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return nil
    }

    /// Ends the browser and the page server, and removes the folder.
    func close() async {
        browser.signal(SIGKILL)
        pageServer.signal(SIGKILL)
        _ = await browser.finish(timeout: 5)
        _ = await pageServer.finish(timeout: 5)
        try? FileManager.default.removeItem(at: folder)
    }
}
