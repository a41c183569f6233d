/// Reads a launch description's tokens as gst-launch-1.0 arguments: element names, `property=value`,
/// `!`, caps, `name.` references, and (for gstpipe's shorthands) file names and URIs. What needs
/// GStreamer's registry or the file system (`isFileName`) is the command line's, in an extension.
package struct TokenReader {
    /// The names given with `name=` in the description: `name.` and `name.pad` refer to them.
    package let names: Set<String>

    package enum Position { case first, last }

    /// A reader for a description that names `names` with `name=`.
    package init(names: Set<String>) { self.names = names }

    /// A `filesink` element and its properties.
    package struct Span {
        package let range: Range<Int>
        package let location: String?
        /// The name of the element that feeds it, when written just before `!`.
        package let feeder: String?
    }

    /// True for `scheme://...`: an ASCII letter, then letters, digits, `+`, `.` or `-`, then `://`.
    /// Read byte by byte: it runs for every token against every output scheme, and Foundation's regular
    /// expression (ICU's, compiled on each call) was a measurable part of gstpipe's start-up.
    package static func isURI(_ token: String) -> Bool {
        var bytes = token.utf8.makeIterator()
        guard let first = bytes.next(), isASCIILetter(first) else { return false }
        while let byte = bytes.next() {
            if byte == UInt8(ascii: ":") {
                return bytes.next() == UInt8(ascii: "/") && bytes.next() == UInt8(ascii: "/")
            }
            guard
                isASCIILetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            else { return false }
        }
        return false
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// Every `filesink` with its properties, last first.
    package func filesinks(in tokens: [String]) -> [Span] {
        var spans: [Span] = []
        for (index, token) in tokens.enumerated() where token == "filesink" && (index == 0 || tokens[index - 1] == "!")
        {
            var end = index + 1
            var location: String?
            while end < tokens.count, tokens[end] != "!", tokens[end].contains("=") {
                if tokens[end].hasPrefix("location=") {
                    location = TokenReader.unquoted(String(tokens[end].dropFirst(9)))
                }
                end += 1
            }
            spans.append(Span(range: index..<end, location: location, feeder: feeder(before: index, in: tokens)))
        }
        return spans.reversed()
    }

    /// The element written before `! element` at `index`: skips back over its properties.
    package func feeder(before index: Int, in tokens: [String]) -> String? {
        guard index >= 2, tokens[index - 1] == "!" else { return nil }
        var position = index - 2
        while position > 0, tokens[position].contains("="), !tokens[position].contains("/") { position -= 1 }
        let token = tokens[position]
        return token == "!" || token.contains("=") || token.contains("/") ? nil : token
    }

    /// `value` without the double quotes around it, if it has them.
    package static func unquoted(_ value: String) -> String {
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
        return String(value.dropFirst().dropLast())
    }

    /// Splits description text on whitespace outside double quotes (a `-f FILE` description).
    package static func tokens(of text: String) -> [String] {
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
            if character == "\\" {
                escaped = true
                current.append(character)
                continue
            }
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
