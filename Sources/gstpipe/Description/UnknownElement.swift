import MediaIO

/// What to say about an element name GStreamer does not know: the closest known names, and the
/// Debian package that usually provides it.
struct UnknownElement {
    let name: String

    /// Up to three known element names within a small edit distance, closest first.
    var closeMatches: [String] {
        let limit = max(2, name.count / 3)
        var scored: [(name: String, distance: Int)] = []
        for candidate in GStreamer.elementNames() {
            let distance = UnknownElement.distance(name, candidate)
            if distance <= limit { scored.append((candidate, distance)) }
        }
        scored.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.name < $1.name }
        return scored.prefix(3).map(\.name)
    }

    var message: String {
        var text = "erroneous pipeline: no element \"\(name)\""
        let matches = closeMatches
        if !matches.isEmpty { text += "\n  Did you mean: \(matches.joined(separator: ", "))?" }
        if let package = ElementFactory.debianPackage(providing: name) {
            text += "\n  \(name) usually comes with the Debian package \(package): sudo apt-get install \(package)"
        } else if matches.isEmpty {
            text +=
                "\n  `gst-inspect-1.0` lists the installed elements; more come with gstreamer1.0-plugins-good, "
                + "-bad, -ugly and gstreamer1.0-libav."
        }
        return text
    }

    /// The element name in GStreamer's `no element "NAME"` message.
    static func name(in message: String) -> String? {
        let parts = message.split(separator: "\"", omittingEmptySubsequences: false)
        return parts.count >= 3 ? String(parts[1]) : nil
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
