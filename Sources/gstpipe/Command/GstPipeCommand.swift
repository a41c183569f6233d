import ArgumentParser
import Foundation
import GstPipeElements
import GstPipeParsing
import GstPipeSupport
import MediaIO

/// `gstpipe`: runs a gst-launch-1.0 description in which Swift elements (`noise`, `gray`) stand like
/// any other element, with files named directly at either end.
@main
struct GstPipeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gstpipe",
        abstract: "Run a GStreamer pipeline, written as for gst-launch-1.0, with Swift elements inside.",
        usage: """
            gstpipe [options] <description>...
              gstpipe inspect [<name>]
              gstpipe plan-segments <input> --segment-seconds <N> [--json]
              gstpipe join <output> <segment>... [--audio <file>]
              gstpipe recordings <folder> [--from <time> --to <time>] [--json] [--output <file>]
            """,
        discussion: """
            Arguments are joined the way gst-launch-1.0 joins them: each argument is one token. Swift \
            elements (noise, gray) can stand anywhere an element can.

            Files: a first token that is an existing file or a URI is decoded: its video goes on down the \
            description, or its audio when the description's elements are audio alone (audioconvert, \
            volume). A file name that ends the description, or a branch of it, is encoded by its extension: \
            .mp4 and .mov (H.264, AAC audio), .mkv (H.264, Vorbis), .webm (VP8, Opus), .y4m (raw), .png and \
            .jpg (one image, or one a frame when the name holds %d, as frame%04d.png); audio alone: .wav \
            (PCM), .flac, .ogg and .opus (Opus), .m4a (AAC), .mka (Vorbis), .mp3. Audio alone into .mp4, \
            .mov, .mkv or .webm makes a file of that container with no video. When both ends are files and the description \
            is video, the input's audio is kept, as ffmpeg would. filesink location=out.mp4 right after a Swift \
            element is encoded the same way. H.264 of gray's output is monochrome (4:0:0), as ffmpeg's \
            -vf format=gray writes it; put video/x-raw,format=I420 after gray for players that want 4:2:0. As \
            ffmpeg does, pictures are turned upright as the input's display matrix says (--no-autorotate \
            keeps them as stored), and the pixel aspect ratio, title, artist, comment, creation time and \
            audio language are kept where the output can hold them.

            Streams: a description may end in \(StreamOutputs.help), video encoded for streaming (x264 \
            zerolatency, a key frame every 2 s at any frame rate). A first token \(StreamInput.helpNames.listed("or")) \
            is a live input, which fails after --timeout seconds with nothing.

            Examples:
              gstpipe noise ! gray ! autovideosink
              gstpipe input.mp4 ! gray ! output.mp4
              gstpipe noise num-buffers=100 ! gray ! noise.mkv
              gstpipe input.mp4 ! gray ! frame%04d.png
              gstpipe input.mp4 ! gray ! rtsp://0.0.0.0:8554/gray
              gstpipe input.mp4 ! audioconvert ! sound.ogg
              gstpipe audiotestsrc num-buffers=200 ! tone.wav
              gstpipe videotestsrc num-buffers=50 ! gray ! videoconvert ! autovideosink
              gstpipe -f pipelines/5-tee-display-and-file.pipeline

            With no display, autovideosink previews in the terminal (ASCII art; q or Escape ends it), or \
            nowhere when there is no terminal either; --preview chooses. With no sound server or card, \
            autoaudiosink plays to nowhere, keeping time.

            Ctrl-C (SIGINT), SIGTERM and SIGHUP send end of stream so files are finalized; a second one \
            stops at once. MP4 and MOV from a live or generated source are written in fragments until the \
            end, so they play even after kill -9.

            Exit status: 0 finished (end of stream), 1 runtime error, 2 usage or pipeline syntax error, \
            130 interrupted (Ctrl-C), 143 terminated (SIGTERM), 129 hung up (SIGHUP).

            gstpipe inspect lists the Swift elements; gstpipe inspect NAME shows any element's properties.
            """,
        version: "0.1.0",
        subcommands: [Inspect.self, PlanSegments.self, Join.self, Recordings.self]
    )

    @Flag(name: .shortAndLong, help: "Print bus messages as they arrive.")
    var messages = false

    @Flag(
        name: .shortAndLong, help: "Print the caps negotiated on each pad, and GStreamer's debug details with errors.")
    var verbose = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors (no progress line, no notes).")
    var quiet = false

    @Flag(help: "At the end, print frames and frames per second of each Swift element.")
    var stats = false

    @Option(
        help: ArgumentHelp(
            "Where autovideosink shows video: window, terminal (ASCII art) or none. Default: a window when "
                + "there is a display, else the terminal, else none.",
            valueName: "where"))
    var preview: Preview?

    @Flag(help: "On Ctrl-C, SIGTERM or SIGHUP, stop at once instead of sending end of stream and waiting for it.")
    var noEOSOnShutdown = false

    @Flag(
        help: """
            Write .mp4 and .mov outputs in one-second fragments even when the input is a local file, so \
            that they play up to the last second written if gstpipe is killed outright (kill -9, a power \
            cut). Live, network and generated inputs are written that way by default.
            """)
    var crashSafe = false

    @Flag(
        help: """
            Keep pictures as stored instead of turning them upright as the input's display matrix or \
            orientation tag says; .mp4 and .mov outputs get the input's display matrix instead, as \
            ffmpeg's -noautorotate does.
            """)
    var noAutorotate = false

    @Option(
        help: ArgumentHelp(
            "Draw the pipeline as it ran, with negotiated caps, to FILE (.svg or .png through Graphviz, or .dot).",
            valueName: "FILE"))
    var graph: String?

    @OptionGroup
    var streams: StreamOptions

    @OptionGroup
    var ranges: RangeOptions

    @OptionGroup
    var running: MetricsOptions

    @OptionGroup
    var recording: RecordOptions

    @Option(
        name: .customShort("f"),
        help: ArgumentHelp(
            "Run the description kept in FILE (# starts a comment; newlines count as spaces).", valueName: "FILE"))
    var file: String?

    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("The pipeline, as for gst-launch-1.0.", valueName: "description"))
    var description: [String] = []

    func validate() throws {
        if let unknown = UnknownOption.first(in: description) {
            throw ValidationError(UnknownOption.message(for: unknown, known: UnknownOption.names(of: Self.self)))
        }
        if description.isEmpty && file == nil {
            throw ValidationError("Missing the pipeline description, such as: gstpipe noise ! gray ! autovideosink")
        }
        if file != nil && !description.isEmpty {
            throw ValidationError("Give either -f FILE or a description, not both.")
        }
        try streams.check()
        if streams.tlsNoVerify && StreamSettings.namesWebRTCClient(description) {
            throw ValidationError(StreamSettings.tlsNoVerifyRefusal)
        }
        _ = try ranges.request()
        try running.check()
        _ = try recording.settings()
    }

    func run() async throws {
        let options = try runOptions()
        if let graph, !["svg", "png", "dot"].contains(URL(fileURLWithPath: graph).pathExtension.lowercased()) {
            throw ValidationError("--graph takes a .svg, .png or .dot file, not \(graph).")
        }
        var source = PipelineRunner.Description.arguments(description)
        if let file {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ValidationError("Cannot read the description file \(file): check the path.")
            }
            Secrets.found(in: text).forEach(Secrets.register)
            source = .text(DescriptionFile.description(from: text))
        }
        let status = await PipelineRunner(description: source, options: options).run()
        if status != 0 { throw ExitCode(status) }
    }

    /// What the options say, for `PipelineRunner`.
    func runOptions() throws -> RunOptions {
        RunOptions(
            printMessages: messages, verbose: verbose, quiet: quiet, eosOnShutdown: !noEOSOnShutdown, graph: graph,
            stats: stats, crashSafe: crashSafe, preview: preview, autorotate: !noAutorotate, streams: streams.settings,
            range: try ranges.request(), noAudio: ranges.noAudio, noVideo: ranges.noVideo,
            metricsAddress: running.address, eventsFile: running.events,
            record: try recording.settings())
    }

    /// Parses and runs, with usage errors exiting 2 as gst-launch-1.0's do (not ArgumentParser's 64).
    static func main() async {
        // The description takes every unrecognized token (options may stand anywhere, as for
        // gst-launch-1.0), so the subcommand is picked out by hand.
        let arguments = Array(CommandLine.arguments.dropFirst())
        // Before anything is printed: a password in an argument may come back in any message.
        Secrets.registerStartup(arguments: arguments, environment: ProcessEnvironment.variables(prefixed: "GSTPIPE_"))
        if arguments.first == "inspect" {
            do {
                var inspect = try Inspect.parseAsRoot(Array(arguments.dropFirst()))
                try inspect.run()
            } catch {
                Inspect.exitRedacted(error)
            }
            Foundation.exit(0)
        }
        if arguments.first == "join" {
            var status = ExitStatus.usage
            do {
                let join = try Join.parseAsRoot(Array(arguments.dropFirst()))
                if let join = join as? Join { status = await join.execute() }
            } catch {
                Join.exitRedacted(error)
            }
            Foundation.exit(status)
        }
        if arguments.first == "recordings" {
            var status = ExitStatus.usage
            do {
                let recordings = try Recordings.parseAsRoot(Array(arguments.dropFirst()))
                if let recordings = recordings as? Recordings { status = await recordings.execute() }
            } catch {
                Recordings.exitRedacted(error)
            }
            Foundation.exit(status)
        }
        if arguments.first == "plan-segments" {
            do {
                let plan = try PlanSegments.parseAsRoot(Array(arguments.dropFirst()))
                if let plan = plan as? PlanSegments { try await plan.run() }
            } catch {
                PlanSegments.exitRedacted(error)
            }
            Foundation.exit(0)
        }
        if let plain = PlainDescription(arguments) {
            _ = PipelineRunner.startFailure
            let runner = PipelineRunner(description: .arguments(plain.description), options: plain.options)
            Foundation.exit(await runner.run())
        }
        do {
            var command = try parseAsRoot(arguments)
            if command is GstPipeCommand { _ = PipelineRunner.startFailure }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exitRedacted(error)
        }
    }
}

extension ParsableCommand {
    /// Exits as ArgumentParser's `exit(withError:)` does (help and version on standard output, errors on
    /// standard error), its words through `Secrets` (an error quotes the argument, which may hold a
    /// password), and usage errors with 2 as gst-launch-1.0's do (not ArgumentParser's 64).
    static func exitRedacted(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        let message = fullMessage(for: error)
        if !message.isEmpty {
            if code == .success { writeStandardOutput(message + "\n") } else { writeStandardError(message + "\n") }
        }
        Foundation.exit(code == .validationFailure ? ExitStatus.usage : code.rawValue)
    }
}

/// Descriptions kept in files (`gstpipe -f FILE`, `pipelines/*.pipeline`).
enum DescriptionFile {
    /// The description in `text`: `#` outside quotes starts a comment to the end of the line, and
    /// newlines count as spaces; what is inside quotes stays as written.
    static func description(from text: String) -> String {
        var result = ""
        var quoted = false
        var comment = false
        for character in text {
            if character == "\n" {
                comment = false
                result.append(" ")
            } else if comment {
                continue
            } else if character == "#" && !quoted {
                comment = true
            } else {
                if character == "\"" { quoted.toggle() }
                result.append(character)
            }
        }
        return result.trimmingCharacters(in: .whitespaces)
    }
}
