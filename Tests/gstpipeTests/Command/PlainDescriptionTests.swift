import Foundation
import Testing

@testable import gstpipe

/// A description alone (with -q, -v, -m or --stats) runs without ArgumentParser: the options it gets
/// must be the ones ArgumentParser gives the same line, and anything else must go to ArgumentParser.
@Suite("A plain description is run without ArgumentParser, with the options it would have given")
struct PlainDescriptionTests {
    static func dumped(_ options: RunOptions) -> String {
        var text = ""
        dump(options, to: &text)
        return text
    }

    @Test(
        "Same options as ArgumentParser's",
        arguments: [
            ["noise", "num-buffers=1", "!", "fakesink"],
            ["-q", "noise", "!", "gray", "!", "out.mp4"],
            ["in.mp4", "!", "gray", "!", "--stats", "videobalance", "brightness=-0.5", "!", "fakesink", "-v"],
            ["--quiet", "--verbose", "--messages", "-m", "audiotestsrc", "!", "tone.wav"]
        ])
    func sameOptions(_ line: [String]) throws {
        let plain = try #require(PlainDescription(line))
        let parsed = try #require(try GstPipeCommand.parseAsRoot(line) as? GstPipeCommand)
        #expect(Self.dumped(plain.options) == Self.dumped(try parsed.runOptions()))
        #expect(plain.description == parsed.description)
        #expect(plain.options.quiet == line.contains { $0 == "-q" || $0 == "--quiet" })
    }

    @Test(
        "Other options, help, an empty line and subcommands are left to ArgumentParser",
        arguments: [
            [], ["-q"], ["help"], ["--help"], ["--timeout", "5", "rtsp://cam/x", "!", "fakesink"],
            ["noise", "!", "fakesink", "--reconect"], ["-qv", "noise", "!", "fakesink"], ["--", "noise"],
            ["noise", "!", "gray", "!", "out.mp4", "--graph=g.svg"], ["-f", "x.pipeline"]
        ])
    func leftToArgumentParser(_ line: [String]) {
        #expect(PlainDescription(line) == nil)
    }

    @Test("gstpipe -q noise num-buffers=3 ! gray ! fakesink exits 0 and prints nothing")
    func runs() throws {
        let result = try CLI.run(["-q", "noise", "num-buffers=3", "!", "gray", "!", "fakesink"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result.stdout)\(result.stderr)")
    }
}
