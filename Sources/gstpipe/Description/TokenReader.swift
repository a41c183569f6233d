import Foundation
import MediaIO

/// Reads a launch description's tokens as gst-launch-1.0 arguments: element names, `property=value`,
/// `!`, caps, `name.` references, and (for gstpipe's shorthands) file names and URIs.
struct TokenReader {
    /// The names given with `name=` in the description: `name.` and `name.pad` refer to them.
    let names: Set<String>

    enum Position { case first, last }

    /// A `filesink` element and its properties.
    struct Span {
        let range: Range<Int>
        let location: String?
        /// The name of the element that feeds it, when written just before `!`.
        let feeder: String?
    }

    /// True for `scheme://...`.
    static func isURI(_ token: String) -> Bool {
        token.range(of: #"^[A-Za-z][A-Za-z0-9+.-]*://"#, options: .regularExpression) != nil
    }

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

    /// Every `filesink` with its properties, last first.
    func filesinks(in tokens: [String]) -> [Span] {
        var spans: [Span] = []
        for (index, token) in tokens.enumerated() where token == "filesink" && (index == 0 || tokens[index - 1] == "!") {
            var end = index + 1
            var location: String?
            while end < tokens.count, tokens[end] != "!", tokens[end].contains("=") {
                if tokens[end].hasPrefix("location=") { location = TokenReader.unquoted(String(tokens[end].dropFirst(9))) }
                end += 1
            }
            spans.append(Span(range: index..<end, location: location, feeder: feeder(before: index, in: tokens)))
        }
        return spans.reversed()
    }

    /// The element written before `! element` at `index`: skips back over its properties.
    func feeder(before index: Int, in tokens: [String]) -> String? {
        guard index >= 2, tokens[index - 1] == "!" else { return nil }
        var position = index - 2
        while position > 0, tokens[position].contains("="), !tokens[position].contains("/") { position -= 1 }
        let token = tokens[position]
        return token == "!" || token.contains("=") || token.contains("/") ? nil : token
    }

    static func unquoted(_ value: String) -> String {
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
        return String(value.dropFirst().dropLast())
    }

    /// Splits description text on whitespace outside double quotes (a `-f FILE` description).
    static func tokens(of text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            if character == "\\" { escaped = true; current.append(character); continue }
            if character == "\"" { quoted.toggle() }
            if character.isWhitespace && !quoted {
                if !current.isEmpty { tokens.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }
}
