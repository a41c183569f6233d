import Foundation
import Testing

/// SplitMix64: a small, seedable generator, so a failing run can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Garbled gst-launch descriptions: valid, bounded pipelines with Swift elements, each bent by one to
/// three mutations (stray tokens, bad property values, bad caps, Swift elements in odd places,
/// dropped or duplicated tokens).
///
/// Every source in a description stays bounded (num-buffers is never dropped, nor made endless nor
/// 0), so a run that does not end is a hang, not a long pipeline. Not generated: a sink with nothing
/// upstream while every source's data goes elsewhere (`noise num-buffers=3 ! fakesink fakesink`, or
/// `( videotestsrc num-buffers=0 ! identity ) fakesink`): it never prerolls, and gst-launch-1.0
/// waits forever there too — GStreamer's semantics, not a fault to find here. A cut-off sink
/// downstream of a source that sends buffers is fine: the unlinked pad fails with not-linked. Nor
/// generated: loops (an element linked back into itself through others), which GStreamer 1.22 cannot
/// parse without crashing or run without hanging (see `strayTokens`).
enum GarbledDescriptions {
    static let bases = [
        "noise num-buffers=3 width=32 height=24 ! gray ! fakesink",
        "videotestsrc num-buffers=3 ! video/x-raw,width=32,height=24 ! gray ! fakesink",
        "noise num-buffers=3 ! video/x-raw,format=BGRA,width=16,height=8 ! gray ! videoconvert ! fakesink",
        "noise num-buffers=3 width=16 height=8 ! tee name=t t. ! queue ! gray ! fakesink t. ! queue ! fakesink",
        "( noise num-buffers=3 width=16 height=8 ! gray ) ! fakesink",
        "noise num-buffers=3 width=16 height=8 ! gray gray8=true ! gray matrix=bt709 ! fakesink"
    ]
    // No stray "t.": `tee name=t ! queue ! t.` links the tee back into itself, and GStreamer 1.22's
    // parser then recurses through the loop's caps queries until the stack overflows: a segfault in
    // gst_parse_launch_full, in gst-launch-1.0 as in gstpipe (`tee name=t ! queue ! t. t. ! fakesink`).
    static let strayTokens = ["!", "(", ")", ".", ",", "name=", "=", "! !", "{", "\"", "'", "]", "[", ";"]
    static let badValues = [
        "", "-1", "0", "abc", "99999999999999999999", "1.5", "-2147483649", "true", "/", "\"\"",
        "video/x-raw", "bt2020", "1/0", "[1,2]"
    ]
    // num-buffers must stay bounded: no -1. An out-of-range value such as -2, which GLib only warns
    // about (gst-launch-1.0 then runs endlessly), is a parse error in gstpipe (exit 2). Nor 0: a source
    // that sends no buffer raises no not-linked error, so a sink cut off by a dropped `!` would wait
    // for its preroll forever (see above).
    static let badBufferCounts = ["abc", "1.5", "99999999999999999999", "1", "[1,2]", "3x", "", "-2", "-2147483649"]
    static let badCaps = [
        "video/x-raw,width=0", "video/x-raw,format=NOPE", "video/x-raw,width=[1,", "video/x-raw,framerate=0/0",
        "video/x-raw,width=-5,height=-5", "x/y", "video/x-raw,format=GRAY8,width=1,height=1",
        "video/x-raw(memory:GLMemory)", "audio/x-raw", "video/x-raw,width=(string)wide", "video/x-raw,,",
        "video/x-raw,format={I420,BGRA},width=7,height=3"
    ]
    static let oddSwift = [
        "gray ! noise num-buffers=2", "noise num-buffers=2 ! noise num-buffers=2", "gray name=a a. ! a.",
        "gray name=g ! g.", "noise num-buffers=2 name=n n. ! n.", "gray ! gray", "noise num-buffers=2 ! gray ! gray",
        "( gray )", "( noise num-buffers=2 )", "gray ! tee", "noise num-buffers=2 gray"
    ]

    static func make(using generator: inout SeededGenerator) -> [String] {
        var tokens = bases.randomElement(using: &generator)!.split(separator: " ").map(String.init)
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let position = Int.random(in: 0...tokens.count, using: &generator)
            // Weighted towards mutations that still parse, so that runs reach the running pipeline.
            switch [0, 1, 1, 2, 2, 3, 3, 3, 4, 5].randomElement(using: &generator)! {
            case 0:
                let stray = strayTokens.randomElement(using: &generator)!
                // "name=" right before num-buffers=3 would take that token as its value, unbounding the source.
                if stray.hasSuffix("="), position < tokens.count, tokens[position].hasPrefix("num-buffers=") {
                    continue
                }
                tokens.insert(contentsOf: stray.split(separator: " ").map(String.init), at: position)
            case 1:
                let properties = tokens.indices.filter { tokens[$0].contains("=") && !tokens[$0].contains("/") }
                guard let index = properties.randomElement(using: &generator) else { continue }
                let name = tokens[index].prefix { $0 != "=" }
                let values = name == "num-buffers" ? badBufferCounts : badValues
                tokens[index] = "\(name)=\(values.randomElement(using: &generator)!)"
            case 2:
                tokens.insert(contentsOf: ["!", badCaps.randomElement(using: &generator)!], at: position)
            case 3:
                let snippet = oddSwift.randomElement(using: &generator)!
                // A name reference ("a.") inside ( ... ) followed by a dangling "!" crashes GStreamer 1.22's
                // parser (`( a. ! identity ) !`, in gst-launch-1.0 too): references go after everything.
                let at = snippet.contains(".") ? tokens.count : position
                tokens.insert(contentsOf: snippet.split(separator: " ").map(String.init), at: at)
            case 4:
                // Any token but a bounded source's num-buffers (dropping it would make an endless run).
                let removable = tokens.indices.filter { !tokens[$0].hasPrefix("num-buffers=") }
                guard let index = removable.randomElement(using: &generator) else { continue }
                tokens.remove(at: index)
            default:
                // Any token but a sink (a second one would have nothing upstream).
                guard let index = tokens.indices.filter({ tokens[$0] != "fakesink" }).randomElement(using: &generator)
                else { continue }
                let token = tokens[index]
                // A second source element must be bounded too.
                tokens.insert(
                    contentsOf: token == "noise" || token == "videotestsrc" ? [token, "num-buffers=2"] : [token],
                    at: index)
            }
        }
        return tokens
    }
}

@Suite("gstpipe survives garbled descriptions")
struct FuzzTests {
    /// GSTPIPE_FUZZ_RUNS raises it for a longer session.
    static let runs = ProcessInfo.processInfo.environment["GSTPIPE_FUZZ_RUNS"].flatMap { Int($0) } ?? 60

    @Test(
        "Garbled descriptions end in exit 0, 1 or 2 within 20 s: no crash, no hang (seed printed; GSTPIPE_FUZZ_SEED replays)"
    )
    func garbledDescriptions() throws {
        let seed =
            ProcessInfo.processInfo.environment["GSTPIPE_FUZZ_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0..<1_000_000)
        print("FuzzTests: seed \(seed) (rerun with GSTPIPE_FUZZ_SEED=\(seed))")
        var generator = SeededGenerator(state: seed)
        let cases = (0..<FuzzTests.runs).map { _ in GarbledDescriptions.make(using: &generator) }
        let results = Results(count: cases.count)
        DispatchQueue.concurrentPerform(iterations: cases.count) { index in
            results.set(index, try? CLI.run(cases[index], timeout: 20))
        }
        var statuses: [Int32: Int] = [:]
        for (arguments, result) in zip(cases, results.all) {
            let description = "seed \(seed): gstpipe \(arguments.joined(separator: " "))"
            let result = try #require(result, "\(description): did not start")
            #expect(!result.signaled, "\(description): killed by signal \(result.status)\n\(result.stderr)")
            // Under scripts/sanitize.sh a crash or leak is a sanitizer report, not a signal.
            #expect(!result.stderr.contains("Sanitizer"), "\(description): sanitizer report\n\(result.stderr)")
            #expect(result.status != -1, "\(description): still running after 20 s\n\(result.stderr)")
            #expect([0, 1, 2].contains(result.status), "\(description): exit \(result.status)\n\(result.stderr)")
            if result.status == 1 || result.status == 2 {
                #expect(
                    result.stderr.contains("ERROR: "),
                    "\(description): exit \(result.status) without an error\n\(result.stderr)")
            }
            statuses[result.signaled ? -result.status : result.status, default: 0] += 1
            if ProcessInfo.processInfo.environment["GSTPIPE_FUZZ_VERBOSE"] != nil {
                print(
                    "FuzzTests: exit \(result.status): \(arguments.joined(separator: " "))  | \(result.stderr.prefix(120))"
                )
            }
        }
        print("FuzzTests: \(cases.count) runs, exit statuses \(statuses.sorted { $0.key < $1.key })")
    }
}

/// One slot per run, filled from concurrent threads. (An NSLock, not a Synchronization.Mutex: ThreadSanitizer
/// sees pthread locks, but not the Mutex's futex inside the uninstrumented Swift runtime.)
private final class Results: @unchecked Sendable {
    // Guarded by `lock`.
    private var slots: [CLIResult?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: CLIResult?) { lock.withLock { slots[index] = result } }

    var all: [CLIResult?] { lock.withLock { slots } }
}
