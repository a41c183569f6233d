import Foundation
import GstPipeMetrics
import GstPipeParsing
import GstPipeSupport
import MediaIO
import Synchronization

/// What `--metrics` and `--events` add to a run: the server and the event file, and `Metrics.shared`
/// watching the pipeline with the job's input and outputs, each output named by its scheme or
/// extension and its index (`rtsp0`, `mp4_1`), never by its address, which may hold a password.
struct RunMetrics {
    private let server: MetricsServer?
    private let events: EventLog?

    /// Starts serving and writing; throws a usage error when the address is in use or the file cannot
    /// be written. Does nothing without `--metrics` or `--events`.
    init(_ options: RunOptions) async throws(FileJob.Failure) {
        Metrics.shared.setRedactor(Secrets.redact)
        events = try options.eventsFile.map { path throws(FileJob.Failure) in try EventLog(path: path) }
        do throws(FileJob.Failure) {
            if let address = options.metricsAddress {
                server = try await MetricsServer(address: address)
            } else {
                server = nil
            }
        } catch {
            // The events file is open: whoever reads it learns why the run never started.
            switch error {
            case .usage(let message), .runtime(let message): Metrics.shared.error(message)
            }
            Metrics.shared.stopped(exitStatus: error.exitStatus)
            events?.close()
            throw error
        }
    }

    var isOn: Bool { server != nil || events != nil }

    /// Watches `pipeline`: the job's input where its frames enter the description (or the pipeline's
    /// own sources), and its outputs (or the pipeline's own sinks).
    func watch(_ pipeline: Pipeline, elements: FileJobElements, silenceLimit: Duration?) {
        guard isOn else { return }
        let outputs = elements.outputs.map { output in
            Metrics.Output(
                name: Self.name(of: output.file), entry: output.converter, encoder: output.encoder,
                sink: output.sink ?? output.muxer ?? output.encoder, muxes: output.muxer != nil,
                servesViewers: Self.servesViewers(output.file))
        }
        Metrics.shared.watch(
            pipeline, input: elements.input?.decoded.pad(named: "sink"), outputs: outputs.isEmpty ? nil : outputs,
            silenceLimit: silenceLimit ?? .seconds(10))
        // A reconnecting input keeps frames flowing (the last frame, then the slate) while its source is
        // away: its own account of losses and returns is what the metrics and events say.
        (elements.input?.session as? ReconnectingInput)?.health.onChange { change in
            switch change.state {
            case .away, .gaveUp: Metrics.shared.inputLost(reason: change.reason ?? "the input was lost")
            case .delivering: if let away = change.awayFor { Metrics.shared.inputBack(after: away) }
            case .starting: break
            }
        }
        // A deleted recording's size is known from when it was written (a file of an earlier run counts 0).
        let sizes = Locked<[String: Int64]>([:])
        RecordingEvents.run.observe { event in
            switch event {
            case .written(let path, _, _, let bytes):
                sizes.withLock { $0[path] = bytes }
                Metrics.shared.recordingWritten(path: path, bytes: bytes)
            case .deleted(let path):
                Metrics.shared.recordingDeleted(path: path, bytes: sizes.withLock { $0.removeValue(forKey: path) } ?? 0)
            case .failed(let message):
                Metrics.shared.error(message)
            }
        }
    }

    /// Stops watching, serving and writing: after the `stopped` event.
    func close(exitStatus: Int32) {
        guard isOn else { return }
        // The bus watch first, so that a pipeline's error it counts comes before `stopped`, not after.
        Metrics.shared.unwatch()
        // A run ending on an error nobody counted (a usage error found once the events file is open, a
        // pipeline that would not start, an output left empty) still says it in an `error` event.
        if [ExitStatus.runtimeError, ExitStatus.usage].contains(exitStatus) && Metrics.shared.errorCount == 0,
            let message = lastErrorPrinted.withLock({ $0 })
        {
            Metrics.shared.error(message)
        }
        Metrics.shared.stopped(exitStatus: exitStatus)
        server?.close()
        events?.close()
    }

    /// An output's label: its scheme (`rtsp0`, `webrtc1`) or its file's extension (`mp4_0`: an
    /// underscore before the index when the name ends in a digit), and its index in the description.
    static func name(of output: FileJob.Output) -> String {
        let path = output.path
        let kind: String
        if let range = path.range(of: "://") {
            kind = path[..<range.lowerBound].lowercased().filter { $0.isLetter || $0.isNumber }
        } else {
            kind = URL(fileURLWithPath: path).pathExtension.lowercased().filter { $0.isLetter || $0.isNumber }
        }
        let base = kind.isEmpty ? "output" : kind
        return base + (base.last?.isNumber == true ? "_" : "") + String(output.index)
    }

    /// Whether viewers come and go on the output: the servers' schemes.
    static func servesViewers(_ output: FileJob.Output) -> Bool {
        let path = output.path.lowercased()
        return ["rtsp://", "rtsps://", "webrtc://"].contains { path.hasPrefix($0) }
    }
}
