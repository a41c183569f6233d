import Foundation
import GstPipeElements
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
}

/// Exit statuses, as gst-launch users expect them.
enum ExitStatus {
    static let finished: Int32 = 0
    static let runtimeError: Int32 = 1
    static let usage: Int32 = 2
    static let interrupted: Int32 = 130
}

/// Builds the pipeline from the description, runs it to end of stream, error or interrupt, and says
/// what happened.
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

    func run() async -> Int32 {
        let pipeline: Pipeline
        do {
            try GstPipeElements.register()
            switch description {
            case .arguments(let arguments): pipeline = try Pipeline(arguments: arguments)
            case .text(let text): pipeline = try Pipeline(launch: text)
            }
        } catch {
            if error.isMissingElement, let name = UnknownElement.name(in: error.message) {
                printError(UnknownElement(name: name).message)
            } else {
                printError("erroneous pipeline: \(error.message)")
            }
            return ExitStatus.usage
        }
        do {
            try HeadlessFallback.apply(to: pipeline, note: note)
        } catch {
            printError("\(error)")
            return ExitStatus.runtimeError
        }
        return await drive(pipeline)
    }

    private func drive(_ pipeline: Pipeline) async -> Int32 {
        let interrupts = InterruptHandler(pipeline: pipeline, eosOnShutdown: options.eosOnShutdown, note: note)
        defer {
            interrupts.cancel()
            pipeline.stop()
        }
        let messages = pipeline.messages
        do {
            try pipeline.play()
        } catch {
            report(error)
            return ExitStatus.runtimeError
        }
        for await message in messages {
            if options.printMessages && !options.quiet {
                print("Got message: \(message)")
            }
            switch message {
            case .endOfStream:
                drawGraph(of: pipeline)
                return interrupts.wasInterrupted ? ExitStatus.interrupted : ExitStatus.finished
            case .error(let error):
                report(error)
                drawGraph(of: pipeline)
                return ExitStatus.runtimeError
            case .warning(let warning) where !options.quiet:
                printError("warning from element \(warning.source ?? "?"): \(warning.message)", prefix: "WARNING")
            default:
                continue
            }
        }
        return ExitStatus.runtimeError
    }

    /// Writes `--graph FILE`: the pipeline as it ran (still holding its negotiated caps), rendered by
    /// Graphviz's `dot` for .svg and .png; without Graphviz, the .dot file and how to render it.
    private func drawGraph(of pipeline: Pipeline) {
        guard let path = options.graph else { return }
        let dot = pipeline.dotGraph()
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
        note("Graphviz could not render \(path) (apt-get install graphviz); the graph is in \(dotPath): dot -T\(format) \(dotPath) -o \(path)")
    }

    private func report(_ error: GStreamerError) {
        var text = "from element \(error.source ?? "pipeline"): \(error.message)"
        if options.verbose, let debug = error.debug { text += "\nAdditional debug info:\n\(debug)" }
        printError(text)
    }

    private func note(_ text: String) {
        guard !options.quiet else { return }
        FileHandle.standardError.write(Data("gstpipe: \(text)\n".utf8))
    }
}

func printError(_ text: String, prefix: String = "ERROR") {
    FileHandle.standardError.write(Data("\(prefix): \(text)\n".utf8))
}

/// Ctrl-C: the first sends end of stream (so muxers finalize files), the second stops at once.
final class InterruptHandler {
    private final class Presses: Sendable {
        let count = Mutex(0)
    }
    private let source: any DispatchSourceSignal
    private let presses = Presses()

    init(pipeline: Pipeline, eosOnShutdown: Bool, note: @escaping @Sendable (String) -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let counter = presses
        source.setEventHandler {
            let presses = counter.count.withLock { value -> Int in
                value += 1
                return value
            }
            if presses == 1 && eosOnShutdown {
                note("interrupt: sending end of stream (Ctrl-C again to stop at once)")
                pipeline.sendEndOfStream()
            } else {
                pipeline.stop()
                exit(ExitStatus.interrupted)
            }
        }
        source.resume()
    }

    var wasInterrupted: Bool { presses.count.withLock { $0 > 0 } }

    func cancel() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
