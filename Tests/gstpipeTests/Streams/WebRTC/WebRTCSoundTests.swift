import Foundation
import Testing

/// Sound on `webrtc://`, with headless Chromium as the listener (`audio=` on the test page: it offers
/// to receive audio, plays it unmuted, and reports its inbound audio statistics): a file input's audio
/// track beside its video in gray (audio offered after video, as gstpipe's page does), and a
/// description of sound alone (audio offered first, before a video section it gets no answer for). In `WebRTCTests`
/// (an extension), so that they run in its serialized run, one browser at a time.
extension WebRTCTests {
    /// A 30-second MP4 made for the test: a moving ball in H.264 at 320x240 and 30 frames a second,
    /// and a 440 Hz sine in AAC (44.1 kHz stereo, so that the Opus encode resamples it).
    static func fileWithSound() async throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-webrtc-\(UUID()).mp4")
        let made = await
            (try Spawned(
                "/usr/bin/gst-launch-1.0",
                [
                    "-q", "videotestsrc", "pattern=ball", "num-buffers=900", "!",
                    "video/x-raw,width=320,height=240,framerate=30/1", "!", "x264enc", "speed-preset=ultrafast", "!",
                    "mp4mux", "name=mux", "!", "filesink", "location=\(file.path)", "audiotestsrc", "wave=sine",
                    "freq=440", "samplesperbuffer=4410", "num-buffers=300", "!", "audio/x-raw,rate=44100,channels=2",
                    "!", "avenc_aac", "!", "mux."
                ])).finish(timeout: 120)
        guard made.status == 0 else {
            throw NetworkNamespace.NamespaceError(message: "gst-launch-1.0 made no file: \(made.stderr)")
        }
        return file
    }

    /// In a namespace of its own: gstpipe runs `arguments` (ending in webrtc://127.0.0.1:8890/…),
    /// the test page watches (and listens) with `query` from another origin, then gstpipe is sent
    /// `stop` and waited for.
    static func watch(_ arguments: [String], query: String, stop: Int32 = SIGINT) async throws -> Run {
        let namespace = try await NetworkNamespace()
        let server = namespace.run(CLI.binary.path, arguments)
        guard await namespace.waitForListener(8890) else {
            let result = await server.finish(timeout: 5)
            Issue.record("gstpipe did not listen: \(result.stderr)")
            throw NetworkNamespace.NamespaceError(message: "no server")
        }
        let session = try await BrowserSession(in: namespace, query: "endpoint=\(endpoint)&\(query)")
        let report = await session.result(named: "report", timeout: 90)
        await session.close()
        if report == nil { Issue.record("the page reported nothing") }
        if let error = report?["error"] { Issue.record("the page failed: \(error)") }
        server.signal(stop)
        return Run(report: report, result: await server.finish(timeout: 20))
    }

    /// The answer's media sections, each as its lines, by kind ("audio", "video").
    static func sections(of answer: String) -> [String: [String]] {
        var sections: [String: [String]] = [:]
        var kind: String?
        for line in answer.split(whereSeparator: \.isNewline).map(String.init) {
            if line.hasPrefix("m=") {
                kind = String(line.dropFirst(2).prefix { $0 != " " })
            }
            if let kind { sections[kind, default: []].append(line) }
        }
        return sections
    }

    /// Opus arriving and played while the page watched: its packets and the samples played out
    /// growing by what `seconds` of 48 kHz sound gives (a half, on a loaded machine), the codec
    /// Opus, and the sine heard (an audio level above silence).
    static func expectOpusPlaying(_ seen: [String: Any], seconds: Double, _ comment: Comment) {
        let before = seen["audioBefore"] as? [String: Any] ?? [:]
        let after = seen["audio"] as? [String: Any] ?? [:]
        func growth(_ key: String) -> Double {
            (after[key] as? Double ?? 0) - (before[key] as? Double ?? 0)
        }
        #expect(after["codec"] as? String == "audio/opus", comment)
        // Opus packets are 20 ms: 50 a second.
        #expect(growth("packetsReceived") >= seconds * 25, comment)
        #expect(growth("totalSamplesReceived") >= seconds * 24_000, comment)
        #expect((after["audioLevel"] as? Double ?? 0) > 0.05, comment)
    }

    @Test(
        "A file's sound goes beside its video in gray: the browser plays Opus and gets gray frames",
        .browser)
    func fileWithSoundInABrowser() async throws {
        let file = try await Self.fileWithSound()
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await Self.watch(
            [file.path, "!", "gray", "!", "webrtc://127.0.0.1:8890/live"], query: "viewers=1&watch=4&audio=last")
        let (result, comment) = (run.result, run.comment)
        let seen = run.seen(0)
        Self.expectOpusPlaying(seen, seconds: 4, comment)
        #expect(seen["tracks"] as? [String] == ["video", "audio"], comment)
        // The ball, in gray: frames keep coming, at the file's size, R = G = B. 30 a second are sent;
        // with Chromium playing sound beside gstpipe's decoding and encoding, two cores loaded by
        // other work presented 5 to 45 in the 4 s, so one a second is asked for.
        #expect((seen["frames"] as? Int ?? 0) >= 4 && (seen["samples"] as? Int ?? 0) >= 8, comment)
        #expect(seen["width"] as? Int == 320 && seen["height"] as? Int == 240, comment)
        #expect((seen["maxSpread"] as? Int ?? 255) <= 12, comment)
        #expect(seen["codec"] as? String == "video/VP8", comment)
        let answer = Self.sections(of: run.firstViewer["answer"] as? String ?? "")
        #expect(answer["audio"]?.contains("a=sendonly") == true, comment)
        #expect(answer["video"]?.contains("a=sendonly") == true, comment)
        // Each stream's SSRC is in the answer, both in one media stream (msid): played in sync.
        let streams = ["audio", "video"].map { kind in
            (answer[kind] ?? []).first { $0.hasPrefix("a=ssrc:") && $0.contains(" msid:") }?
                .split(separator: " ").dropFirst().first.map(String.init)
        }
        #expect(streams[0] != nil && streams[0] == streams[1], comment)
        #expect(
            result.stderr.contains(
                "WHEP endpoint http://127.0.0.1:8890/live/whep, VP8 or H264 (and Opus if the input has sound)"),
            comment)
        #expect(result.status == 130, comment)
    }

    @Test(
        "A description of sound alone: the browser gets Opus and no video",
        .browser)
    func soundAloneInABrowser() async throws {
        let run = try await Self.watch(
            ["audiotestsrc", "is-live=true", "wave=sine", "!", "webrtc://127.0.0.1:8890/live"],
            query: "viewers=1&watch=4&audio=1")
        let (result, comment) = (run.result, run.comment)
        let seen = run.seen(0)
        Self.expectOpusPlaying(seen, seconds: 4, comment)
        #expect(seen["frames"] as? Int == 0 && seen["samples"] as? Int == 0, comment)
        let answer = Self.sections(of: run.firstViewer["answer"] as? String ?? "")
        let audio = answer["audio"] ?? []
        #expect(audio.first?.hasPrefix("m=audio 9 ") == true && audio.contains("a=sendonly"), comment)
        #expect(audio.contains { $0.lowercased().hasPrefix("a=rtpmap:111 opus/48000") }, comment)
        // No video is sent: the answer's video section sends nothing.
        #expect(answer["video"]?.contains("a=sendonly") != true, comment)
        #expect(result.stderr.contains("WHEP endpoint http://127.0.0.1:8890/live/whep, Opus,"), comment)
        #expect(result.status == 130, comment)
    }
}
