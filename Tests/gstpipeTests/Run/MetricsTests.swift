import Foundation
import Testing

/// `--metrics` and `--events` of a live run to an `rtsp://` output with an ffmpeg viewer, in a network
/// namespace: `/metrics` read by `prometheus_client`'s parser twice, `/healthz`, the events file, and
/// an address in use.
@Suite(
    "--metrics and --events: Prometheus' parser, an ffmpeg viewer, the events file", .serialized,
    .enabled(if: FFProbe.isInstalled, "ffmpeg and ffprobe are not installed"),
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"),
    .enabled(if: Scrape.parserIsInstalled, "python3-prometheus-client is not installed (scripts/setup.sh)"))
struct MetricsTests {
    @Test("Counters rise, the viewer gauge follows ffmpeg, the events say what happened, a port in use is refused")
    func liveRun() async throws {
        let session = try await RTSPAuthSession()
        let events = session.folder.appendingPathComponent("events.jsonl").path
        let metricsURL = "http://127.0.0.1:9464/metrics"
        let server = try await session.serve(
            "rtsp://127.0.0.1:8554/gray", ["--metrics", "127.0.0.1:9464", "--events", events])

        // Healthy once the first frames have passed the input.
        var health = ""
        let healthy = await Scrape.until(timeout: 20) {
            health = await session.namespace.curl(["http://127.0.0.1:9464/healthz"])
            return health.hasPrefix("HTTP/1.1 200")
        }
        #expect(healthy, "\(health)")
        #expect(health.contains("{\"healthy\":true,\"input\":\"delivering\""), "\(health)")
        #expect(health.lowercased().contains("content-type: application/json"), "\(health)")

        let first = try await Scrape.samples(metricsURL, in: session.namespace)
        #expect(first["gstpipe_output_viewers{output=rtsp0}"] == 0, "\(first)")

        // A viewer: the gauge is 1 while it reads, 0 once it has gone. It reads until the gauge has been seen
        // at 1: a viewer of a fixed number of frames can come and go between two scrapes on a loaded machine.
        let reading = session.namespace.run(
            "/usr/bin/ffmpeg",
            [
                "-hide_banner", "-nostdin", "-nostats", "-progress", "pipe:1", "-rtsp_transport", "tcp", "-i",
                "rtsp://127.0.0.1:8554/gray", "-f", "null", "-"
            ])
        var watching: [String: Double] = [:]
        let one = await Scrape.until(timeout: 30) {
            watching = (try? await Scrape.samples(metricsURL, in: session.namespace)) ?? [:]
            return watching["gstpipe_output_viewers{output=rtsp0}"] == 1
        }
        #expect(one, "\(watching)")
        try? await Task.sleep(for: .seconds(2))
        reading.signal(SIGINT)
        let viewer = FFmpegRead(await reading.finish(timeout: 15))
        #expect(viewer.frames >= 10 && viewer.width == 320, "\(viewer)")
        var after: [String: Double] = [:]
        let none = await Scrape.until(timeout: 20) {
            after = (try? await Scrape.samples(metricsURL, in: session.namespace)) ?? [:]
            return after["gstpipe_output_viewers{output=rtsp0}"] == 0
        }
        #expect(none, "\(after)")
        #expect(after["gstpipe_output_viewers_joined_total{output=rtsp0}"] == 1, "\(after)")

        // Counters rose between the two scrapes, and the frame counts agree with each other.
        let second = try await Scrape.samples(metricsURL, in: session.namespace)
        let rising = [
            "gstpipe_input_frames_total{}", "gstpipe_element_frames_in_total{element=gray0}",
            "gstpipe_element_frames_out_total{element=gray0}", "gstpipe_output_frames_in_total{output=rtsp0}",
            "gstpipe_output_frames_out_total{output=rtsp0}", "gstpipe_output_bytes_total{output=rtsp0}",
            "gstpipe_output_latency_seconds_count{output=rtsp0}"
        ]
        for name in rising {
            let (before, after) = (first[name] ?? .infinity, second[name] ?? 0)
            #expect(after > before, "\(name): \(before) → \(after)")
        }
        #expect((second["process_cpu_seconds_total{}"] ?? 0) >= (first["process_cpu_seconds_total{}"] ?? .infinity))
        #expect((second["process_resident_memory_bytes{}"] ?? 0) > 10_000_000, "\(second)")
        let grayIn = second["gstpipe_element_frames_in_total{element=gray0}"] ?? 0
        let grayOut = second["gstpipe_element_frames_out_total{element=gray0}"] ?? 0
        let outputIn = second["gstpipe_output_frames_in_total{output=rtsp0}"] ?? 0
        let outputOut = second["gstpipe_output_frames_out_total{output=rtsp0}"] ?? 0
        let input = second["gstpipe_input_frames_total{}"] ?? 0
        // One scrape reads them one after another while frames flow at 30 a second: a frame or two apart.
        #expect(abs(grayIn - input) <= 2 && abs(outputIn - grayOut) <= 2 && abs(grayIn - grayOut) <= 2, "\(second)")
        #expect(outputOut <= outputIn && outputOut >= outputIn - 5, "the encoder holds no frames: \(second)")
        let latencyCount = second["gstpipe_output_latency_seconds_count{output=rtsp0}"] ?? 0
        let latency = (second["gstpipe_output_latency_seconds_sum{output=rtsp0}"] ?? 0) / max(latencyCount, 1)
        #expect(latency > 0 && latency < 0.5, "mean latency from capture to the RTSP server: \(latency) s")
        #expect(second["gstpipe_input_up{}"] == 1 && second["gstpipe_input_losses_total{}"] == 0, "\(second)")
        #expect(second["gstpipe_recordings_written_total{}"] == 0 && second["gstpipe_recording_bytes{}"] == 0)
        print(
            "metrics: \(Int(input)) input frames, gray \(Int(grayIn)) in/\(Int(grayOut)) out, rtsp0 \(Int(outputIn)) "
                + "in/\(Int(outputOut)) out, \(Int(second["gstpipe_output_bytes_total{output=rtsp0}"] ?? 0)) bytes, "
                + "mean latency \(String(format: "%.1f", latency * 1000)) ms over \(Int(latencyCount)) frames, RSS "
                + "\(Int((second["process_resident_memory_bytes{}"] ?? 0) / 1_048_576)) MiB, CPU "
                + "\(second["process_cpu_seconds_total{}"] ?? 0) s")

        // A second run on the same metrics address: a usage error, before anything starts; its events file,
        // already open, says why and that it stopped with 2.
        let clashEvents = session.folder.appendingPathComponent("clash.jsonl").path
        let clash = await session.gstpipe(
            ["videotestsrc", "num-buffers=10", "!", "fakesink", "--metrics", "127.0.0.1:9464", "--events", clashEvents]
        ).finish(timeout: 30)
        #expect(clash.status == 2, "\(clash)")
        #expect(clash.stderr.contains("cannot serve --metrics 127.0.0.1:9464: port 9464 is in use"), "\(clash.stderr)")
        let clashLines = (try? String(contentsOfFile: clashEvents, encoding: .utf8)) ?? ""
        let clashObjects = clashLines.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        #expect(clashObjects.compactMap { $0["event"] as? String } == ["error", "stopped"], "\(clashLines)")
        #expect((clashObjects.first?["message"] as? String)?.contains("port 9464 is in use") == true, "\(clashLines)")
        #expect(clashObjects.last?["exit_status"] as? Int == 2, "\(clashLines)")

        // A viewer still watching when the run stops leaves in the events too.
        let staying = session.namespace.run(
            "/usr/bin/ffmpeg",
            [
                "-hide_banner", "-nostdin", "-rtsp_transport", "tcp", "-i", "rtsp://127.0.0.1:8554/gray", "-f", "null",
                "-"
            ])
        let watchingAgain = await Scrape.until(timeout: 30) {
            (try? await Scrape.samples(metricsURL, in: session.namespace))?["gstpipe_output_viewers{output=rtsp0}"] == 1
        }
        #expect(watchingAgain, "the second viewer never counted")

        server.signal(SIGINT)
        let ended = await server.finish(timeout: 30)
        #expect(ended.status == 130, "\(ended.stderr)")
        _ = await staying.finish(timeout: 15)

        // The events, one JSON object a line, in order.
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        let objects = lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        #expect(objects.count == lines.count, "every line is a JSON object: \(lines)")
        let names = objects.compactMap { $0["event"] as? String }
        #expect(
            names == ["started", "viewer_joined", "viewer_left", "viewer_joined", "viewer_left", "stopped"], "\(lines)")
        let iso = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        #expect(objects.allSatisfy { ($0["time"] as? String).flatMap { try? iso.parse($0) } != nil }, "\(lines)")
        if objects.count == 6 {
            #expect(objects[1]["output"] as? String == "rtsp0" && objects[1]["viewers"] as? Int == 1, "\(lines)")
            #expect(objects[2]["output"] as? String == "rtsp0" && objects[2]["viewers"] as? Int == 0, "\(lines)")
            #expect(objects[4]["output"] as? String == "rtsp0" && objects[4]["viewers"] as? Int == 0, "\(lines)")
            #expect(objects[5]["exit_status"] as? Int == 130, "\(lines)")
        }
    }

    @Test("A --metrics address that is not HOST:PORT is a usage error that says what to write")
    func invalidAddress() throws {
        for address in ["9464", "127.0.0.1:", "127.0.0.1:70000", "http://127.0.0.1:9464", "::1:9464"] {
            let result = try CLI.run(["--metrics", address, "videotestsrc", "num-buffers=1", "!", "fakesink"])
            #expect(result.status == 2, "\(address): \(result)")
            #expect(
                result.stderr.contains("--metrics takes HOST:PORT, such as 127.0.0.1:9100"),
                "\(address): \(result.stderr)")
        }
    }
}

/// Reading `/metrics` with `prometheus_client`'s parser, inside the test's namespace.
enum Scrape {
    static let parserIsInstalled: Bool = succeeds("/usr/bin/python3", ["-c", "import prometheus_client.parser"])

    /// Each sample of the page at `url` by name and labels (`name{label=value,...}`, labels sorted).
    static func samples(_ url: String, in namespace: NetworkNamespace) async throws -> [String: Double] {
        let result = await namespace.run("/usr/bin/python3", ["-c", script, url]).finish(timeout: 30)
        guard result.status == 0, let data = result.stdout.data(using: .utf8),
            let samples = try JSONSerialization.jsonObject(with: data) as? [String: Double]
        else { throw NetworkNamespace.NamespaceError(message: "scrape failed: \(result.stderr)") }
        return samples
    }

    /// Calls `condition` every 200 ms until it holds, for `timeout` seconds at most.
    static func until(timeout: TimeInterval, _ condition: () async -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return false
    }

    /// Prints the samples as one JSON object; fails on any line the parser refuses.
    static let script = #"""
        import json, sys, urllib.request
        from prometheus_client.parser import text_string_to_metric_families
        with urllib.request.urlopen(sys.argv[1], timeout=10) as response:
            assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4"), response.headers
            text = response.read().decode()
        samples = {}
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
                samples[f"{sample.name}{{{labels}}}"] = sample.value
        print(json.dumps(samples))
        """#
}
