import Foundation
import MediaIO

/// `gstpipe recordings DIR --from --to --output OUT`: a wall-clock span of recorded files written as
/// one file. The files that hold the span are joined without encoding them again (`SegmentJoin`);
/// when the span starts or ends inside a file, the join is then cut to it frame-exact by the run that
/// `--start` and `--end` make (`RangeCut`), which encodes it again. A span that starts and ends on
/// files' edges is their join, not encoded again.
struct RecordingSpan {
    /// The files that hold some of the span, in order (`RecordingIndex.files(from:to:)`).
    let files: [RecordingIndex.File]
    let from: Date
    let to: Date
    let output: String

    /// Writes OUT; throws a runtime failure saying what went wrong (nothing left at OUT then).
    func write() async throws(FileJob.Failure) {
        guard let first = files.first else {
            throw .runtime(
                "no recording holds any of \(RecordingIndex.text(from, utc: false)) to "
                    + "\(RecordingIndex.text(to, utc: false)): "
                    + "gstpipe recordings DIR lists what there is")
        }
        guard let format = OutputFormat.forPath(output), format.holdsVideo, !format.isImage else {
            throw .usage("cannot write the span to \(output): name an .mp4, .mov, .mkv or .webm file")
        }
        let gaps = RecordingIndex(files: files).gaps
        if !gaps.isEmpty {
            let seconds = gaps.reduce(0) { $0 + $1.end.timeIntervalSince($1.start) }
            printError(
                "the span has \(gaps.count) gap(s) without recording (\(String(format: "%.3f", seconds)) s): "
                    + "the file holds what was recorded, the gaps left out", prefix: "WARNING")
        }
        let total = files.reduce(0) { $0 + $1.duration }
        let start = position(of: from)
        let end = position(of: to)
        let container = URL(fileURLWithPath: first.path).pathExtension.lowercased()
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        let whole = start < Self.edgeTolerance && total - end < Self.edgeTolerance
        if whole && outputURL.pathExtension.lowercased() == container {
            try await join(into: output)
            return
        }
        var joined = first.path
        let temporary = outputURL.deletingLastPathComponent()
            .appendingPathComponent(".\(outputURL.lastPathComponent).span-\(getpid()).\(container)").path
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        if files.count > 1 {
            try await join(into: temporary)
            joined = temporary
        }
        var options = RunOptions()
        options.quiet = true
        options.range = TimeRangeRequest(start: Self.nanoseconds(start), end: Self.nanoseconds(end))
        let status = await PipelineRunner(description: .arguments([joined, "!", output]), options: options).run()
        guard status == ExitStatus.finished else {
            try? FileManager.default.removeItem(atPath: output)
            throw .runtime("cannot write the span to \(output) (the cut above failed)")
        }
    }

    /// Under this (seconds), the span's edge is a file's edge: the listing prints milliseconds.
    static let edgeTolerance = 0.002

    private func join(into path: String) async throws(FileJob.Failure) {
        try await SegmentJoin(output: path, segments: files.map(\.path), audio: nil).run()
    }

    /// Where `date` falls in the files joined one after the other (gaps left out), in seconds.
    private func position(of date: Date) -> Double {
        var before = 0.0
        for file in files {
            if date < file.start { return before }
            if date < file.end { return before + date.timeIntervalSince(file.start) }
            before += file.duration
        }
        return before
    }

    private static func nanoseconds(_ seconds: Double) -> ClockTime {
        ClockTime((max(seconds, 0) * 1e9).rounded())
    }
}
