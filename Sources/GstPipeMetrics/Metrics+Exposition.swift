import Foundation
import GStreamer

extension Metrics {
    /// The media type to answer a scrape of ``exposition()`` with (Prometheus' text format 0.0.4).
    public static let contentType = Exposition.contentType

    /// Every metric now, in Prometheus' text exposition format (what Prometheus scrapes and
    /// `prometheus_client`'s parser reads). Families, all present even at zero:
    ///
    /// - `gstpipe_element_frames_in_total`, `gstpipe_element_frames_out_total` (`element`): frames each
    ///   Swift element rendered and pushed (buffers, for an audio element);
    /// - `gstpipe_input_frames_total`, `gstpipe_input_up` (1 while the input delivers),
    ///   `gstpipe_input_seconds_since_frame`, `gstpipe_input_losses_total`, `gstpipe_input_reconnects_total`;
    /// - `gstpipe_output_frames_in_total`, `gstpipe_output_frames_out_total`, `gstpipe_output_bytes_total`
    ///   (`output`): raw frames into each output, encoded frames out of its encoder, bytes into its sink;
    /// - `gstpipe_output_latency_seconds` (`output`, a histogram): from a frame's running time to its
    ///   arrival at the output's sink (or, with a muxer, to its leaving the encoder), the time from
    ///   capture for a live input;
    /// - `gstpipe_output_viewers`, `gstpipe_output_viewers_joined_total` (`output`): for outputs viewers
    ///   watch (`rtsp://`, `webrtc://`);
    /// - `gstpipe_frames_dropped_total` (`element`): frames elements said they dropped (QoS messages);
    /// - `gstpipe_recordings_written_total`, `gstpipe_recordings_deleted_total`,
    ///   `gstpipe_recording_written_bytes_total`, `gstpipe_recording_bytes` (on disk now);
    /// - `gstpipe_errors_total`;
    /// - `process_resident_memory_bytes`, `process_virtual_memory_bytes`, `process_cpu_seconds_total`,
    ///   `process_start_time_seconds`, `process_open_fds`, as Prometheus' process collector names them
    ///   (Linux only).
    ///
    /// - Returns: The text to serve at `/metrics`, with ``contentType``.
    public func exposition() -> String {
        let state = state.withLock { state in
            (
                input: state.input, losses: state.inputLosses, reconnects: state.inputReconnects,
                written: state.recordingsWritten, deleted: state.recordingsDeleted,
                writtenBytes: state.recordingBytesWritten, onDisk: state.recordingBytesOnDisk, errors: state.errors,
                viewers: state.viewers.sorted { $0.key < $1.key }, dropped: state.dropped.sorted { $0.key < $1.key },
                watch: state.watch
            )
        }
        var out = Exposition()
        let elements = state.watch?.swiftElements.map { ($0.name, $0.element.statistics) } ?? []
        out.metric(
            "gstpipe_element_frames_in_total", "counter", help: "Frames (audio: buffers) each Swift element rendered.",
            elements.map { ([("element", $0.0)], Double($0.1.framesIn)) })
        out.metric(
            "gstpipe_element_frames_out_total", "counter",
            help: "Frames (audio: buffers) each Swift element pushed downstream.",
            elements.map { ([("element", $0.0)], Double($0.1.framesOut)) })

        let input = state.watch?.input
        out.metric(
            "gstpipe_input_frames_total", "counter", help: "Buffers the input delivered.",
            [([], Double(input?.frames.load(ordering: .relaxed) ?? 0))])
        out.metric(
            "gstpipe_input_up", "gauge", help: "1 while the input delivers, 0 before its first frame and while lost.",
            [([], state.input == .delivering ? 1 : 0)])
        out.metric(
            "gstpipe_input_seconds_since_frame", "gauge", help: "Seconds since the input's last frame.",
            input?.secondsSinceFrame.map { [([], $0)] } ?? [])
        out.metric(
            "gstpipe_input_losses_total", "counter", help: "Times the input was lost.", [([], Double(state.losses))])
        out.metric(
            "gstpipe_input_reconnects_total", "counter", help: "Times the input came back after a loss.",
            [([], Double(state.reconnects))])

        let outputs = state.watch?.outputs ?? []
        out.metric(
            "gstpipe_output_frames_in_total", "counter", help: "Raw frames that entered each output.",
            outputs.map { ([("output", $0.name)], Double($0.framesIn.load(ordering: .relaxed))) })
        out.metric(
            "gstpipe_output_frames_out_total", "counter",
            help: "Encoded frames each output's encoder gave out (buffers reaching its sink when it has none).",
            outputs.map { ([("output", $0.name)], Double($0.framesOut.load(ordering: .relaxed))) })
        out.metric(
            "gstpipe_output_bytes_total", "counter", help: "Bytes that reached each output's sink.",
            outputs.map { ([("output", $0.name)], Double($0.bytes.load(ordering: .relaxed))) })
        out.family(
            "gstpipe_output_latency_seconds", "histogram",
            help: "Seconds from a frame's running time (its capture, for a live input) to its arrival at the output's "
                + "sink (with a muxer: its leaving the encoder).")
        for output in outputs {
            out.histogram("gstpipe_output_latency_seconds", [("output", output.name)], output.latency.withLock { $0 })
        }
        out.metric(
            "gstpipe_output_viewers", "gauge", help: "Viewers watching each rtsp:// and webrtc:// output now.",
            state.viewers.map { ([("output", $0.key)], Double($0.value.now)) })
        out.metric(
            "gstpipe_output_viewers_joined_total", "counter", help: "Viewers that started watching each output.",
            state.viewers.map { ([("output", $0.key)], Double($0.value.joined)) })
        out.metric(
            "gstpipe_frames_dropped_total", "counter", help: "Frames each element said it dropped (QoS messages).",
            state.dropped.map { ([("element", $0.key)], Double($0.value)) })

        out.metric(
            "gstpipe_recordings_written_total", "counter", help: "Recordings finished.", [([], Double(state.written))])
        out.metric(
            "gstpipe_recordings_deleted_total", "counter", help: "Recordings deleted by retention.",
            [([], Double(state.deleted))])
        out.metric(
            "gstpipe_recording_written_bytes_total", "counter", help: "Bytes of the recordings finished.",
            [([], Double(state.writtenBytes))])
        out.metric(
            "gstpipe_recording_bytes", "gauge", help: "Bytes the recordings take on disk now.",
            [([], Double(state.onDisk))])
        out.metric("gstpipe_errors_total", "counter", help: "Errors in the run.", [([], Double(state.errors))])

        if let usage = ProcessUsage.now() {
            out.metric(
                "process_resident_memory_bytes", "gauge", help: "Resident memory size in bytes.",
                [([], usage.residentBytes)])
            out.metric(
                "process_virtual_memory_bytes", "gauge", help: "Virtual memory size in bytes.",
                [([], usage.virtualBytes)])
            out.metric(
                "process_cpu_seconds_total", "counter", help: "Total user and system CPU time spent in seconds.",
                [([], usage.cpuSeconds)])
            out.metric(
                "process_start_time_seconds", "gauge", help: "Start time of the process since unix epoch in seconds.",
                [([], usage.startTime)])
            out.metric("process_open_fds", "gauge", help: "Number of open file descriptors.", [([], usage.openFiles)])
        }
        return out.text
    }
}
