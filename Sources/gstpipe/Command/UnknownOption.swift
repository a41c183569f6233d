import ArgumentParser

/// Mistyped options. The description takes every token ArgumentParser does not know (options may stand
/// anywhere, as for gst-launch-1.0), so without this check `--reconect` would reach GStreamer's parser and
/// come back as its "syntax error". No token of a description starts with `--`, nor is a dash and one
/// letter: such a token can only be an option.
enum UnknownOption {
    /// The first token of `description` that can only be an option gstpipe does not have.
    static func first(in description: [String]) -> String? {
        description.first { token in
            let characters = Array(token)
            if token.hasPrefix("--") { return characters.count > 2 && characters[2].isLetter }
            return characters.count == 2 && characters[0] == "-" && characters[1].isLetter
        }
    }

    /// Says which option is unknown and, when one is close, which was meant.
    static func message(for token: String, known: [String]) -> String {
        let name = String(token.split(separator: "=", maxSplits: 1).first ?? Substring(token))
        var text = "Unknown option '\(name)'."
        if name == "-e" || name == "--eos-on-shutdown" {
            // gst-launch-1.0's flag: gstpipe does it unasked.
            text += " gstpipe sends end of stream on Ctrl-C by default (--no-eos-on-shutdown stops at once)."
        } else if name.hasPrefix("--"), let nearest = nearest(to: name, in: known.filter { $0.hasPrefix("--") }) {
            // A short option is one letter from every other: only a long one can be told as a typo.
            text += " Did you mean '\(nearest)'?"
        }
        return text + " See 'gstpipe --help' for the options."
    }

    /// The known option closest to `name`, when it is close enough to be a typo: at most a third of its
    /// letters (at least two) inserted, removed or changed.
    static func nearest(to name: String, in known: [String]) -> String? {
        let limit = max(2, name.count / 3)
        let scored = known.map { (option: $0, distance: distance(name, $0)) }.filter { $0.distance <= limit }
        return scored.min { $0.distance < $1.distance }?.option
    }

    /// The options of `command`'s help (long and short names), as typed.
    static func names<Command: ParsableCommand>(of command: Command.Type) -> [String] {
        let help = command.helpMessage(columns: 10_000)
        var names: Set<String> = []
        var token = ""
        for character in help + " " {
            if character.isLetter || character.isNumber || character == "-" {
                token.append(character)
                continue
            }
            if token.hasPrefix("--") && token.count > 2
                || token.count == 2 && token.hasPrefix("-") && token.last!.isLetter
            {
                names.insert(token)
            }
            token = ""
        }
        return names.sorted()
    }

    /// Levenshtein distance: the fewest characters inserted, removed or changed to turn `a` into `b`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
