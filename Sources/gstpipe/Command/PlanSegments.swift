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
            do {
                file = try FileJob.readInput(input)
                times = try await MediaTimes.read(file)
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
                    if let end = await VideoEnd.read(path, duration: duration) {
                        times.duration = min(times.frameBoundary(atOrAfter: end), duration)
                    }
                } else {
                    // (Also when a window holds no frame: a video far shorter than the file.)
                    frames = await VideoEnd.frameTimes(path)
                    if let frames, times.isEveryFrame(frames.times) {
                        if let duration = times.duration {
                            times.duration = min(times.frameBoundary(atOrAfter: frames.end), duration)
                        }
                    } else if let frames {
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
                    if let frames { Self.planOnFrames(&times, frames: frames) }
                    range = try await request.resolve(on: file, times: times)
                }
            } catch {
                printError(error.message)
                throw ExitCode(error.exitStatus)
            }
            let plan = SegmentPlan(input: input, times: times, range: range, length: length)
            writeStandardOutput(json ? plan.json : plan.text)
        }

        /// A variable rate: segments start on the frames themselves (`frames`, every frame's time read
        /// from the whole file), so that none starts with a gap its file could not keep (mp4mux moves a
        /// first frame to zero).
        private static func planOnFrames(_ times: inout MediaTimes, frames: (times: [ClockTime], end: ClockTime)) {
            times.frameTimes = frames.times
            // A last frame without a duration ends where the container does.
            let last = frames.times.last ?? 0
            times.duration =
                frames.end > last ? min(frames.end, times.duration ?? frames.end) : times.duration ?? last + 1
        }
    }
}
