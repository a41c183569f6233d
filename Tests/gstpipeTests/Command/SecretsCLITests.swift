import Foundation
import Testing

@testable import gstpipe

/// gstpipe run with a secret in every way the command line takes one today, inside a private network
/// namespace (closed ports on 127.0.0.1): no secret in standard output, standard error, the `--graph`
/// picture or GStreamer's debug log, and `***` where it stood.
@Suite(
    "Secrets never shown by gstpipe", .serialized,
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"))
struct SecretsCLITests {
    /// Runs gstpipe in `namespace` with `-v --graph FILE` added, and gives what it showed, the graph
    /// (`files[0]`) included; the graph file is deleted.
    private static func runDrawing(
        _ arguments: [String], in namespace: NetworkNamespace, environment: [String: String] = [:],
        interruptAfter: TimeInterval? = nil
    ) async -> ShownText {
        let graph = FileManager.default.temporaryDirectory.appendingPathComponent("secrets-\(getpid()).dot").path
        defer { try? FileManager.default.removeItem(atPath: graph) }
        let result = await namespace.gstpipe(
            ["-v", "--graph", graph] + arguments, environment: environment, interruptAfter: interruptAfter)
        return ShownText(result, files: [graph])
    }

    @Test("An rtsp:// input with user:pass (nothing listening), with -m, -v and --graph: exit 1, alice:*** everywhere")
    func rtspInput() async throws {
        let shown = await Self.runDrawing(
            ["-m", "--timeout", "10", "rtsp://alice:inputpw4711@127.0.0.1:9/cam", "!", "fakesink"],
            in: try await NetworkNamespace())
        #expect(shown.result.status == 1, "\(shown)")
        #expect(shown.result.stderr.contains("rtsp://alice:***@127.0.0.1:9/cam"), "\(shown)")
        // The credentials leave the URI for rtspsrc's user-id and user-pw: the graph shows the one, not the other.
        #expect(shown.files[0].text.contains(#"location=\"rtsp://127.0.0.1:9/cam\""#), "\(shown)")
        #expect(shown.files[0].text.contains(#"user-pw=\"***\""#), "\(shown)")
        expectHidden(["inputpw4711"], in: shown)
    }

    @Test("rtspsrc written as an element with user-pw: the graph shows user-pw=\"***\"")
    func rtspElement() async throws {
        let shown = await Self.runDrawing(
            [
                "rtspsrc", "location=rtsp://alice:elementpw08@127.0.0.1:9/cam", "user-id=alice", "user-pw=userpw0815",
                "!", "fakesink"
            ], in: try await NetworkNamespace())
        #expect(shown.result.status == 1, "\(shown)")
        #expect(shown.files[0].text.contains(#"user-pw=\"***\""#), "\(shown)")
        expectHidden(["elementpw08", "userpw0815"], in: shown)
    }

    @Test("GStreamer's own debug log (rtspsrc logs its location at level 5), to stderr and to GST_DEBUG_FILE")
    func debugLog() async throws {
        let namespace = try await NetworkNamespace()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("secrets-\(getpid()).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        // rtspsrc written as an element: its location keeps the password (as the rtsp:// input's does not).
        let arguments = ["rtspsrc", "location=rtsp://alice:debugpw2024@127.0.0.1:9/cam", "!", "fakesink"]
        let toStandardError = await namespace.gstpipe(arguments, environment: ["GST_DEBUG": "rtspsrc:5"])
        let shown = ShownText(toStandardError)
        #expect(toStandardError.stderr.contains("set uri: rtsp://alice:***@127.0.0.1:9/cam"), "\(shown)")
        expectHidden(["debugpw2024"], in: shown)
        let toFile = await namespace.gstpipe(
            arguments, environment: ["GST_DEBUG": "rtspsrc:5", "GST_DEBUG_FILE": log])
        let logged = ShownText(toFile, files: [log])
        #expect(logged.files[0].text.contains("set uri: rtsp://alice:***@127.0.0.1:9/cam"), "\(logged)")
        expectHidden(["debugpw2024"], in: logged)
    }

    @Test("GST_DEBUG_FILE with %p and %r names one file, expanded as GStreamer does, with the lines redacted")
    func debugLogFilePattern() async throws {
        let namespace = try await NetworkNamespace()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("debugfile-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["rtspsrc", "location=rtsp://alice:patternpw77@127.0.0.1:9/cam", "!", "fakesink"]
        let result = await namespace.gstpipe(
            arguments, environment: ["GST_DEBUG": "rtspsrc:5", "GST_DEBUG_FILE": directory.path + "/log-%p-%r.txt"])
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.count == 1, "\(names)")
        let name = try #require(names.first)
        #expect(name.wholeMatch(of: /log-[0-9]+-[0-9]+\.txt/) != nil, "\(names)")
        let logged = ShownText(result, files: [directory.appendingPathComponent(name).path])
        #expect(logged.files[0].text.contains("set uri: rtsp://alice:***@127.0.0.1:9/cam"), "\(logged)")
        expectHidden(["patternpw77"], in: logged)
    }

    @Test("An rtsp://alice:PASS@ output: whatever gstpipe does with it, the password never shows")
    func rtspOutput() async throws {
        let namespace = try await NetworkNamespace()
        let port = StreamPorts.take()
        let result = await namespace.gstpipe(
            ["-v"] + liveGray(frames: 60) + ["!", "rtsp://alice:outputpw99@127.0.0.1:\(port)/live"],
            interruptAfter: 10)
        let shown = ShownText(result)
        // Refused (exit 2) by older versions, served now: either way the URI is written masked.
        #expect(result.stderr.contains("alice:***@"), "\(shown)")
        expectHidden(["outputpw99"], in: shown)
    }

    @Test("whip+http://…?token= and GSTPIPE_WHIP_TOKEN to a closed port, with --graph: exit 1, token=***")
    func whipToken() async throws {
        let namespace = try await NetworkNamespace()
        let shown = await Self.runDrawing(
            ["noise", "!", "gray", "!", "whip+http://127.0.0.1:9/whip?token=whiptoken77"], in: namespace)
        #expect(shown.result.status == 1, "\(shown)")
        #expect(shown.result.stderr.contains("cannot reach whip+http://127.0.0.1:9/whip?token=***: connection refused"))
        expectHidden(["whiptoken77"], in: shown)
        let fromEnvironment = await namespace.gstpipe(
            ["-v", "noise", "!", "gray", "!", "whip+http://127.0.0.1:9/whip"],
            environment: ["GSTPIPE_WHIP_TOKEN": "envwhiptoken5"])
        let environmentShown = ShownText(fromEnvironment)
        #expect(fromEnvironment.status == 1, "\(environmentShown)")
        #expect(fromEnvironment.stderr.contains("cannot reach whip+http://127.0.0.1:9/whip: connection refused"))
        // The token was sent, never written: nothing to mask.
        expectHidden(["envwhiptoken5"], in: environmentShown, masked: false)
    }

    @Test("--turn with a password, and an SRT passphrase, with -v and --graph")
    func turnAndPassphrase() async throws {
        let namespace = try await NetworkNamespace()
        let port = StreamPorts.take()
        let turn = await Self.runDrawing(
            ["--turn", "turn://alice:turnpw3141@127.0.0.1:3478"] + liveGray(frames: 30)
                + ["!", "webrtc://127.0.0.1:\(port)/live"],
            in: namespace, interruptAfter: 20)
        #expect(turn.result.stderr.contains("ICE: turn://alice:***@127.0.0.1:3478"), "\(turn)")
        expectHidden(["turnpw3141"], in: turn)
        let srt = await Self.runDrawing(
            ["videotestsrc", "num-buffers=30", "!", "srt://127.0.0.1:9?passphrase=srtphrase2718"], in: namespace)
        #expect(srt.result.status == 1, "\(srt)")
        #expect(srt.files[0].text.contains("passphrase=***"), "\(srt)")
        expectHidden(["srtphrase2718"], in: srt)
    }

    @Test("A usage error that quotes the argument (ArgumentParser's own words) and -f FILE's description")
    func usageAndFile() async throws {
        let usage = try CLI.run(["--timeout", "rtsp://alice:usagepw1618@127.0.0.1:9/cam", "fakesink"])
        let usageShown = ShownText(usage)
        #expect(usage.status == 2, "\(usageShown)")
        expectHidden(["usagepw1618"], in: usageShown)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("secrets-\(getpid()).pipeline")
        defer { try? FileManager.default.removeItem(at: file) }
        try "# a camera\nrtspsrc location=rtsp://alice:filepw1414@127.0.0.1:9/cam ! fakesink\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let namespace = try await NetworkNamespace()
        let fromFile = await namespace.gstpipe(["-m", "-v", "-f", file.path])
        let fileShown = ShownText(fromFile)
        #expect(fromFile.status == 1, "\(fileShown)")
        // -m prints rtspsrc's progress message, a typed one: its code and its text.
        #expect(
            fromFile.stdout.contains("progress from rtspsrc0: connect: Connecting to rtsp://alice:***@127.0.0.1:9/cam"),
            "\(fileShown)")
        expectHidden(["filepw1414"], in: fileShown)
    }
}
