/// A command line that is a description alone, perhaps with `-q`, `-v`, `-m` or `--stats`: run without
/// ArgumentParser. Parsing the whole command (its option groups, help texts and their types' conformance
/// lookups) was an eighth of the start-up of `gstpipe -q noise num-buffers=1 ! fakesink`, which scripts
/// calling gstpipe in a loop and every farm segment pay; what it would find for such a line is the
/// defaults, which `RunOptions()` has. Anything else (another option, `--`, `help`, a subcommand) goes
/// through ArgumentParser, which checks it and explains mistakes.
struct PlainDescription {
    let description: [String]
    let options: RunOptions

    /// Nil unless every argument is a description's token or one of `-q`, `-v`, `-m` and `--stats` (long or
    /// short), and there is a description.
    init?(_ arguments: [String]) {
        var options = RunOptions()
        var description: [String] = []
        for argument in arguments {
            // Each flag sets its field as its ArgumentParser flag would.
            switch argument {
            case "-q", "--quiet": options.quiet = true
            case "-v", "--verbose": options.verbose = true
            case "-m", "--messages": options.printMessages = true
            case "--stats": options.stats = true
            case _ where argument.hasPrefix("-") || argument == "help": return nil
            default: description.append(argument)
            }
        }
        guard !description.isEmpty else { return nil }
        self.description = description
        self.options = options
    }
}
