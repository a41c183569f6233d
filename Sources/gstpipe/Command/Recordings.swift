import ArgumentParser
import Foundation
import MediaIO

extension GstPipeCommand {
    /// `gstpipe recordings DIR [--from TIME --to TIME] [--json] [--output OUT]`: what `--record` wrote,
    /// on the wall clock, and a span of it written back as one file.
    struct Recordings: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the files --record wrote into DIR with their wall-clock spans and gaps, or write a span.",
            discussion: """
                TIME is ISO 8601: in UTC or with an offset (2026-11-28T05:17:27Z, 2026-11-28T06:17:27+01:00), or \
                local time without one (2026-11-28T06:17:27, fractions of a second allowed). With --output, the \
                span [--from, --to) is written to OUT: files that fit whole are joined without encoding again; \
                when the span starts or ends inside a file, the joined files are cut there frame-exact, as \
                --start and --end cut, which encodes the span again.

                Examples:
                  gstpipe recordings rec
                  gstpipe recordings rec --from 2026-11-28T06:00:00 --to 2026-11-28T06:05:00 --json
                  gstpipe recordings rec --from 2026-11-28T06:00:00 --to 2026-11-28T06:05:00 --output span.mp4
                """)

        @Argument(help: "The folder --record writes into (rec for rec/%Y-%m-%d/%H-%M-%S.mp4).")
        var folder: String

        @Option(help: ArgumentHelp("The span's start (ISO 8601).", valueName: "time"))
        var from: String?

        @Option(help: ArgumentHelp("The span's end (ISO 8601): frames before it are kept.", valueName: "time"))
        var to: String?

        @Flag(help: "Print the files and gaps as JSON (times in UTC).")
        var json = false

        @Option(help: ArgumentHelp("Write the span [--from, --to) to this file.", valueName: "file"))
        var output: String?

        /// Lists or writes, exiting 2 for usage errors and 1 when reading or writing fails.
        func execute() async -> Int32 {
            do throws(FileJob.Failure) {
                let start = try time(from, "--from")
                let end = try time(to, "--to")
                if let start, let end, end <= start {
                    throw .usage("--to must come after --from")
                }
                let index = try RecordingIndex(folder: folder)
                let files = index.files(from: start, to: end)
                if let output {
                    guard let start, let end else {
                        throw .usage("--output writes a span: give --from and --to")
                    }
                    try await RecordingSpan(files: files, from: start, to: end, output: output).write()
                    return ExitStatus.finished
                }
                let shown = RecordingIndex(files: files)
                writeStandardOutput(json ? Self.json(shown) : Self.text(shown))
                return ExitStatus.finished
            } catch {
                printError(error.message)
                return error.exitStatus
            }
        }

        private func time(_ text: String?, _ option: String) throws(FileJob.Failure) -> Date? {
            guard let text else { return nil }
            guard let date = RecordingIndex.time(text) else {
                throw .usage(
                    "\(option) takes an ISO 8601 time, such as 2026-11-28T06:17:27 (local), 2026-11-28T05:17:27Z "
                        + "(UTC) or 2026-11-28T06:17:27+01:00, not \(text)")
            }
            return date
        }

        private static func text(_ index: RecordingIndex) -> String {
            guard !index.files.isEmpty else { return "no recordings\n" }
            var lines: [String] = []
            var gaps = index.gaps.makeIterator()
            var nextGap = gaps.next()
            for file in index.files {
                if let gap = nextGap, gap.end <= file.start {
                    lines.append(
                        "gap  \(RecordingIndex.text(gap.start, utc: false))  "
                            + "\(RecordingIndex.text(gap.end, utc: false))  "
                            + String(format: "%.3f s", gap.end.timeIntervalSince(gap.start)))
                    nextGap = gaps.next()
                }
                lines.append(
                    "\(RecordingIndex.text(file.start, utc: false))  \(RecordingIndex.text(file.end, utc: false))  "
                        + String(format: "%.3f s  ", file.duration) + "\(file.bytes) bytes  \(file.path)")
            }
            return lines.joined(separator: "\n") + "\n"
        }

        private static func json(_ index: RecordingIndex) -> String {
            let files: [[String: Any]] = index.files.map { file in
                [
                    "path": file.path, "start": RecordingIndex.text(file.start, utc: true),
                    "end": RecordingIndex.text(file.end, utc: true), "duration": file.duration, "bytes": file.bytes
                ]
            }
            let gaps: [[String: Any]] = index.gaps.map { gap in
                [
                    "start": RecordingIndex.text(gap.start, utc: true), "end": RecordingIndex.text(gap.end, utc: true),
                    "duration": gap.end.timeIntervalSince(gap.start)
                ]
            }
            let object: [String: Any] = ["files": files, "gaps": gaps]
            let data =
                (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self) + "\n"
        }
    }
}
