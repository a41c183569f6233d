// Basic tutorial 2, GStreamer concepts: elements made by factory, added to a pipeline, linked, given
// properties; the bus says how the run ends.
//
//     swift run BasicTutorial2
//
// Checks: the pattern property reads back as set, all 60 buffers reach the sink, the bus ends with EOS.
import GStreamer
import TutorialSupport

await Tutorial.run {
    // Elements come from factories, by name; a missing one is an error naming its Debian package.
    let source = try ElementFactory.make("videotestsrc", name: "source")
    let sink = try Tutorial.clockedSink(name: "sink")

    // A pipeline is a bin with a clock and a bus: add the elements, then link them in order.
    let pipeline = try Pipeline(name: "test-pipeline")
    try pipeline.add(source, sink)
    try source.link(to: sink)

    // Properties are set by name, typed (an enum by its nick) and read back.
    try source.set("pattern", fromString: "ball")
    try source.set("num-buffers", 60)
    let pattern = try source.get("pattern").stringValue
    print("videotestsrc pattern: \(pattern ?? "?")")
    try Tutorial.check(pattern == "ball", "the pattern reads back as \(pattern ?? "nothing"), not ball")

    let sinkPad = try Tutorial.require(sink.pad(named: "sink"), "fakesink has no sink pad")
    let buffers = sinkPad.countBuffers()

    // The bus: read its messages until an error or end of stream, then stop the pipeline.
    let messages = pipeline.messages
    try pipeline.play()
    var ending: Message?
    for await message in messages {
        switch message {
        case .error(let error):
            print("Error from \(error.source ?? "?"): \(error.message)")
            if let debug = error.debug { print("Debugging information: \(debug)") }
            ending = message
        case .endOfStream:
            print("End of stream reached.")
            ending = message
        default:
            continue
        }
        break
    }
    pipeline.stop()

    print("\(buffers.count) buffers reached the sink")
    guard case .endOfStream = ending else {
        throw Tutorial.Failure(reason: "the run ended with \(ending.map { "\($0)" } ?? "no message")")
    }
    try Tutorial.check(buffers.count == 60, "\(buffers.count) buffers reached the sink, not 60")
}
