import ArgumentParser
import MediaIO

/// The command line's options for reading part of a file input (`--start`, `--end`, `--duration`)
/// and leaving one of its kinds of stream out (`--no-audio`, `--no-video`).
struct RangeOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Start at this time of a file input: seconds (12.5, up to 9 decimals) or HH:MM:SS.mmm. The output "
                + "holds the frames from there, timestamps from zero, the audio cut to the same span.",
            valueName: "time"))
    var start: String?

    @Option(
        help: ArgumentHelp(
            "Stop before this time of a file input (frames in [start, end) are kept).", valueName: "time"))
    var end: String?

    @Option(help: ArgumentHelp("Keep this long of a file input from --start (instead of --end).", valueName: "time"))
    var duration: String?

    @Flag(help: "Leave the input's audio out: the output holds video alone.")
    var noAudio = false

    @Flag(help: "Leave the input's video out: the output holds audio alone (name an audio file: .m4a, .mka, .wav...).")
    var noVideo = false

    /// The range asked for, nil when none; throws a usage error naming the bad value.
    func request() throws -> TimeRangeRequest? {
        if noAudio && noVideo {
            throw ValidationError("--no-audio and --no-video leave nothing to write: give one of them.")
        }
        return try Self.request(start: start, end: end, duration: duration)
    }

    /// `--start`, `--end` and `--duration` read, nil when none is given.
    static func request(start: String?, end: String?, duration: String?) throws -> TimeRangeRequest? {
        if end != nil && duration != nil {
            throw ValidationError("Give --end or --duration, not both: --duration counts from --start.")
        }
        guard start != nil || end != nil || duration != nil else { return nil }
        var request = TimeRangeRequest()
        if let start { request.start = try time(start, "--start") }
        if let end { request.end = try time(end, "--end") }
        if let duration {
            let length = try time(duration, "--duration")
            guard length > 0 else { throw ValidationError("--duration takes a length above 0, not \(duration).") }
            request.duration = length
        }
        return request
    }

    private static func time(_ text: String, _ option: String) throws -> ClockTime {
        guard let time = TimeRangeRequest.nanoseconds(text) else {
            throw ValidationError(
                "\(option) takes seconds (12, 12.5, up to 9 decimals, at most "
                    + "\(TimeRangeRequest.maximumSeconds)) or HH:MM:SS.mmm, not \(text).")
        }
        return time
    }
}
