import ArgumentParser
import Foundation

/// The command line's options for recording what the description outputs into files that rotate
/// (`--record`, `--record-segment`, `--record-keep`, `--record-max-size`).
struct RecordOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Also record what the description outputs (the same encoding) into files named by this strftime "
                + "pattern, such as rec/%Y-%m-%d/%H-%M-%S.mp4 (.mp4 or .mkv); live inputs only.",
            valueName: "pattern"))
    var record: String?

    @Option(help: ArgumentHelp("Seconds of each recorded file, cut on a key frame (default 60).", valueName: "seconds"))
    var recordSegment: String?

    @Option(
        help: ArgumentHelp(
            "Delete recorded files older than this (90s, 30m, 24h, 7d); never the one being written.",
            valueName: "duration"))
    var recordKeep: String?

    @Option(
        help: ArgumentHelp(
            "Delete the oldest recorded files while they take more than this (500M, 10G); never the one being "
                + "written.", valueName: "size"))
    var recordMaxSize: String?

    /// What the options ask for, nil without `--record`; throws a usage error naming the bad value.
    func settings() throws -> RecordSettings? {
        guard let record else {
            if recordSegment != nil || recordKeep != nil || recordMaxSize != nil {
                throw ValidationError(
                    "--record-segment, --record-keep and --record-max-size go with --record PATTERN: give the pattern.")
            }
            return nil
        }
        var settings = RecordSettings(pattern: try RecordPattern(record))
        if let recordSegment {
            guard let seconds = Double(recordSegment), seconds >= 1, seconds <= 86_400 else {
                throw ValidationError("--record-segment takes seconds from 1 to 86400 (60, 2.5), not \(recordSegment).")
            }
            settings.segmentSeconds = seconds
        }
        if let recordKeep {
            guard let seconds = RecordSettings.seconds(recordKeep), seconds > 0 else {
                throw ValidationError(
                    "--record-keep takes a duration: a number and s, m, h or d (90s, 30m, 24h, 7d), not \(recordKeep).")
            }
            settings.keepSeconds = seconds
        }
        if let recordMaxSize {
            guard let bytes = RecordSettings.bytes(recordMaxSize), bytes > 0 else {
                throw ValidationError(
                    "--record-max-size takes a size: a number and K, M, G or T (500M, 10G), not \(recordMaxSize).")
            }
            settings.maxBytes = bytes
        }
        return settings
    }
}

/// What `--record` and its options say.
struct RecordSettings: Sendable {
    /// Where the files go, by their start.
    var pattern: RecordPattern
    /// The length of each file; each is cut on the first key frame after it.
    var segmentSeconds: Double = 60
    /// Files older than this are deleted; nil keeps them.
    var keepSeconds: Double?
    /// The oldest files are deleted while all take more than this; nil for no limit.
    var maxBytes: Int64?

    /// "90s", "30m", "24h", "7d" (or plain seconds) in seconds; nil when it is not one of those, or not
    /// finite (`inf`, `1e400s`: a retention that keeps everything is no retention, said as an error).
    static func seconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let last = text.last else { return nil }
        let seconds = units[last].flatMap { unit in Double(text.dropLast()).map { $0 * unit } } ?? Double(text)
        return seconds.flatMap { $0.isFinite ? $0 : nil }
    }

    /// "500M", "10G", "1.5T" (powers of 1024, a trailing B or iB allowed; plain bytes too) in bytes; nil
    /// when it is not one of those.
    static func bytes(_ text: String) -> Int64? {
        var text = text.uppercased()
        if text.hasSuffix("IB") { text.removeLast(2) } else if text.hasSuffix("B") { text.removeLast() }
        let units: [Character: Double] = ["K": 0x1p10, "M": 0x1p20, "G": 0x1p30, "T": 0x1p40]
        var scale = 1.0
        if let last = text.last, let unit = units[last] {
            scale = unit
            text.removeLast()
        }
        guard let number = Double(text), number.isFinite, number * scale < 9e18 else { return nil }
        return Int64(number * scale)
    }
}
