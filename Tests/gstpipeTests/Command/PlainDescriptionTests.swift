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

    /// The files the dynamic loader opened for a run (`LD_DEBUG=files`), by name, and the run's status. Only
    /// gstpipe's own lines count: a stale registry has GStreamer start gst-plugin-scanner, which loads every
    /// plugin's libraries and writes to the same stderr. Each line starts with its process's id, and gstpipe's
    /// are the first.
    static func openedLibraries(_ arguments: [String]) throws -> (status: Int32, files: Set<String>) {
        let result = try CLI.run(arguments, environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "LD_DEBUG": "files"])
        let lines = result.stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let process = lines.first { $0.first?.isNumber == true }?.prefix { $0 != ":" }
        let names = lines.compactMap { line -> String? in
            guard let process, line.hasPrefix(process + ":"), let range = line.range(of: "file=") else { return nil }
            let path = line[range.upperBound...].prefix { $0 != " " }
            return path.split(separator: "/").last.map(String.init)
        }
        return (result.status, Set(names))
    }

    @Test(
        "A plain run opens none of the libraries only the servers, clients and x264grayenc use; the encoder opens its own"
    )
    func serverLibrariesOnDemand() throws {
        let plain = try Self.openedLibraries(["-q", "noise", "num-buffers=3", "!", "gray", "!", "fakesink"])
        #expect(plain.status == 0)
        #expect(plain.files.contains("libgstreamer-1.0.so.0"), "\(plain.files.sorted())")
        let onDemand = [
            "libgstrtspserver-1.0.so.0", "libgstrtsp-1.0.so.0", "libgstwebrtc-1.0.so.0", "libgstsdp-1.0.so.0",
            "libgio-2.0.so.0"
        ]
        #expect(plain.files.isDisjoint(with: onDemand), "\(plain.files.sorted())")
        #expect(!plain.files.contains { $0.hasPrefix("libx264.so") }, "\(plain.files.sorted())")
        let encoding = try Self.openedLibraries([
            "-q", "noise", "num-buffers=3", "!", "video/x-raw,format=GRAY8,width=64,height=48", "!", "x264grayenc",
            "!", "fakesink"
        ])
        #expect(encoding.status == 0)
        #expect(encoding.files.contains { $0.hasPrefix("libx264.so") }, "\(encoding.files.sorted())")
    }
}
