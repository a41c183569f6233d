import Foundation
import GstPipeParsing
import MediaIO

/// What reading a description's tokens asks of GStreamer's registry and the file system.
extension TokenReader {
    /// True for the URIs gstpipe decodes: media files (file, http, https) and live network sources
    /// (`StreamInput`); other URIs (v4l2://, ...) stay what gst-launch-1.0 makes of them: a source element.
    static func isMediaFileURI(_ token: String) -> Bool {
        ["file://", "http://", "https://"].contains { token.lowercased().hasPrefix($0) }
            || StreamInput.named(token) != nil
    }

    /// True when `token`, first or last in the description, names a file (or a URI) rather than an
    /// element, a caps string or a `name.pad` reference. A file named like an element (`./gray`)
    /// needs a path.
    func isFileName(_ token: String, position: Position) -> Bool {
        // A URI first: its query may hold `=` (srt://host:9000?latency=200).
        if TokenReader.isURI(token) { return position == .first && TokenReader.isMediaFileURI(token) }
        if token == "!" || token.contains("=") || token.hasSuffix(".") { return false }
        if token.contains("/") {
            // Caps (video/x-raw, ...) are not files, unless a file of that name exists.
            let capsPrefix = ["video/", "audio/", "image/", "application/", "text/", "subpicture/", "closedcaption/"]
            return FileManager.default.fileExists(atPath: token) || !capsPrefix.contains { token.hasPrefix($0) }
        }
        if GStreamer.hasElement(named: token) { return false }
        if position == .first && FileManager.default.fileExists(atPath: token) { return true }
        // name.pad references a named element (named in the description, or by default: queue0);
        // anything else with an extension is a file name.
        guard let dot = token.lastIndex(of: "."), dot != token.startIndex else { return false }
        let prefix = String(token[..<token.firstIndex(of: ".")!])
        return !isElementName(prefix) && token[token.index(after: dot)...].allSatisfy { $0.isLetter || $0.isNumber }
    }

    /// A name given with `name=`, or a default name: a factory name and a number (queue0, gray1).
    private func isElementName(_ name: String) -> Bool {
        if names.contains(name) { return true }
        let factory = String(name.reversed().drop { $0.isNumber }.reversed())
        return factory.count < name.count && GStreamer.hasElement(named: factory)
    }
}
