import ArgumentParser
import Foundation

/// A `--record` pattern: a file path whose strftime conversions (`%Y-%m-%d/%H-%M-%S.mp4`) are filled
/// in with the local time each file starts. It names every file the recording writes, tells its
/// files from anything else in their folders (`matches`: retention deletes only those) and says
/// where they go (`root`, the folders before the first conversion, made at start).
struct RecordPattern: Sendable {
    /// The pattern as given.
    let text: String
    /// The container, from the extension: "mp4" or "mkv".
    let container: String

    /// The conversions a pattern may hold, each with the regular expression its output matches.
    private static let conversions: [Character: String] = [
        "Y": "[0-9]{4}", "y": "[0-9]{2}", "m": "[0-9]{2}", "d": "[0-9]{2}", "H": "[0-9]{2}", "M": "[0-9]{2}",
        "S": "[0-9]{2}", "j": "[0-9]{3}", "s": "[0-9]+", "F": "[0-9]{4}-[0-9]{2}-[0-9]{2}",
        "T": "[0-9]{2}:[0-9]{2}:[0-9]{2}", "z": "[+-][0-9]{4}", "%": "%"
    ]

    /// Reads `text`; throws a usage error when its container is not one recordings are written in or
    /// it holds a conversion other than those of `conversions`, or no seconds (two files would get one
    /// name).
    init(_ text: String) throws {
        self.text = text
        let fileExtension = URL(fileURLWithPath: text).pathExtension.lowercased()
        guard ["mp4", "mkv"].contains(fileExtension) else {
            throw ValidationError(
                "--record writes .mp4 (fragmented, playable after a crash) or .mkv files: end \(text) in one of them.")
        }
        container = fileExtension
        var seconds = false
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            guard character == "%" else { continue }
            guard let conversion = iterator.next(), Self.conversions[conversion] != nil else {
                throw ValidationError(
                    "--record \(text): the pattern takes %Y %y %m %d %H %M %S %j %s %F %T %z and %% only.")
            }
            if "STs".contains(conversion) { seconds = true }
        }
        guard seconds else {
            throw ValidationError(
                "--record \(text): the pattern must hold the seconds (%S, %T or %s), so that each file has a name "
                    + "of its own, such as rec/%Y-%m-%d/%H-%M-%S.mp4.")
        }
    }

    /// The folder under which every file of the pattern goes: its folders before the first that holds a
    /// conversion ("rec" for rec/%Y-%m-%d/%H-%M-%S.mp4, "." for %H-%M-%S.mp4).
    var root: URL {
        var folder = URL(fileURLWithPath: text).standardizedFileURL.deletingLastPathComponent()
        while folder.path.contains("%") { folder.deleteLastPathComponent() }
        return folder
    }

    /// The path of a file that starts at `date`, in local time.
    func path(startingAt date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = strftime(&buffer, buffer.count, text, &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The temporary name of the file that will be `path` once whole: hidden, beside it.
    static func partialPath(of path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial").path
    }

    /// True when `path` (standardized, absolute) is a whole file this pattern names, perhaps with the
    /// `-N` that tells apart two files that start in the same second.
    func matches(_ path: String) -> Bool {
        path.range(of: expression, options: .regularExpression) != nil
    }

    private var expression: String {
        let absolute = URL(fileURLWithPath: text).standardizedFileURL.path
        let stem = String(absolute.dropLast(container.count + 1))
        var result = "^"
        var iterator = stem.makeIterator()
        while let character = iterator.next() {
            if character == "%", let conversion = iterator.next(), let matching = Self.conversions[conversion] {
                result += matching
            } else {
                result += NSRegularExpression.escapedPattern(for: String(character))
            }
        }
        return result + "(-[0-9]+)?\\.\(container)$"
    }

    /// Makes `root` and checks that files can be written in it: a usage error naming the folder when not.
    func prepare() throws(FileJob.Failure) {
        let folder = root.path
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
            throw .usage(
                "--record \(text): \(folder) is a file, not a folder: choose another folder for the recordings")
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .usage("--record \(text): cannot make the folder \(folder): \(Self.reason(error))")
        }
        guard access(folder, W_OK | X_OK) == 0 else {
            throw .usage(
                "--record \(text): cannot write in \(folder): \(String(cString: strerror(errno))) "
                    + "(choose a folder you can write to)")
        }
    }

    /// What went wrong with a file operation, in the system's words.
    static func reason(_ error: any Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }
}
