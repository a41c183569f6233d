import Foundation
import Testing

@testable import gstpipe

/// gstpipe as a WHIP and WHEP client of other servers: `… ! whip+http://…` publishing to aiortc's
/// WHIP endpoint (`scripts/aiortc-whip-server.py`, a WebRTC stack no one here wrote), and
/// `whep+http://… ! out.mkv` watching gstpipe's own `webrtc://` output. Each test in a network
/// namespace of its own with loopback alone (`NetworkNamespace`); serialized, as the browser tests
/// are, for the two cores.
@Suite(
    "WHIPClientTests", .serialized,
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"))
struct WHIPClientTests {
    /// The venv `scripts/setup-python.sh` makes, with aiortc.
    static let python = ProcessInfo.processInfo.environment["GSTPIPE_PYTHON"] ?? "/opt/gstpipe-python/bin/python"
    static let server = Repository.url("scripts/aiortc-whip-server.py")
    static let token = "s3cret-\(UUID().uuidString.prefix(8))"

    /// aiortc's WHIP endpoint at 127.0.0.1:8891/whip in `namespace`, checking `token`; its report file.
    private static func startAiortc(in namespace: NetworkNamespace) async throws -> (Spawned, URL) {
        let report = Media.temporary("aiortc-report", "json")
        let server = namespace.run(python, [Self.server.path, "8891", report.path, token])
        guard await namespace.waitForListener(8891) else {
            let result = await server.finish(timeout: 5)
            Issue.record("the aiortc server did not listen: \(result.stderr)")
            throw NetworkNamespace.NamespaceError(message: "no aiortc server")
        }
        return (server, report)
    }

    private static func read(_ report: URL) -> [String: Any] {
        guard let data = try? Data(contentsOf: report) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    /// `frames` of gray noise published to aiortc's WHIP endpoint with the token, in a namespace of their
    /// own: gstpipe's result and aiortc's report, once it has the DELETE. Small frames: noise is the
    /// hardest picture for VP8 to encode, and the machine's two cores are shared.
    private static func publishNoise(frames: Int) async throws -> (CLIResult, [String: Any]) {
        let namespace = try await NetworkNamespace()
        let (server, report) = try await startAiortc(in: namespace)
        defer { try? FileManager.default.removeItem(at: report) }
        let result = await namespace.run(
            CLI.binary.path,
            [
                "noise", "num-buffers=\(frames)", "width=160", "height=120", "!", "gray", "!",
                "whip+http://127.0.0.1:8891/whip?token=\(token)"
            ]
        ).finish(timeout: 60)
        // aiortc decodes on its own time: wait for the DELETE to be in the report.
        var seen = read(report)
        for _ in 0..<50 where seen["deleted"] as? Bool != true {
            try await Task.sleep(for: .milliseconds(100))
            seen = read(report)
        }
        server.signal(SIGKILL)
        _ = await server.finish(timeout: 5)
        return (result, seen)
    }

    @Test(
        "Gray noise published to aiortc's WHIP endpoint with a bearer token: decoded there, gray, then DELETEd",
        .aiortc)
    func publishToAiortc() async throws {
        // 240 frames at 30 a second: 8 s of gray noise, then end of stream and DELETE. The run waits for
        // ICE and DTLS (over 3 s on a loaded 2-core machine) before its second frame.
        let (result, seen) = try await Self.publishNoise(frames: 240)
        let comment = Comment(rawValue: "\(seen)\n\(result.stderr)")
        #expect(result.status == 0, comment)
        #expect((seen["frames"] as? Int ?? 0) >= 200, comment)
        #expect(seen["width"] as? Int == 160 && seen["height"] as? Int == 120, comment)
        #expect((seen["chromaDeviation"] as? Int ?? 255) <= 12, comment)
        #expect(seen["deleted"] as? Bool == true, comment)
        let requests = seen["requests"] as? [[String: Any]] ?? []
        #expect(requests.first?["method"] as? String == "POST" && requests.first?["status"] as? Int == 201, comment)
        #expect(requests.allSatisfy { $0["authorization"] as? Bool == true }, comment)
        #expect(result.stderr.contains("publishing to whip+http://127.0.0.1:8891/whip?token=***"), comment)
        expectHidden([Self.token], in: ShownText(result))
    }

    @Test("90 frames published to aiortc: the run waits for ICE and DTLS, so all but a few are decoded there", .aiortc)
    func publishFromTheFirstFrame() async throws {
        // 3 s at the input's pace: frames sent before the connection was up used to be lost (the
        // start of a file, with its key frame), which left aiortc a few dozen of them.
        let (result, seen) = try await Self.publishNoise(frames: 90)
        let comment = Comment(rawValue: "\(seen)\n\(result.stderr)")
        #expect(result.status == 0, comment)
        #expect((seen["frames"] as? Int ?? 0) >= 85, comment)
        // Frames held while the connection came up keep their spacing (1/30 s): stamped as they reached
        // the publisher, they left in a burst a few milliseconds apart.
        #expect((seen["minGapMs"] as? Double ?? 0) >= 25, comment)
        #expect((seen["chromaDeviation"] as? Int ?? 255) <= 12, comment)
        #expect(result.stderr.contains("connected to whip+http://127.0.0.1:8891/whip?token=***: sending"), comment)
    }

    /// `scripts/whip-unreachable-server.py` at 127.0.0.1:8893/whip in `namespace`: it answers every
    /// offer, but the connection never comes up. Nil (an issue recorded) when it did not listen.
    private static func startUnreachable(in namespace: NetworkNamespace) async -> Spawned? {
        let script = server.deletingLastPathComponent().appendingPathComponent("whip-unreachable-server.py")
        let process = namespace.run("/usr/bin/python3", [script.path, "8893"])
        guard await namespace.waitForListener(8893) else {
            Issue.record("the WHIP server did not listen: \(await process.finish(timeout: 5).stderr)")
            return nil
        }
        return process
    }

    @Test(
        "Ctrl-C while the run waits for a WHIP connection that never comes up: exit 130 at once, not an ICE failure or the 20 s limit"
    )
    func interruptWhileConnecting() async throws {
        let namespace = try await NetworkNamespace()
        guard let server = await Self.startUnreachable(in: namespace) else { return }
        defer { server.signal(SIGKILL) }
        // A file's pace: the second frame waits at the gate, holding the run's streaming thread.
        let gstpipe = namespace.run(
            CLI.binary.path,
            [
                "noise", "num-buffers=600", "width=160", "height=120", "!", "gray", "!",
                "whip+http://127.0.0.1:8893/whip"
            ])
        try await Task.sleep(for: .seconds(4))
        let start = ContinuousClock.now
        gstpipe.signal(SIGINT)
        let result = await gstpipe.finish(timeout: 30)
        let took = ContinuousClock.now - start
        #expect(result.status == 130, "\(result.stderr)")
        #expect(took < .seconds(8), "Ctrl-C took \(took): \(result.stderr)")
        #expect(!result.stderr.contains("did not come up"), "\(result.stderr)")
        #expect(!result.stderr.contains("connected to"), "the connection came up after all: \(result.stderr)")
    }

    @Test("A WHIP connection that never comes up: the run fails within the limit (3 s here), saying so, exit 1")
    func connectionLimit() async throws {
        let namespace = try await NetworkNamespace()
        guard let server = await Self.startUnreachable(in: namespace) else { return }
        defer { server.signal(SIGKILL) }
        let start = ContinuousClock.now
        let gstpipe = namespace.run(
            "/usr/bin/env",
            [
                "GSTPIPE_TEST_WHIP_CONNECTION_LIMIT=3", CLI.binary.path, "noise", "num-buffers=600", "width=160",
                "height=120", "!", "gray", "!", "whip+http://127.0.0.1:8893/whip"
            ])
        let result = await gstpipe.finish(timeout: 60)
        let took = ContinuousClock.now - start
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains("the connection to whip+http://127.0.0.1:8893/whip did not come up within 3 s"),
            "\(result.stderr)")
        // The limit, plus gstpipe's start and the offer's gathering on a loaded machine: well short of 20 s.
        #expect(took < .seconds(15), "the run took \(took): \(result.stderr)")
        #expect(!result.stderr.contains("connected to"), "the connection came up after all: \(result.stderr)")
    }

    @Test("A WHIP endpoint that wants a token: 401 said plainly, the token never printed", .aiortc)
    func tokenRefused() async throws {
        let namespace = try await NetworkNamespace()
        let (server, report) = try await Self.startAiortc(in: namespace)
        defer { try? FileManager.default.removeItem(at: report) }
        let missing = await namespace.run(
            CLI.binary.path, ["noise", "!", "gray", "!", "whip+http://127.0.0.1:8891/whip"]
        )
        .finish(timeout: 30)
        let wrongToken = "wrong-\(UUID().uuidString.prefix(8))"
        let wrong = await namespace.run(
            CLI.binary.path, ["noise", "!", "gray", "!", "whip+http://127.0.0.1:8891/whip?token=\(wrongToken)"]
        ).finish(timeout: 30)
        server.signal(SIGKILL)
        _ = await server.finish(timeout: 5)
        #expect(missing.status == 1, "\(missing.stderr)")
        #expect(
            missing.stderr.contains(
                "whip+http://127.0.0.1:8891/whip refused gstpipe (401 Unauthorized: missing or wrong bearer token): "
                    + "no token was given: add ?token=TOKEN to the address, or set GSTPIPE_WHIP_TOKEN"),
            "\(missing.stderr)")
        #expect(wrong.status == 1, "\(wrong.stderr)")
        #expect(
            wrong.stderr.contains("whip+http://127.0.0.1:8891/whip?token=*** refused gstpipe (401 Unauthorized"),
            "\(wrong.stderr)")
        #expect(wrong.stderr.contains("the token is wrong"), "\(wrong.stderr)")
        expectHidden([wrongToken], in: ShownText(wrong))
    }

    @Test("A WHIP server at its limit (503): exit 1 saying it is full or busy, not that it failed")
    func serverFull() async throws {
        let namespace = try await NetworkNamespace()
        // What gstpipe's own webrtc://…?max-clients=N answers beyond N (with Retry-After).
        let script = """
            import sys
            from http.server import BaseHTTPRequestHandler, HTTPServer
            class Full(BaseHTTPRequestHandler):
                def do_POST(self):
                    self.rfile.read(int(self.headers.get("Content-Length", 0)))
                    body = b"the server has all the clients it takes"
                    self.send_response(503)
                    self.send_header("Retry-After", "5")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
            HTTPServer(("127.0.0.1", int(sys.argv[1])), Full).serve_forever()
            """
        let server = namespace.run("/usr/bin/python3", ["-c", script, "8894"])
        defer { server.signal(SIGKILL) }
        guard await namespace.waitForListener(8894) else {
            Issue.record("the full server did not listen: \(await server.finish(timeout: 5).stderr)")
            return
        }
        let result = await namespace.run(
            CLI.binary.path, ["noise", "!", "gray", "!", "whip+http://127.0.0.1:8894/whip"]
        ).finish(timeout: 30)
        #expect(result.status == 1, "\(result.stderr)")
        // It said "(the server failed: see its log)".
        #expect(
            result.stderr.contains(
                "whip+http://127.0.0.1:8894/whip refused the offer (503 Service Unavailable: the server has all "
                    + "the clients it takes) (the server is full or busy: try again later)"),
            "\(result.stderr)")
    }

    @Test("Nothing listening at the WHIP address: connection refused, exit 1")
    func nothingListening() async throws {
        let namespace = try await NetworkNamespace()
        let result = await namespace.run(
            CLI.binary.path, ["noise", "!", "gray", "!", "whip+http://127.0.0.1:8892/whip?token=abc"]
        ).finish(timeout: 30)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains("cannot reach whip+http://127.0.0.1:8892/whip?token=***: connection refused"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("token=abc"), "\(result.stderr)")
        // --tls-no-verify cannot be honoured for WHIP or WHEP: refused before anything connects, not ignored.
        for arguments in [
            ["noise", "!", "gray", "!", "whip+https://127.0.0.1:8892/whip"],
            ["whep+https://127.0.0.1:8892/whep", "!", "fakesink"]
        ] {
            let refused = await namespace.run(CLI.binary.path, ["--tls-no-verify"] + arguments).finish(timeout: 30)
            #expect(refused.status == 2, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.contains("--tls-no-verify is for rtsps:// inputs"), "\(refused.stderr)")
        }
    }

    @Test("whep+http:// watches gstpipe's own webrtc:// output into a file; the stream's end ends it (exit 0)")
    func watchOwnServer() async throws {
        let namespace = try await NetworkNamespace()
        // 8 s of gray noise in small frames (noise is VP8's hardest picture, on two shared cores), then
        // the server ends the stream by itself and exits.
        let server = namespace.run(
            CLI.binary.path,
            ["noise", "num-buffers=240", "width=160", "height=120", "!", "gray", "!", "webrtc://127.0.0.1:8890/live"])
        guard await namespace.waitForListener(8890) else {
            let result = await server.finish(timeout: 5)
            Issue.record("gstpipe did not listen: \(result.stderr)")
            return
        }
        let output = Media.temporary("whep", "mkv")
        defer { try? FileManager.default.removeItem(at: output) }
        // A silence timeout far beyond the stream's end: the server's RTCP BYE is what must end it.
        let watcher = namespace.run(
            CLI.binary.path, ["--timeout", "20", "whep+http://127.0.0.1:8890/live/whep", "!", output.path])
        let serving = Task { (await server.finish(timeout: 60), ContinuousClock.now) }
        let watched = await watcher.finish(timeout: 60)
        let watchedAt = ContinuousClock.now
        let (served, servedAt) = await serving.value
        let comment = Comment(rawValue: "server: \(served.stderr)\nwatcher: \(watched.stderr)")
        #expect(watched.status == 0, comment)
        // Within moments of the server's end (which waits for its BYE to go), not the 20 s of silence.
        #expect(watchedAt - servedAt < .seconds(3), "ended \(watchedAt - servedAt) after the server; \(comment)")
        #expect(watched.stderr.contains("the server ended the session: ending the stream"), comment)
        let watching = "watching whep+http://127.0.0.1:8890/live/whep: the server sends video"
        #expect(watched.stderr.contains(watching), comment)
        let frames = Self.frameCount(output)
        #expect(frames >= 20, "\(frames) frames; \(comment)")
        let decoded = try await Media.frames(of: output)
        #expect(decoded.first?.format.width == 160, comment)
        let spreads = try decoded.suffix(10).map(Media.chromaSpread)
        #expect(!spreads.isEmpty && spreads.allSatisfy { $0 <= 12 }, "chroma spread \(spreads); \(comment)")
    }

    @Test("whep+http:// records aiortc's WHEP endpoint (150 gray frames) with a bearer token, then DELETEs", .aiortc)
    func watchAiortc() async throws {
        let namespace = try await NetworkNamespace()
        let (server, report) = try await Self.startAiortc(in: namespace)
        defer { try? FileManager.default.removeItem(at: report) }
        let output = Media.temporary("whep-aiortc", "mkv")
        defer { try? FileManager.default.removeItem(at: output) }
        // aiortc's track ends after its 150 frames; three silent seconds end the stream.
        let result = await namespace.run(
            CLI.binary.path, ["--timeout", "3", "whep+http://127.0.0.1:8891/whep?token=\(Self.token)", "!", output.path]
        ).finish(timeout: 60)
        let seen = Self.read(report)
        server.signal(SIGKILL)
        _ = await server.finish(timeout: 5)
        let comment = Comment(rawValue: "\(seen)\n\(result.stderr)")
        #expect(result.status == 0, comment)
        let watching = "watching whep+http://127.0.0.1:8891/whep?token=***: the server sends video"
        #expect(result.stderr.contains(watching), comment)
        expectHidden([Self.token], in: ShownText(result))
        #expect(seen["deleted"] as? Bool == true, comment)
        let frames = Self.frameCount(output)
        #expect(frames >= 100, "\(frames) frames; \(comment)")
        let decoded = try await Media.frames(of: output)
        #expect(decoded.first?.format.width == 160 && decoded.first?.format.height == 120, comment)
        let spreads = try decoded.suffix(10).map(Media.chromaSpread)
        #expect(!spreads.isEmpty && spreads.allSatisfy { $0 <= 12 }, "chroma spread \(spreads); \(comment)")
    }

    /// `scripts/whip-trickle-proxy.py` at 127.0.0.1:`port` in `namespace`, in front of gstpipe's server at
    /// `upstream`, with its slow STUN server at `stunPort`: what the client sent, as its report says.
    private static func startTrickleProxy(
        in namespace: NetworkNamespace, port: Int, upstream: Int, stunPort: Int, report: URL, refusing: Int? = nil
    ) async -> Spawned? {
        let script = server.deletingLastPathComponent().appendingPathComponent("whip-trickle-proxy.py")
        let process = namespace.run(
            "/usr/bin/python3",
            [script.path, "\(port)", "http://127.0.0.1:\(upstream)", "\(stunPort)", report.path]
                + (refusing.map { ["--patch-status", "\($0)"] } ?? []))
        guard await namespace.waitForListener(port) else {
            Issue.record("the trickle proxy did not listen: \(await process.finish(timeout: 5).stderr)")
            return nil
        }
        return process
    }

    @Test(
        "whep+ and whip+ PATCH the candidates gathered after their offer (trickle-ice-sdpfrag); 405 is taken quietly"
    )
    func trickleByPatch() async throws {
        let namespace = try await NetworkNamespace()
        // Watching: gstpipe's own webrtc:// output, through the proxy; a STUN server that answers after
        // 0.75 s gives the client a reflexive candidate (203.0.113.7) after its offer went (0.5 s).
        let server = namespace.run(
            CLI.binary.path,
            ["noise", "num-buffers=150", "width=160", "height=120", "!", "gray", "!", "webrtc://127.0.0.1:8890/live"])
        guard await namespace.waitForListener(8890) else {
            Issue.record("gstpipe did not listen: \(await server.finish(timeout: 5).stderr)")
            return
        }
        let report = Media.temporary("trickle", "json")
        let output = Media.temporary("trickle", "mkv")
        defer { [report, output].forEach { try? FileManager.default.removeItem(at: $0) } }
        guard
            let proxy = await Self.startTrickleProxy(
                in: namespace, port: 8895, upstream: 8890, stunPort: 3478, report: report)
        else { return }
        defer { proxy.signal(SIGKILL) }
        let watched = await namespace.run(
            CLI.binary.path,
            [
                "--stun", "stun://127.0.0.1:3478", "--timeout", "20", "whep+http://127.0.0.1:8895/live/whep", "!",
                output.path
            ]
        ).finish(timeout: 60)
        let served = await server.finish(timeout: 30)
        let requests = Self.read(report)["requests"] as? [[String: Any]] ?? []
        let comment = Comment(rawValue: "\(requests)\nserver: \(served.stderr)\nwatcher: \(watched.stderr)")
        #expect(watched.status == 0, comment)
        #expect(Self.frameCount(output) >= 20, comment)
        let post = requests.first { $0["method"] as? String == "POST" }
        let offer = post?["body"] as? String ?? ""
        #expect(post?["status"] as? Int == 201 && offer.contains("a=candidate:"), comment)
        #expect(!offer.contains("203.0.113.7"), "the reflexive candidate came before the offer went; \(comment)")
        let patches = requests.filter { $0["method"] as? String == "PATCH" }
        let bodies = patches.map { $0["body"] as? String ?? "" }
        #expect(!patches.isEmpty, comment)
        for patch in patches {
            #expect(patch["contentType"] as? String == "application/trickle-ice-sdpfrag", comment)
            #expect(patch["status"] as? Int == 204, comment)
            #expect((patch["path"] as? String)?.hasPrefix("/live/whep/") == true, comment)
        }
        // The offer's credentials, the section by its mid, the late candidate, and the end.
        let ufrag = offer.split(whereSeparator: \.isNewline).first { $0.hasPrefix("a=ice-ufrag:") }.map(String.init)
        #expect(ufrag != nil && bodies.allSatisfy { $0.hasPrefix("\(ufrag ?? "-")\r\na=ice-pwd:") }, comment)
        let candidates = bodies.joined().split(separator: "\r\n").filter { $0.hasPrefix("a=candidate:") }
        #expect(candidates.contains { $0.contains(" 203.0.113.7 ") && $0.contains(" typ srflx") }, comment)
        #expect(bodies.allSatisfy { $0.contains("\r\na=mid:") }, comment)
        #expect(bodies.last?.hasSuffix("a=end-of-candidates\r\n") == true, comment)
        #expect(!watched.stderr.contains("later ICE candidates"), comment)

        // Publishing to gstpipe's own WHIP endpoint through a proxy that answers PATCH 405: the
        // candidates stop there, without a word, and the stream goes through on the offer's.
        let recording = Media.temporary("trickle-whip", "mkv")
        let refusedReport = Media.temporary("trickle-405", "json")
        defer { [recording, refusedReport].forEach { try? FileManager.default.removeItem(at: $0) } }
        let input = namespace.run(
            CLI.binary.path, ["--timeout", "20", "webrtc://127.0.0.1:8891/in", "!", recording.path])
        guard await namespace.waitForListener(8891),
            let refusing = await Self.startTrickleProxy(
                in: namespace, port: 8896, upstream: 8891, stunPort: 3479, report: refusedReport, refusing: 405)
        else {
            Issue.record("no WHIP server: \(await input.finish(timeout: 5).stderr)")
            return
        }
        defer { refusing.signal(SIGKILL) }
        let published = await namespace.run(
            CLI.binary.path,
            [
                "--stun", "stun://127.0.0.1:3479", "noise", "num-buffers=90", "width=160", "height=120", "!", "gray",
                "!", "whip+http://127.0.0.1:8896/in/whip"
            ]
        ).finish(timeout: 60)
        let recorded = await input.finish(timeout: 30)
        let refused = (Self.read(refusedReport)["requests"] as? [[String: Any]] ?? [])
            .filter { $0["method"] as? String == "PATCH" }
        let whipComment = Comment(rawValue: "\(refused)\npublisher: \(published.stderr)\nserver: \(recorded.stderr)")
        #expect(published.status == 0, whipComment)
        #expect(refused.count == 1 && refused.first?["status"] as? Int == 405, whipComment)
        #expect(refused.first?["contentType"] as? String == "application/trickle-ice-sdpfrag", whipComment)
        #expect(!published.stderr.contains("later ICE candidates"), whipComment)
        #expect(Self.frameCount(recording) >= 60, whipComment)
    }

    /// The video frames ffprobe decodes in `url` (FFmpeg's reader, not GStreamer's).
    private static func frameCount(_ url: URL) -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FFProbe.path)
        process.arguments = [
            "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
            "-of", "csv=p=0", url.path
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return 0 }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
}

extension Trait where Self == ConditionTrait {
    /// aiortc is in the venv `scripts/setup-python.sh` makes.
    static var aiortc: Self {
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: WHIPClientTests.python),
            "aiortc's venv is missing (\(WHIPClientTests.python)): run scripts/setup-python.sh")
    }
}

/// What a `whip+http(s)://` or `whep+http(s)://` address says, read without a network.
@Suite("WHIP and WHEP client addresses")
struct WHIPClientAddressTests {
    @Test("The token leaves the URL sent and every message; gstpipe's own options stay out of the endpoint's URL")
    func addresses() throws {
        let client = try WHIPClient(
            uri: "whip+https://example.com/live/whip?token=abc&codec=h264&room=7", role: .whip, environment: [:])
        #expect(client.endpoint.absoluteString == "https://example.com/live/whip?room=7")
        #expect(client.token == "abc")
        #expect(client.shown == "whip+https://example.com/live/whip?token=***&codec=h264&room=7")
        let watcher = try WHIPClient(
            uri: "whep+http://127.0.0.1:8889/live/whep", role: .whep, environment: ["GSTPIPE_WHEP_TOKEN": "xyz"])
        #expect(watcher.token == "xyz" && watcher.endpoint.absoluteString == "http://127.0.0.1:8889/live/whep")
        #expect(watcher.shown == "whep+http://127.0.0.1:8889/live/whep")
    }

    @Test("The token goes only to the endpoint's origin: a Location elsewhere is DELETEd without it")
    func tokenStaysWithTheOrigin() throws {
        let client = try WHIPClient(
            uri: "whip+https://example.com/live/whip?token=abc", role: .whip, environment: [:])
        let resource = { (text: String) in client.authorization(for: URL(string: text, relativeTo: client.endpoint)!) }
        #expect(resource("/live/whip/session-1") == "Bearer abc")
        #expect(resource("https://EXAMPLE.com:443/s/1") == "Bearer abc")
        #expect(resource("https://attacker.example.net/s/1") == nil)
        #expect(resource("http://example.com/s/1") == nil)
        #expect(resource("https://example.com:8443/s/1") == nil)
        #expect(resource("//example.com.attacker.net/s/1") == nil)
    }

    @Test("A server's error text is shown with its control characters escaped")
    func serverTextEscaped() {
        #expect(
            WHIPClient.excerpt("bad\u{1B}[2J\u{1B}]0;owned\u{07} offer\u{202E}txt")
                == "bad\\u{1B}[2J\\u{1B}]0;owned\\u{7} offer\\u{202E}txt")
        #expect(WHIPClient.excerpt("plain reason\nsecond line") == "plain reason")
    }

    @Test("whip+http:// is an output scheme; a bad codec is refused with the token hidden")
    func scheme() throws {
        let output = try #require(try StreamOutputs.output(named: "whip+http://127.0.0.1:8889/live/whip?codec=h264"))
        #expect(output.format.name == "H264 over WebRTC")
        do {
            _ = try StreamOutputs.output(named: "whip+http://host/whip?codec=av1&token=secret")
        } catch {
            guard case .usage(let message) = error else {
                Issue.record("not a usage error: \(error)")
                return
            }
            #expect(
                message
                    == "whip+http://host/whip?codec=av1&token=***: codec=av1 is not sent over WebRTC: "
                    + "write codec=vp8 or h264")
        }
        do {
            _ = try StreamOutputs.output(named: "whip+http://host:99999/whip?token=secret")
        } catch {
            guard case .usage(let message) = error else {
                Issue.record("not a usage error: \(error)")
                return
            }
            #expect(message.contains("token=***") && !message.contains("secret"), "\(message)")
        }
        let answer =
            "v=0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=sendonly\r\nm=audio 0 UDP/TLS/RTP/SAVPF 111\r\na=inactive\r\n"
        #expect(WHEPSource.sentMedia(in: answer) == ["video"])
    }

    @Test("The WHIP connection limit: 20 s, unless the test harness's variable gives whole seconds")
    func connectionLimitSetting() {
        let variable = "GSTPIPE_TEST_WHIP_CONNECTION_LIMIT"
        #expect(WHIPOutput.connectionLimit(environment: [:]) == .seconds(20))
        #expect(WHIPOutput.connectionLimit(environment: [variable: "3"]) == .seconds(3))
        #expect(WHIPOutput.connectionLimit(environment: [variable: "0"]) == .seconds(20))
        #expect(WHIPOutput.connectionLimit(environment: [variable: "soon"]) == .seconds(20))
    }
}
