import Foundation
import MediaIO

/// The recordings in a folder (as `--record` writes them) on the wall clock: each file's start and
/// end, and the gaps between them, for `gstpipe recordings`.
///
/// A file's start is its creation time (MP4's `mvhd`, to the second; Matroska's `DateUTC`, exact),
/// its length read from its fragments (`FragmentedMP4`) or, for Matroska, by GStreamer's discoverer.
/// Files one after the other in a run are contiguous:
/// the recorder starts each where the one before ended, and names it so, so a file whose start lies
/// within a second of the end of the one before is placed exactly at that end (the creation time's
/// second is all MP4 keeps). A file placed otherwise starts after a gap: the run stopped, or the
/// input was away with no output.
struct RecordingIndex {
    /// One file on the wall clock.
    struct File: Equatable {
        let path: String
        let start: Date
        /// Seconds.
        let duration: Double
        let bytes: Int64

        var end: Date { start.addingTimeInterval(duration) }
    }

    /// A stretch with no file.
    struct Gap: Equatable {
        let start: Date
        let end: Date
    }

    let files: [File]

    /// An index of `files` as they are (already read and placed).
    init(files: [File]) {
        self.files = files
    }

    /// Where no file covers the time between the first file's start and the last one's end.
    var gaps: [Gap] {
        zip(files, files.dropFirst()).compactMap { earlier, later in
            later.start.timeIntervalSince(earlier.end) > Self.tolerance
                ? Gap(start: earlier.end, end: later.start) : nil
        }
    }

    /// Under this, two files are one after the other: less than a frame at 24 frames a second.
    static let tolerance = 0.04

    /// The recordings under `folder` (.mp4 and .mkv files, not those being written), in wall-clock
    /// order. Throws a runtime failure when the folder cannot be read.
    init(folder: String) throws(FileJob.Failure) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw .runtime(
                "\(folder) is not a folder: give the folder --record wrote into (rec for rec/%Y-%m-%d/%H-%M-%S.mp4)")
        }
        let root = URL(fileURLWithPath: folder).standardizedFileURL
        let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey]
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys) else {
            throw .runtime("cannot read the folder \(folder)")
        }
        var found: [File] = []
        for case let url as URL in walker {
            let name = url.lastPathComponent
            guard !name.hasPrefix("."), ["mp4", "mkv"].contains(url.pathExtension.lowercased()),
                let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true,
                let file = Self.read(url, bytes: Int64(values.fileSize ?? 0))
            else { continue }
            found.append(file)
        }
        found.sort { ($0.start, $0.path) < ($1.start, $1.path) }
        // Each file placed at the end of the one before, when it starts within a second of it.
        var placed: [File] = []
        for file in found {
            if let previous = placed.last, abs(file.start.timeIntervalSince(previous.end)) < 1 {
                placed.append(File(path: file.path, start: previous.end, duration: file.duration, bytes: file.bytes))
            } else {
                placed.append(file)
            }
        }
        files = placed
    }

    /// A file's start and length; nil for a file that is no media, has no creation time, or no length.
    private static func read(_ url: URL, bytes: Int64) -> File? {
        let path = url.path
        let matroska = url.pathExtension.lowercased() == "mkv"
        let start =
            matroska ? MatroskaMetadata.creationDate(ofFileAt: path) : MovieHeader.read(from: path)?.creationDate
        let length =
            matroska
            ? (try? MediaInfo.discover(uri: url.absoluteString))?.duration.map { Double($0) / 1e9 }
            : FragmentedMP4.duration(ofFileAt: path)
        guard let start, let length, length > 0 else { return nil }
        return File(path: path, start: start, duration: length, bytes: bytes)
    }

    /// The files that hold some of [from, to).
    func files(from: Date?, to: Date?) -> [File] {
        files.filter { file in
            (from.map { file.end > $0 } ?? true) && (to.map { file.start < $0 } ?? true)
        }
    }

    /// Reads a time as `--from` and `--to` take it: ISO 8601 with a zone (`2026-11-28T05:17:27Z`,
    /// `+01:00`) or without one, in local time (`2026-11-28T06:17:27`, a space for the T allowed),
    /// with fractions of a second or without.
    static func time(_ text: String) -> Date? {
        let text = text.replacingOccurrences(of: " ", with: "T")
        let zoned = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime]
        ] {
            zoned.formatOptions = options
            if let date = zoned.date(from: text) { return date }
        }
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = TimeZone.current
        for format in ["yyyy-MM-dd'T'HH:mm:ss.SSSSSS", "yyyy-MM-dd'T'HH:mm:ss.SSS", "yyyy-MM-dd'T'HH:mm:ss"] {
            local.dateFormat = format
            if let date = local.date(from: text) { return date }
        }
        return nil
    }

    /// `date` in ISO 8601 with milliseconds: UTC for JSON, local time (with its offset) for people.
    static func text(_ date: Date, utc: Bool) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = utc ? TimeZone(identifier: "UTC") : TimeZone.current
        return formatter.string(from: date)
    }
}
