import Foundation
import MediaIO

/// `--start`, `--end` and `--duration` as written, read into nanoseconds; `resolve` checks them
/// against the input and puts them on its frame boundaries (`TimeRange`).
struct TimeRangeRequest: Sendable, Equatable {
    var start: ClockTime = 0
    var end: ClockTime?
    var duration: ClockTime?

    /// Reads a time as the options take it: seconds (`12`, `12.5`, up to 9 decimals) or
    /// `HH:MM:SS.mmm` (`MM:SS` too). Integer arithmetic: `0.1` is 100000000 ns exactly, as a frame
    /// boundary computed from a rate must match it.
    static func nanoseconds(_ text: String) -> ClockTime? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total: ClockTime = 0
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            let pieces = part.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...(isLast ? 2 : 1)).contains(pieces.count), let whole = digits(pieces[0]) else { return nil }
            // Minutes and seconds after a colon are below 60, as a clock writes them.
            if index > 0 && whole >= 60 { return nil }
            total = total * 60 + whole
            guard isLast else { continue }
            // At most about 31 years: two such times added (start + duration) stay far inside
            // ClockTime and GStreamer's signed positions, where a larger number would overflow.
            guard total <= maximumSeconds else { return nil }
            total *= 1_000_000_000
            if pieces.count == 2 {
                let fraction = pieces[1]
                guard (1...9).contains(fraction.count), let value = digits(fraction) else { return nil }
                var scale: ClockTime = 1
                for _ in 0..<(9 - fraction.count) { scale *= 10 }
                total += value * scale
            }
        }
        return total
    }

    /// The longest time the options take, in seconds.
    static let maximumSeconds: ClockTime = 1_000_000_000

    private static func digits(_ text: Substring) -> ClockTime? {
        guard !text.isEmpty, text.count <= 12, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return ClockTime(text)
    }

    /// Seconds with 9 decimals, as plan-segments prints them: 12.500000000.
    static func seconds(_ time: ClockTime) -> String {
        let fraction = String(time % 1_000_000_000)
        return "\(time / 1_000_000_000)." + String(repeating: "0", count: 9 - fraction.count) + fraction
    }

    /// A time for a message, as a user would write it: `2 s`, `2.5 s`, or `01:02:03.25` from a minute
    /// on. Exact (trailing zeros dropped) for a time the user gave; `decimals` rounds a time the file
    /// gave (a length of 10.043666666 s reads 10.044 s).
    static func spoken(_ time: ClockTime, decimals: Int = 9) -> String {
        var unit: ClockTime = 1
        for _ in 0..<(9 - decimals) { unit *= 10 }
        let rounded = (time + unit / 2) / unit * unit
        let whole = rounded / 1_000_000_000
        var fraction = String(rounded % 1_000_000_000)
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let decimalsText = fraction.isEmpty ? "" : "." + fraction
        guard whole >= 60 else { return "\(whole)\(decimalsText) s" }
        func twoDigits(_ value: ClockTime) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(twoDigits(whole / 3600)):\(twoDigits(whole / 60 % 60)):\(twoDigits(whole % 60))\(decimalsText)"
    }

    /// The range on `input`: checked against its length (a start at or past the end, an end before
    /// the start are usage errors), its start and end moved to the first frame at or after them, so
    /// that the frames kept are those whose timestamps are in [start, end) (see below for a start
    /// between frames), as ffmpeg's `-ss S -to E` keeps them when it decodes (`-vsync passthrough`; its default constant-rate output may repeat
    /// or drop a frame at either end, and with B-frames in MP4 its -to goes by decoding timestamps,
    /// which can take in one frame more).
    /// `times`, when given, is what `MediaTimes.read` found in the input (it is read otherwise).
    ///
    /// The length GStreamer gives is not always the file's: a Matroska or WebM file written without
    /// its duration (a live recording) has one estimated from what the demuxer read so far, a
    /// fraction of a second for a file of seconds. So no end is taken from it: without `--end` or
    /// `--duration` the range runs to the file's real end, and a start past the given length is
    /// refused only once the video, read to its end, confirms it.
    func resolve(on input: FileJob.Input, times: MediaTimes? = nil) async throws(FileJob.Failure) -> TimeRange {
        guard !input.isNetwork, input.uri.hasPrefix("file:") else {
            throw .usage(
                "--start, --end and --duration cut files: \(input.name) is a live input, which has no times to seek to")
        }
        var media: MediaTimes
        if let times { media = times } else { media = try await MediaTimes.read(input, warmingUpDecoder: true) }
        let end = end ?? duration.map { start + $0 }
        if let given = media.duration, start >= given {
            // Past the length given: past the video's real end too? (Only here, so a range near the end
            // of a long file is not slowed by a read of the whole file.)
            let path = URL(string: input.uri).flatMap { $0.isFileURL ? $0.path : nil }
            var videoEnd: ClockTime?
            if let path { videoEnd = await VideoEnd.read(path) }
            // Printed to the millisecond below: rounded up, a start just past the end would read as before it.
            let length = max(given, videoEnd ?? 0)
            if start >= length {
                throw .usage(
                    "--start \(Self.spoken(start)) is past the end of \(input.name), which lasts "
                        + "\(Self.spoken(length / 1_000_000 * 1_000_000, decimals: 3)): give a start before it")
            }
        }
        if let end, end <= start {
            throw .usage(
                "the range ends (\(Self.spoken(end))) before it starts (\(Self.spoken(start))): give an --end "
                    + "after --start, or a --duration above 0")
        }
        // The output lasts end - start from its first frame, as ffmpeg's -to counts (its trim keeps
        // frames less than the duration after the first one kept): a start between frames moves the
        // end by as much. On frame boundaries that is [start, end) itself. The file's own end stays
        // as it is: past it there is no frame to move to.
        // The frames around the start, read from the file: a variable rate (frames off the nominal
        // grid or missing from it, or no rate at all) is cut on the frames' own timestamps. The seek
        // then goes 1 ns before the first frame when a frame comes before it: the decoder clips that
        // one to start there, not on the first frame, and RangeCut drops it (ffmpeg does not keep it);
        // 1 ns is below any container's precision, so the output still starts at zero.
        // ffmpeg counts -ss and -to from the file's start time: with Opus in Matroska that is the
        // pre-skip before zero (`MediaTimes.startOffset`), so it cuts that much earlier in the video.
        let shift = media.startOffset
        let cutStart = start > shift ? start - shift : 0
        let cutEnd = end.map { max($0, shift + 1) - shift }
        var firstFrame: ClockTime?
        var seekStart: ClockTime?
        // At zero without a rate there is nothing to learn: no frame before the start, no grid to check.
        if cutStart > 0 || media.frameRate != nil, media.hasVideo,
            let path = URL(string: input.uri).flatMap({ $0.isFileURL ? $0.path : nil }),
            let frames = await FramesAroundStart.read(path, start: cutStart), let frame = frames.first,
            !media.isEveryFrame(frames.presented)
        {
            media.frameRate = nil
            firstFrame = frame
            seekStart = frames.before == nil ? frame : frame - 1
        }
        let first = firstFrame ?? media.frameBoundary(atOrAfter: cutStart)
        let snappedEnd = cutEnd.map { end in media.frameBoundary(atOrAfter: end + first - cutStart) }
        return TimeRange(
            start: seekStart ?? first, end: snappedEnd, frameDuration: media.frameDuration, firstFrame: firstFrame)
    }
}

/// The part of a file a run reads: frames whose timestamps are in [start, end), on frame boundaries.
struct TimeRange: Sendable, Equatable {
    /// The first frame's timestamp, in nanoseconds.
    var start: ClockTime
    /// The timestamp of the first frame left out; nil to the end of the file.
    var end: ClockTime?
    /// One frame's length, nil for audio alone or a rate the container does not say.
    var frameDuration: ClockTime?
    /// Without a frame rate, the first frame's timestamp when the seek goes just before it: frames
    /// before it are dropped.
    var firstFrame: ClockTime?
}

extension FileJob {
    /// Applies `--start`/`--end`/`--duration` (resolved on the input), `--no-audio` and `--no-video`,
    /// refusing them where they mean nothing: no file input, video left out of a description that
    /// writes video, audio left out of one that writes audio.
    mutating func applyStreamChoice(range request: TimeRangeRequest?, noAudio: Bool, noVideo: Bool)
        async throws(Failure)
    {
        if request != nil || noAudio || noVideo {
            guard let input else {
                throw .usage(
                    "--start, --end, --duration, --no-audio and --no-video apply to a file input: begin the "
                        + "description with one, such as gstpipe in.mp4 --start 10 --end 20 ! out.mp4")
            }
            if let request { range = try await request.resolve(on: input) }
        }
        if noVideo && media != .audio {
            throw .usage(
                "--no-video leaves the video out, and this description writes video: name an audio file "
                    + "(.m4a, .mka, .wav, .flac, .ogg, .mp3) or put audioconvert in it")
        }
        if noAudio && media == .audio {
            throw .usage(
                "--no-audio leaves the audio out, and this description writes audio alone: give --no-video, or neither")
        }
        if noAudio {
            for index in outputs.indices { outputs[index].audioEncoder = nil }
            notesIfAudio.removeAll()
        }
    }
}

extension FileJob.Failure {
    /// What went wrong, for the user.
    var message: String {
        switch self {
        case .usage(let text), .runtime(let text): text
        }
    }

    /// 2 for usage, 1 for runtime.
    var exitStatus: Int32 {
        switch self {
        case .usage: ExitStatus.usage
        case .runtime: ExitStatus.runtimeError
        }
    }
}
