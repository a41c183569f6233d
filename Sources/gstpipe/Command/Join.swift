import ArgumentParser
import Foundation
import MediaIO

extension GstPipeCommand {
    /// `gstpipe join OUT SEG... [--audio FILE]`: segments written apart put back into one file.
    struct Join: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Join encoded segments (of one encoding) into one file, without encoding them again.",
            discussion: """
                The segments go one after the other, timestamps continuous; --audio muxes FILE's audio \
                track beside them as it is encoded. OUT is written under a temporary name and appears \
                only when whole: on failure, no OUT is left.

                A variable-frame-rate input's segments are joined with --starts, each segment's START \
                from plan-segments: each is placed there, as its MP4 does not say how long its last \
                frame lasts.

                Example:
                  gstpipe in.mp4 --start 0 --end 60 --no-video ! audio.m4a
                  gstpipe join out.mp4 seg0.mp4 seg1.mp4 --audio audio.m4a
                  gstpipe join out.mp4 seg0.mp4 seg1.mp4 --starts 0,60.016000000
                """)

        @Argument(help: "The file to write (.mp4, .mov, .mkv or .webm).")
        var output: String

        @Argument(help: "The segments, in order.")
        var segments: [String] = []

        @Option(help: ArgumentHelp("An encoded audio track to mux beside the video.", valueName: "FILE"))
        var audio: String?

        @Option(
            help: ArgumentHelp(
                "Each segment's planned start (seconds, comma-separated, as plan-segments prints them): "
                    + "each segment is placed there, for a variable-frame-rate input.", valueName: "S0,S1,..."))
        var starts: String?

        /// Joins, exiting 2 for usage errors and 1 when the join fails.
        func execute() async -> Int32 {
            do throws(FileJob.Failure) {
                var join = SegmentJoin(output: output, segments: segments, audio: audio)
                if let starts {
                    let times = starts.split(separator: ",", omittingEmptySubsequences: false)
                        .map { TimeRangeRequest.nanoseconds(String($0)) }
                    guard times.allSatisfy({ $0 != nil }) else {
                        throw FileJob.Failure.usage(
                            "--starts takes seconds separated by commas (0,60.016), not \(starts)")
                    }
                    join.starts = times.compactMap { $0 }
                }
                try await join.run()
                return ExitStatus.finished
            } catch {
                printError(error.message)
                return error.exitStatus
            }
        }
    }
}
