import Foundation
import GStreamer
import GstPipeElements
import GstPipeMetrics
import GstPipeSupport
import Testing

/// `GstPipeMetrics.Metrics` as a library user has it: a pipeline watched in-process, its exposition
/// read by `prometheus_client`'s parser, events as JSON lines, health.
@Suite(
    "GstPipeMetrics: a watched pipeline's figures, read by Prometheus' parser",
    .enabled(if: Scrape.parserIsInstalled, "python3-prometheus-client is not installed (scripts/setup.sh)"))
struct MetricsLibraryTests {
    @Test("Viewers leaving on other threads as the run stops: each viewer_joined has its viewer_left before stopped")
    func viewersLeavingAtStop() async throws {
        for _ in 0..<20 {
            let metrics = Metrics()
            let lines = Locked<[String]>([])
            metrics.onEvent { event in
                // An events file written slowly: a left told late must still come before stopped.
                if event.kind.name == "viewer_left" { usleep(2000) }
                lines.withLock { $0.append(event.kind.name) }
            }
            for _ in 0..<4 { metrics.viewerJoined(output: "rtsp0") }
            // The server's threads closing their clients as the run stops.
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 { group.addTask { metrics.viewerLeft(output: "rtsp0") } }
                group.addTask { metrics.stopped(exitStatus: 130) }
            }
            let names = lines.withLock { $0 }
            #expect(names.filter { $0 == "viewer_left" }.count == 4, "\(names)")
            #expect(names.last == "stopped", "\(names)")
        }
    }

    @Test("Frames of the input, a Swift element and the sink, a histogram, escaped labels, events in order")
    func watchedPipeline() async throws {
        try GstPipeElements.register()
        let metrics = Metrics()
        let lines = Locked<[String]>([])
        metrics.onEvent { event in lines.withLock { $0.append(event.jsonLine) } }
        #expect(metrics.health.httpStatus == 503 && metrics.health.input == .starting)
        let pipeline = try Pipeline(
            launch: "videotestsrc num-buffers=45 ! video/x-raw,width=64,height=48 ! gray name=mgray ! x264enc "
                + "! fakesink name=msink")
        metrics.watch(pipeline)
        metrics.started()
        try await pipeline.run()
        metrics.viewerJoined(output: "a \"quoted\\\" name\nnext")
        metrics.inputLost(reason: "the camera closed the connection")
        metrics.inputLost(reason: "counted once")
        #expect(metrics.health.httpStatus == 503 && metrics.health.json.contains("\"input\":\"lost\""))
        metrics.inputBack(after: .milliseconds(4200))
        metrics.recordingWritten(path: "rec/06-00-00.mp4", bytes: 1000)
        metrics.recordingDeleted(path: "rec/05-59-00.mp4", bytes: 400)
        metrics.stopped(exitStatus: 0)

        let samples = try Self.parse(metrics.exposition())
        #expect(samples["gstpipe_input_frames_total{}"] == 45, "\(samples)")
        #expect(samples["gstpipe_element_frames_in_total{element=mgray}"] == 45, "\(samples)")
        #expect(samples["gstpipe_element_frames_out_total{element=mgray}"] == 45, "\(samples)")
        #expect(samples["gstpipe_output_frames_in_total{output=msink}"] == 45, "\(samples)")
        // Frames that reach the sink while the pipeline prerolls (x264enc's first) have no running time
        // to be measured against yet: the histogram holds the others.
        let measured = samples["gstpipe_output_latency_seconds_count{output=msink}"] ?? 0
        #expect(measured >= 30 && measured <= 45, "\(samples)")
        #expect(samples["gstpipe_output_latency_seconds_bucket{le=+Inf,output=msink}"] == measured, "\(samples)")
        #expect((samples["gstpipe_output_bytes_total{output=msink}"] ?? 0) > 45 * 10, "\(samples)")
        // The viewer still watching at `stopped` left there.
        #expect(samples["gstpipe_output_viewers{output=a \"quoted\\\" name\nnext}"] == 0, "\(samples)")
        #expect(samples["gstpipe_input_losses_total{}"] == 1 && samples["gstpipe_input_reconnects_total{}"] == 1)
        #expect(samples["gstpipe_recordings_written_total{}"] == 1)
        #expect(samples["gstpipe_recordings_deleted_total{}"] == 1)
        #expect(samples["gstpipe_recording_bytes{}"] == 600)
        #expect(samples["gstpipe_recording_written_bytes_total{}"] == 1000)
        #expect((samples["process_resident_memory_bytes{}"] ?? 0) > 0, "\(samples)")

        let events = lines.withLock { $0 }
        #expect(
            events.map { $0.firstMatch(of: #/"event":"([a-z_]+)"/#).map { String($0.1) } ?? "?" } == [
                "started", "viewer_joined", "input_lost", "input_back", "recording_written", "recording_deleted",
                "viewer_left", "stopped"
            ], "\(events)")
        #expect(events[3].hasSuffix(",\"event\":\"input_back\",\"after_seconds\":4.200}"), "\(events)")
        #expect(events[1].contains("\"output\":\"a \\\"quoted\\\\\\\" name\\nnext\""), "\(events)")
        metrics.unwatch()
    }

    /// Each sample of `text` by name and labels, as `Scrape.samples` gives them.
    static func parse(_ text: String) throws -> [String: Double] {
        let script = Scrape.script.replacingOccurrences(
            of: """
                with urllib.request.urlopen(sys.argv[1], timeout=10) as response:
                    assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4"), response.headers
                    text = response.read().decode()
                """, with: "text = sys.stdin.read()")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.runUnblocked()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "the parser refused:\n\(text)")
        return (try JSONSerialization.jsonObject(with: data) as? [String: Double]) ?? [:]
    }
}
