// Basic tutorial 11, debugging tools: the debug log (GST_DEBUG thresholds per category), a debug
// category of the application's own whose lines go to GStreamer's log beside the elements' lines, and
// the pipeline drawn as a Graphviz .dot file (GST_DEBUG_DUMP_DOT_DIR, GST_DEBUG_BIN_TO_DOT_FILE).
//
//     swift run BasicTutorial11
//     GST_DEBUG=basic-tutorial-11:5 swift run BasicTutorial11     (the same lines on standard error)
//
// Checks: the category's lines at error, warning, info and debug reached the log with their level, file,
// function and line, and the object they name; the line above the threshold did not; GStreamer's own
// GST_STATES category logged the pipeline's state changes; the .dot file was written, names every element
// and shows the negotiated caps.
import Foundation
import GStreamer
import Synchronization
import TutorialSupport

// GStreamer reads where to write .dot files once, when it initializes: set it first.
let dotFolder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-tutorial11-\(getpid())")
try? FileManager.default.createDirectory(at: dotFolder, withIntermediateDirectories: true)
setenv("GST_DEBUG_DUMP_DOT_DIR", dotFolder.path, 1)

/// Logs one line at each level through `category`, about `element`; returns the line each was logged at.
func logAtEachLevel(_ category: DebugCategory, about element: Element) -> [DebugLevel: Int] {
    var lines: [DebugLevel: Int] = [:]
    category.error("cannot happen: the tone is missing", object: element)
    lines[.error] = #line - 1
    category.warning("the tone is quieter than asked", object: element)
    lines[.warning] = #line - 1
    category.info("the pipeline is ready", object: element)
    lines[.info] = #line - 1
    category.debug("sine at 440 Hz", object: element)
    lines[.debug] = #line - 1
    // Above the threshold set below (debug, 5): costs a comparison, and the text is never even built.
    category.log(.trace, "every sample: \(String(repeating: "0", count: 1 << 20))", object: element)
    return lines
}

await Tutorial.run {
    defer { try? FileManager.default.removeItem(at: dotFolder) }
    // The tutorial's own category, in green, and a threshold for it and for GStreamer's state changes,
    // as GST_DEBUG="basic-tutorial-11:5,GST_STATES:4" would set them.
    let category = try DebugCategory(
        name: "basic-tutorial-11", color: [.green, .bold], description: "Basic tutorial 11's own lines")
    try DebugLog.setThresholds("basic-tutorial-11:5,GST_STATES:4")
    try Tutorial.check(category.threshold == .debug, "the threshold is \(category.threshold), not debug")

    // Read the log as values, in place of GStreamer's own writer (standard error) while the reader is in.
    let seen = Mutex<[DebugMessage]>([])
    let reader = try DebugLog.addHandler(removingDefaultWriter: true) { message in
        if message.category == "basic-tutorial-11" || message.category == "GST_STATES" {
            seen.withLock { $0.append(message) }
        }
    }

    let pipeline = try Pipeline(launch: "audiotestsrc name=tone num-buffers=20 ! audioconvert ! fakesink")
    let tone = try Tutorial.require(pipeline.element(named: "tone"), "no element named tone")
    let lines = logAtEachLevel(category, about: tone)
    try pipeline.setState(.paused, timeout: 10_000_000_000)
    // The pipeline as it is now, caps negotiated: render with `dot -Tpng paused.dot > paused.png`.
    let dotFile = try Tutorial.require(try pipeline.writeDotFile(named: "paused"), "no .dot file was written")
    try await pipeline.run()
    // GStreamer's state changes are quiet again, then the reader goes.
    try DebugLog.setThresholds("GST_STATES:0")
    reader.remove()
    // GStreamer's own writer is back: this line goes to standard error, and not to the reader.
    category.info("after the reader was removed")

    let messages = seen.withLock { $0 }
    let ours = messages.filter { $0.category == "basic-tutorial-11" }
    for message in ours {
        let place = "\(message.file):\(message.line):\(message.function)"
        print("\(message.level) \(place) <\(message.objectName ?? "")> \(message.text)")
    }
    try Tutorial.check(
        ours.map(\.level) == [.error, .warning, .info, .debug], "the category logged \(ours.map(\.level))")
    for message in ours {
        try Tutorial.check(message.line == lines[message.level], "\(message.level) came from line \(message.line)")
        try Tutorial.check(message.file.hasSuffix("main.swift"), "\(message.level) came from \(message.file)")
        try Tutorial.check(
            message.function.hasPrefix("logAtEachLevel"), "\(message.level) came from \(message.function)")
        try Tutorial.check(message.objectName == "tone", "\(message.level) names \(message.objectName ?? "nothing")")
    }
    let states = messages.filter { $0.category == "GST_STATES" }
    print("GST_STATES logged \(states.count) lines at info or below, such as: \(states.first?.text ?? "-")")
    try Tutorial.check(states.contains { $0.level == .info }, "GStreamer's GST_STATES category logged nothing at info")

    let dot = try String(contentsOfFile: dotFile, encoding: .utf8)
    print("\(dotFile): \(dot.utf8.count) bytes")
    try Tutorial.check(dot.hasPrefix("digraph"), "\(dotFile) is not a Graphviz graph")
    for name in ["tone", "audioconvert0", "fakesink0", "audio/x-raw"] {
        try Tutorial.check(dot.contains(name), "\(dotFile) does not mention \(name)")
    }
}
