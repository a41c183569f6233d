import ArgumentParser
import Foundation
import MediaIO

extension GstPipeCommand {
    /// `gstpipe plan-segments IN --segment-seconds N`: the segments a long file is cut into, for
    /// transcoding them apart (`gstpipe IN --start S --end E ! DESC ! seg.mp4`) and joining them.
    struct PlanSegments: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plan-segments",
            abstract: "Print the segments (on frame boundaries) to transcode a file in, for gstpipe join.",
            discussion: """
                Each line is INDEX START END FRAMES: START and END in seconds with 9 decimals, END \
                excluded (the next segment's START), FRAMES the video frames in it. --json prints \
                {"input", "frameRate", "durationNs", "segments": [{"index", "startNs", "endNs", "start", \
                "end", "frames"}]}.

                Example:
                  gstpipe plan-segments film.mp4 --segment-seconds 60 |
                    while read i s e n; do gstpipe film.mp4 --start $s --end $e --no-audio ! gray ! seg$i.mp4; done
                """)

        @Argument(help: "The file to plan.")
        var input: String

        @Option(help: ArgumentHelp("The length of each segment, in seconds (the last may be shorter).", valueName: "N"))
        var segmentSeconds: String

        @Option(help: ArgumentHelp("Plan from this time (seconds or HH:MM:SS.mmm).", valueName: "time"))
        var start: String?

        @Option(help: ArgumentHelp("Plan up to this time (excluded).", valueName: "time"))
        var end: String?

        @Flag(help: "Print JSON instead of one line a segment.")
        var json = false

        func run() async throws {
            // Read as the run reads it: a WebM with alpha is planned on its colour alone.
            AlphaVideo.decodeWithoutAlpha()
            guard let length = TimeRangeRequest.nanoseconds(segmentSeconds), length > 0 else {
                throw ValidationError("--segment-seconds takes seconds above 0 (60, 12.5), not \(segmentSeconds).")
            }
            let request = try RangeOptions.request(start: start, end: end, duration: nil) ?? TimeRangeRequest()
            let file: FileJob.Input
            var range: TimeRange
            var times: MediaTimes
            do throws(FileJob.Failure) {
                file = try FileJob.readInput(input)
                times = try await MediaTimes.read(file)
                // Segments hold video frames: a file without video has none to plan (and reading its
                // packets would wait for video that never comes).
                guard times.hasVideo else {
                    throw FileJob.Failure.runtime(
                        "\(file.name) has no video stream: plan-segments cuts a video on its frames")
                }
                // Segments end with the video, which may stop before the container's length.
                // filesrc reads a path: `input` may be a file:// URI.
                let path = URL(string: file.uri).flatMap { $0.isFileURL ? $0.path : nil } ?? input
                let containerLength = times.duration
                // A stated rate may hold for the first frames only (a recording that turns variable
                // later): a plan on it would count frames that are not there and join them at the wrong
                // times. Checked in windows over the file; a variable rate is then planned on every
                // frame's time, read from the whole file (demuxer and parser, no decoder).
                var frames: (times: [ClockTime], end: ClockTime)?
                if times.frameRate != nil, let duration = times.duration,
                    await StatedRateCheck.holds(times, path: path, duration: duration)
                {
                    // No end found: no frame could be parsed to the file's end (no media data, or cut off).
                    guard let end = await VideoEnd.read(path, duration: duration) else {
                        throw Self.unreadable(file)
                    }
                    times.duration = Self.videoEnd(end, stated: duration, times: times)
                } else {
                    // (Also when a window holds no frame: a video far shorter than the file.)
                    frames = await VideoEnd.frameTimes(path)
                    guard let frames, !frames.times.isEmpty else { throw Self.unreadable(file) }
                    if times.isEveryFrame(frames.times) {
                        // No stated length (an elementary stream, a WebM without Duration): the frames'.
                        let end =
                            times.duration.map { Self.videoEnd(frames.end, stated: $0, times: times) }
                            ?? times.frameBoundary(atOrAfter: frames.end)
                        times.duration = end
                    } else {
                        times.frameRate = nil
                        Self.planOnFrames(&times, frames: frames)
                    }
                }
                range = try await request.resolve(on: file, times: times)
                if times.frameRate != nil, range.firstFrame != nil {
                    // The stated rate is not the frames' (resolve found them off its grid, and cut the
                    // range on them): the segments go on the frames too, as the runs will cut them.
                    times.frameRate = nil
                    times.duration = containerLength
                    if frames == nil { frames = await VideoEnd.frameTimes(path) }
                    guard let frames, !frames.times.isEmpty else { throw Self.unreadable(file) }
                    Self.planOnFrames(&times, frames: frames)
                    range = try await request.resolve(on: file, times: times)
                }
            } catch {
                printError(error.message)
                throw ExitCode(error.exitStatus)
            }
            let plan = SegmentPlan(input: input, times: times, range: range, length: length)
            writeStandardOutput(json ? plan.json : plan.text)
        }

        /// Where a constant-rate video ends: on the frame boundary at or after the last frame's `end`,
        /// within the `stated` length; or at `end` when the stated length falls more than a frame short
        /// of it (a WebM's Duration written before the recording ended: the frames say where it ends).
        private static func videoEnd(_ end: ClockTime, stated: ClockTime, times: MediaTimes) -> ClockTime {
            end > stated + (times.frameDuration ?? 0) ? end : min(times.frameBoundary(atOrAfter: end), stated)
        }

        /// A variable rate: segments start on the frames themselves (`frames`, every frame's time read
        /// from the whole file, at least one), so that none starts with a gap its file could not keep
        /// (mp4mux moves a first frame to zero).
        private static func planOnFrames(_ times: inout MediaTimes, frames: (times: [ClockTime], end: ClockTime)) {
            let last = frames.times.last ?? 0
            times.frameTimes = frames.times
            // A container's length shorter than its frames is wrong (a WebM written without a Duration,
            // which GStreamer's discoverer then guesses from its first blocks): the frames say where the
            // video ends. A last frame without a duration ends where the container does.
            let container = times.duration.flatMap { $0 > last ? $0 : nil }
            times.duration = frames.end > last ? min(frames.end, container ?? frames.end) : container ?? last + 1
        }

        /// The error for a video whose frames cannot be read to the end.
        private static func unreadable(_ file: FileJob.Input) -> FileJob.Failure {
            .runtime(
                "no video frames could be read from \(file.name) to its end: the file is damaged, truncated or "
                    + "holds no pictures (gstpipe \(file.name) ! gray ! out.mkv writes what can be decoded)")
        }
    }
}
