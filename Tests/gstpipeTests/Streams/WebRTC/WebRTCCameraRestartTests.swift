import Foundation
import Testing

/// `--reconnect` under a browser: the camera (gst-rtsp-server, as `ReconnectTests` runs it) killed with
/// SIGKILL and started again three times while gstpipe relays it through `gray` to `webrtc://`, which
/// headless Chromium watches the whole time. The browser's peer connection must never leave "connected",
/// and its decoder must count new frames of the camera's picture after every return, not only the slate's.
@Suite(
    "WebRTCCameraRestartTests", .serialized,
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"))
struct WebRTCCameraRestartTests {
    /// What the page last reported: the peer connection's states in order, the video's framesDecoded
    /// (getStats) and the mean luma of the picture shown.
    struct Seen {
        var states: [String] = []
        var framesDecoded = 0
        var luma = 0
    }

    /// One viewer, which reports to /result/seen four times a second for as long as it runs.
    static let page = #"""
        <!doctype html>
        <html><head><meta charset="utf-8"><title>viewer across restarts</title></head>
        <body>
        <script>
        'use strict';
        const endpoint = new URLSearchParams(location.search).get('endpoint');
        const states = [];
        async function main() {
          const pc = new RTCPeerConnection();
          pc.addEventListener('connectionstatechange', () => states.push(pc.connectionState));
          pc.addTransceiver('video', { direction: 'recvonly' });
          const video = document.createElement('video');
          video.muted = true;
          video.autoplay = true;
          document.body.appendChild(video);
          pc.ontrack = (event) => { video.srcObject = new MediaStream([event.track]); };
          const gathered = new Promise((resolve) => {
            pc.onicecandidate = (event) => { if (!event.candidate) resolve(); };
            setTimeout(resolve, 2000);
          });
          await pc.setLocalDescription(await pc.createOffer());
          await gathered;
          const response = await fetch(endpoint, {
            method: 'POST', headers: { 'Content-Type': 'application/sdp' }, body: pc.localDescription.sdp,
          });
          await pc.setRemoteDescription({ type: 'answer', sdp: await response.text() });
          const canvas = document.createElement('canvas');
          const context = canvas.getContext('2d', { willReadFrequently: true });
          for (;;) {
            await new Promise((resolve) => setTimeout(resolve, 250));
            let framesDecoded = 0;
            (await pc.getStats()).forEach((entry) => {
              if (entry.type === 'inbound-rtp' && entry.kind === 'video') framesDecoded = entry.framesDecoded;
            });
            let luma = 0;
            if (video.videoWidth > 0) {
              canvas.width = video.videoWidth;
              canvas.height = video.videoHeight;
              context.drawImage(video, 0, 0);
              const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
              let sum = 0;
              for (let i = 1; i < data.length; i += 4) sum += data[i];
              luma = Math.round(sum / (data.length / 4));
            }
            await fetch('/result/seen', { method: 'POST', body: JSON.stringify({ states, framesDecoded, luma }) });
          }
        }
        main().catch((error) => fetch('/result/seen', { method: 'POST', body: JSON.stringify({ error: String(error) }) }));
        </script>
        </body></html>
        """#

    @Test("A camera killed and started again three times: the browser stays connected and decodes the camera again")
    func browserAcrossRestarts() async throws {
        let namespace = try await NetworkNamespace()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-webrtc-restart-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("gstpipe.log")

        var camera = namespace.run("/usr/bin/python3", ["-c", ReconnectTests.camera, "8554", "320", "240", "30"])
        #expect(await namespace.waitForTCP(8554))
        let relay = namespace.run(
            "/bin/sh",
            [
                "-c", "exec \"$0\" \"$@\" 2>\(log.path)", CLI.binary.path, "rtsp://127.0.0.1:8554/cam", "!", "gray",
                "!", "webrtc://127.0.0.1:8890/live", "--reconnect", "--reconnect-max", "20", "--timeout", "2"
            ])
        guard await namespace.waitForListener(8890) else {
            relay.signal(SIGKILL)
            _ = await relay.finish(timeout: 5)
            camera.signal(SIGKILL)
            _ = await camera.finish(timeout: 5)
            Issue.record("gstpipe did not listen: \(ReconnectTests.read(log))")
            return
        }
        let session = try await BrowserSession(
            in: namespace, query: "endpoint=http://127.0.0.1:8890/live/whep", page: Self.page)

        // The page's latest report, read every fifth of a second until `done` holds or the time is up.
        var history: [Seen] = []
        func waitUntil(timeout: TimeInterval, _ done: (Seen) -> Bool) async -> Seen {
            let deadline = Date().addingTimeInterval(timeout)
            var latest = Seen()
            while Date() < deadline {
                if let report = await session.result(named: "seen", timeout: 1) {
                    if let error = report["error"] { Issue.record("the page failed: \(error)") }
                    latest = Seen(
                        states: report["states"] as? [String] ?? [],
                        framesDecoded: report["framesDecoded"] as? Int ?? 0,
                        luma: report["luma"] as? Int ?? 0)
                    history.append(latest)
                    if done(latest) { break }
                }
                try? await Task.sleep(for: .milliseconds(200))
            }
            return latest
        }
        // The camera's bars through gray average a luma near 120, the slate near 60.
        let camerasPicture = { (seen: Seen) in seen.luma > 90 }
        let first = await waitUntil(timeout: 60) { $0.framesDecoded >= 30 && camerasPicture($0) }
        #expect(first.framesDecoded >= 30 && camerasPicture(first), "\(first)\n\(ReconnectTests.read(log))")

        // Frames decoded when each return was said, and 30 later with the camera's picture.
        var rounds: [(back: Int, after: Seen)] = []
        for round in 1...3 {
            camera.signal(SIGKILL)
            _ = await camera.finish(timeout: 5)
            try await Task.sleep(for: .seconds(1))
            camera = namespace.run("/usr/bin/python3", ["-c", ReconnectTests.camera, "8554", "320", "240", "30"])
            let back = await ReconnectTests.waitFor("input back after", count: round, in: log, timeout: 30)
            #expect(back, "round \(round): \(ReconnectTests.read(log))")
            let atBack = await waitUntil(timeout: 2) { _ in true }.framesDecoded
            let after = await waitUntil(timeout: 20) { $0.framesDecoded >= atBack + 30 && camerasPicture($0) }
            rounds.append((atBack, after))
        }
        await session.close()
        relay.signal(SIGINT)
        let relayed = await relay.finish(timeout: 30)
        camera.signal(SIGKILL)
        _ = await camera.finish(timeout: 5)
        let stderr = ReconnectTests.read(log)
        let lumas = history.map(\.luma)
        print(
            "webrtc across restarts: framesDecoded at each return and after "
                + "\(rounds.map { "\($0.back) -> \($0.after.framesDecoded)" }), states \(history.last?.states ?? []), "
                + "luma runs \(ReconnectTests.runs(of: lumas))\n\(stderr)")

        for (round, seen) in rounds.enumerated() {
            #expect(
                seen.after.framesDecoded >= seen.back + 30 && camerasPicture(seen.after),
                "round \(round + 1): \(seen.back) -> \(seen.after)")
        }
        // Decoded frames only ever went up: one connection throughout, its decoder never reset.
        let counts = history.map(\.framesDecoded)
        #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 <= $1 }, "\(counts)")
        // Connected once, and never anything after it (disconnected, failed or closed).
        let states = history.last?.states ?? []
        #expect(states.last == "connected" && states.filter { $0 != "connecting" } == ["connected"], "\(states)")
        // The slate showed while the camera was away, and the camera's picture after it.
        #expect(lumas.contains { $0 > 0 && $0 < 70 }, "no slate reached the browser: \(ReconnectTests.runs(of: lumas))")
        #expect(relayed.status == 130, "\(stderr)")
        #expect(stderr.components(separatedBy: "gstpipe: input lost: ").count - 1 == 3, "\(stderr)")
        #expect(stderr.components(separatedBy: "gstpipe: input back after ").count - 1 == 3, "\(stderr)")
        #expect(stderr.contains("viewer 1 joined (1 watching)"), "\(stderr)")
        #expect(stderr.components(separatedBy: "viewer 1 joined").count - 1 == 1, "\(stderr)")
    }
}
