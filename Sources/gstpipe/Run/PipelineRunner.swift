import Foundation
import GstPipeElements
import GstPipeMetrics
import GstPipeParsing
import MediaIO
import Synchronization

/// How a run behaves, from the command-line flags.
struct RunOptions: Sendable {
    var printMessages = false
    var verbose = false
    var quiet = false
    var eosOnShutdown = true
    /// Where to draw the pipeline as it ran (.svg, .png or .dot), if anywhere.
    var graph: String?
    /// Print frames and frames per second per Swift element at the end.
    var stats = false
    /// Write MP4 and QuickTime outputs in fragments even from a local file (`--crash-safe`).
    var crashSafe = false
    /// Where autovideosink shows video; nil chooses by what the machine has.
    var preview: Preview?
    /// Turn pictures upright as their orientation tag says; false for `--no-autorotate`.
    var autorotate = true
    /// What the stream options say (`--hls-window`, `--sdp`, `--rtsp-tcp`, `--timeout`).
    var streams = StreamSettings()
    /// `--start`, `--end`, `--duration`: the part of a file input to read, nil for all of it.
    var range: TimeRangeRequest?
    /// `--no-audio`: the input's audio is left out.
    var noAudio = false
    /// `--no-video`: the input's video is left out (the description must write audio).
    var noVideo = false
    /// `--metrics HOST:PORT`: where to serve Prometheus metrics and the health check.
    var metricsAddress: MetricsAddress?
    /// `--events FILE`: where to append the run's events as JSON lines (`-`: standard output).
    var eventsFile: String?
    /// `--record` and its options: what the description outputs is also recorded into rotating files.
    var record: RecordSettings?
}

/// Exit statuses, as gst-launch users expect them.
enum ExitStatus {
    static let finished: Int32 = 0
    static let runtimeError: Int32 = 1
    static let usage: Int32 = 2
    /// 128 + the signal's number: SIGINT (Ctrl-C) 130, SIGTERM 143, SIGHUP 129.
    static let interrupted: Int32 = 130
}

/// Builds the pipeline from the description (with its file shorthands), runs it to end of stream,
/// error or interrupt, and says what happened.
struct PipelineRunner {
    /// Where the description comes from.
    enum Description {
        /// Command-line arguments, each one token (gst-launch-1.0's joining).
        case arguments([String])
        /// Text to parse as a whole (`-f FILE`): quotes and spaces as gst-launch-1.0 reads them.
        case text(String)
    }

    let description: Description
    let options: RunOptions

    /// GStreamer started and the Swift elements registered, once per process: nil, or the exit status of a
    /// failure (said on stderr). `main()` asks before its first `await`, so that this happens on the main
    /// thread: the registry GStreamer reads is about 2 MB of small allocations, which glibc serves there
    /// from the main arena, grown in large steps, but on a worker thread from an arena of its own, grown a
    /// page at a time with an `mprotect` each (570 of them; the start took 21.5 ms before, 19.4 after).
    ///
    /// The run goes on, from its first `await`, on Swift concurrency's threads, which libdispatch starts when
    /// the first task is queued (a worker, then a manager and a monitor: about 0.4 ms). A task queued first
    /// has them started on another core while this one starts GStreamer (8 ms).
    static let startFailure: Int32? = {
        Task.detached {}
        AlphaVideo.decodeWithoutAlpha()
        // After the line above (read as GStreamer starts), before anything GStreamer logs.
        redactGStreamerLog()
        do throws(GStreamerError) {
            try GstPipeElements.register()
            return nil
        } catch {
            printError("cannot register the Swift elements: \(error.message)")
            return ExitStatus.runtimeError
        }
    }()

    func run() async -> Int32 {
        var job: FileJob
        let pipeline: Pipeline
        if let failure = Self.startFailure { return failure }
        // Swift elements time their calls only for the report that shows the times.
        if options.stats { SwiftElementStatistics.isTimingEnabled = true }
        do {
            job = try FileJob(
                tokens: tokens, swiftElements: Set(ElementType.registeredNames()), alwaysCrashSafe: options.crashSafe,
                autorotate: options.autorotate, streamSettings: options.streams)
        } catch {
            return error.report()
        }
        do {
            try await job.applyStreamChoice(range: options.range, noAudio: options.noAudio, noVideo: options.noVideo)
            try ReconnectingInput.check(job)
        } catch {
            return error.report()
        }
        var recordJunction: [String] = []
        if let record = options.record {
            do {
                recordJunction = try Recorder.check(record, job: job)
            } catch {
                return error.report()
            }
            job.tokens += recordJunction
        }
        job.notes.forEach(note)
        let elements: FileJobElements
        do {
            switch description {
            case .arguments: pipeline = try Pipeline(arguments: job.tokens)
            case .text(let text):
                pipeline =
                    try job.isPlainDescription && recordJunction.isEmpty
                    ? Pipeline(launch: text) : Pipeline(arguments: job.tokens)
            }
            elements = try FileJobElements.build(job, in: pipeline)
        } catch {
            if error.isMissingElement, let name = UnknownElement.name(in: error.message) {
                printError(UnknownElement(name: name).message)
            } else {
                printError("erroneous pipeline: \(error.message)")
            }
            return ExitStatus.usage
        }
        // Before the check for unfed pads: the decoding source's pads are linked as they appear.
        let files = FileJobRun(job: job, elements: elements, pipeline: pipeline, note: { [self] text in note(text) })
        if let unfed = UnfedPads.message(for: pipeline) {
            printError(unfed)
            return ExitStatus.usage
        }
        var recorder: Recorder?
        if let record = options.record {
            do {
                recorder = try Recorder.attach(
                    record, outputs: elements.outputs, to: pipeline, note: { [self] text in note(text) })
            } catch {
                return error.report()
            }
        }
        let preview: Preview?
        do {
            preview = try Preview.apply(options.preview, to: pipeline, note: note)
            try SoundOutput.apply(to: pipeline, note: note)
        } catch {
            return error.report()
        }
        files.setUpLiveInput(options.streams, note: note)
        // Before the stream servers: an address in use is the user's to change, said before anything starts.
        let metrics: RunMetrics
        do {
            metrics = try await RunMetrics(options)
        } catch {
            return error.report()
        }
        metrics.watch(pipeline, elements: elements, silenceLimit: options.streams.inputTimeout)
        // Read from before the stream servers start: a server posts its failure as soon as it knows it
        // (an RTMP server that is not there, before the pipeline plays), and a reader that subscribes
        // later never sees a message posted before it.
        let messages = pipeline.messages
        let streams: StreamRun
        do {
            streams = try await StreamRun(
                job: job, input: elements.input?.session, outputs: elements.outputs, settings: options.streams,
                note: note)
        } catch {
            metrics.close(exitStatus: error.exitStatus)
            return error.report()
        }
        // The servers close once the pipeline has stopped (drive's end): clients get end of stream first.
        defer { streams.close() }
        let status = await drive(
            pipeline, messages: messages, files: files, streams: streams, recorder: recorder,
            terminal: preview == .terminal ? TerminalPreview() : nil)
        metrics.close(exitStatus: status)
        return status
    }

    private var tokens: [String] {
        switch description {
        case .arguments(let arguments): arguments
        case .text(let text): TokenReader.tokens(of: text)
        }
    }

    /// Runs the pipeline to its end, reading its `messages`. `terminal` is the terminal under the
    /// ASCII-art preview, whose keys end the run and whose modes come back on every way out.
    private func drive(
        _ pipeline: Pipeline, messages: MessageStream, files: FileJobRun, streams: StreamRun, recorder: Recorder?,
        terminal: TerminalPreview?
    ) async -> Int32 {
        var progress: ProgressLine?
        // `--events -` writes its lines to standard output, which a progress line would break into.
        if terminal == nil && !options.quiet && isatty(STDOUT_FILENO) == 1 && options.eventsFile != "-" {
            var frames = Statistics.firstCounter(in: pipeline)
            if let counter = files.framesCounter { frames = { counter.count } }
            // Audio buffers are no frames (and a Swift audio element counts buffers): time alone.
            if files.job.media == .audio { frames = { nil } }
            progress = ProgressLine(pipeline: pipeline, frames: frames)
        }
        // A stop's note goes on a line of its own, not after the progress line.
        let stops = StopRequests(
            pipeline: pipeline, endInputStreams: files.endInputStreams, eosOnShutdown: options.eosOnShutdown,
            note: { [self, progress] text in
                progress?.clear()
                note(text)
            }, beforeExit: { terminal?.restore(abruptly: true) })
        terminal?.readKeys { stops.request($0) }
        defer {
            progress?.finish()
            stops.cancel()
            pipeline.stop()
            terminal?.restore()
        }
        if options.verbose { pipeline.watchCaps() }
        let started = ContinuousClock.now
        var warningsShown: Set<String> = []
        var heldWarnings: [GStreamerError] = []
        let newFiles = NewFileSinks(in: pipeline)
        do {
            try pipeline.play()
        } catch {
            report(error, files: files)
            await files.finishAfterError(error, note: note)
            newFiles.removeEmpty(stopping: pipeline, note: note)
            return ExitStatus.runtimeError
        }
        progress?.start()
        Metrics.shared.started()
        let pruning = recorder?.keepPruning()
        defer { pruning?.cancel() }
        // A reconnecting input watches its own connections for silence, and the outputs never see one.
        let silence =
            options.streams.reconnect
            ? nil : options.streams.inputTimeout.flatMap { files.watchSilence(timeout: $0, note: note) }
        defer { silence?.cancel() }
        for await message in messages {
            if options.printMessages && !options.quiet {
                writeStandardOutput("Got message: \(message)\n")
            }
            if let failure = recorder?.handle(message) {
                progress?.finish()
                printError(failure)
                drawGraph(of: pipeline)
                return ExitStatus.runtimeError
            }
            switch message {
            case .endOfStream:
                progress?.finish()
                recorder?.finishAtEnd()
                await streams.finish()
                heldWarnings.forEach(printWarning)
                drawGraph(of: pipeline)
                printStatistics(of: pipeline, since: started)
                if let failure = files.checkAfterEndOfStream(interrupted: stops.wasRequested) {
                    printError(failure)
                    newFiles.removeEmpty(stopping: pipeline, note: note)
                    return ExitStatus.runtimeError
                }
                pipeline.stop()
                files.completeMetadata(note: note)
                return stops.exitStatus
            case .error(let error):
                progress?.finish()
                if let usage = streams.servers.lazy.compactMap(\.usageFailure).first {
                    printError(usage)
                    return ExitStatus.usage
                }
                if let failure = files.inputFailure(after: error) {
                    printError(failure)
                    drawGraph(of: pipeline)
                    newFiles.removeEmpty(stopping: pipeline, note: note)
                    return ExitStatus.runtimeError
                }
                heldWarnings.forEach(printWarning)
                report(error, files: files)
                await files.finishAfterError(error, note: note)
                drawGraph(of: pipeline)
                printStatistics(of: pipeline, since: started)
                newFiles.removeEmpty(stopping: pipeline, note: note)
                return ExitStatus.runtimeError
            case .warning(let warning) where !options.quiet:
                // Each warning once; streams the file shorthand already spoke about (or cannot use,
                // such as metadata, or audio for an input without it) only with -v.
                guard warningsShown.insert(warning.message).inserted else { continue }
                if files.isFromInput(warning.source) && (warning.isMissingPlugin || warning.isDelayedLinkFailure)
                    && !options.verbose
                {
                    continue
                }
                // The input's own warnings wait for its first frame: should it give none, the error
                // that follows says what is wrong with it in one line.
                if files.isFromInputBeforeVideo(warning.source) && !options.verbose {
                    heldWarnings.append(warning)
                    continue
                }
                progress?.clear()
                heldWarnings.forEach(printWarning)
                heldWarnings.removeAll()
                printWarning(warning)
            case .propertyNotify(let object, let property, let value) where options.verbose:
                progress?.clear()
                writeStandardOutput("\(object): \(property) = \(value ?? "NULL")\n")
            default:
                continue
            }
        }
        return ExitStatus.runtimeError
    }

    /// `--stats`: frames and frames per second of each Swift element.
    private func printStatistics(of pipeline: Pipeline, since started: ContinuousClock.Instant) {
        guard options.stats else { return }
        writeStandardOutput(Statistics.report(for: pipeline, wallTime: ContinuousClock.now - started) + "\n")
    }

    /// Writes `--graph FILE`: the pipeline as it ran (still holding its negotiated caps), rendered by
    /// Graphviz's `dot` for .svg and .png; without Graphviz, the .dot file and how to render it.
    private func drawGraph(of pipeline: Pipeline) {
        guard let path = options.graph else { return }
        // Element properties are in it: rtspsrc's location with its password, user-pw, a TURN server.
        let dot = Secrets.redact(pipeline.dotGraph())
        let format = URL(fileURLWithPath: path).pathExtension.lowercased()
        let dotPath = format == "dot" ? path : path + ".dot"
        do {
            try dot.write(toFile: dotPath, atomically: true, encoding: .utf8)
        } catch {
            printError("cannot write the graph to \(dotPath): \(error.localizedDescription)")
            return
        }
        guard format != "dot" else { return }
        let renderer = Process()
        renderer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        renderer.arguments = ["dot", "-T\(format)", dotPath, "-o", path]
        renderer.standardError = FileHandle.nullDevice
        if (try? renderer.run()) != nil {
            renderer.waitUntilExit()
            if renderer.terminationStatus == 0 {
                try? FileManager.default.removeItem(atPath: dotPath)
                note("pipeline graph written to \(path)")
                return
            }
        }
        note(
            "Graphviz could not render \(path) (apt-get install graphviz); the graph is in \(dotPath): dot -T\(format) \(dotPath) -o \(path)"
        )
    }

    private func printWarning(_ warning: GStreamerError) {
        printError("warning from element \(warning.source ?? "?"): \(warning.message)", prefix: "WARNING")
    }

    private func report(_ error: GStreamerError, files: FileJobRun) {
        var text = "from element \(error.source ?? "pipeline"): \(error.message)"
        // A resource error's message is generic ("Resource not found."); its debug text names the file or
        // device (`No such file "/missing.bin"`), after the line that places it in GStreamer's source.
        if !options.verbose, error.domain == "gst-resource-error-quark", let debug = error.debug {
            let detail = debug.split(separator: "\n").dropFirst().joined(separator: " ")
            if !detail.isEmpty, detail.count <= 300, !error.message.contains(detail) { text += " (\(detail))" }
        }
        let stream = files.outputs.first { output in
            error.source.map(output.elements.elementNames.contains) ?? false
        }?.file.stream
        if let advice = stream.map({ $0.failureAdvice }) ?? FileJobRun.advice(for: error) { text += "\n  \(advice)" }
        if options.verbose, let debug = error.debug { text += "\nAdditional debug info:\n\(debug)" }
        printError(text)
    }

    private func note(_ text: String) {
        guard !options.quiet else { return }
        writeStandardError("gstpipe: \(text)\n")
    }
}

extension FileJob.Failure {
    /// Prints the message and gives the exit status: 2 for usage, 1 for runtime.
    func report() -> Int32 {
        switch self {
        case .usage(let message):
            printError(message)
            return ExitStatus.usage
        case .runtime(let message):
            printError(message)
            return ExitStatus.runtimeError
        }
    }
}
