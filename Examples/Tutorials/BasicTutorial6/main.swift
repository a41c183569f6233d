// Basic tutorial 6, media formats and pad capabilities: what pads an element can have (its factory's
// pad templates, read without making one), and the caps a pad carries before and after negotiation.
//
//     swift run BasicTutorial6
//
// Checks: audiotestsrc's template offers raw audio; the sink pad's caps are open in NULL and READY,
// and one fixed raw-audio format, within both templates, once the pipeline is PAUSED; EOS is reached.
import GStreamer
import TutorialSupport

/// Prints `caps` one structure per line, one field per line, under `prefix`.
func printCaps(_ caps: Caps, prefix: String) {
    if caps.isAny { return print("\(prefix)ANY") }
    if caps.isEmpty { return print("\(prefix)EMPTY") }
    for structure in caps.structures {
        print("\(prefix)\(structure.name)")
        for (field, value) in structure { print("\(prefix)  \(field): \(value)") }
    }
}

/// Prints the pad templates of the factory named `factory`.
func printPadTemplates(of factory: String) throws -> ElementFactory.Details {
    let details = try ElementFactory.details(of: factory)
    print("Pad Templates for \(details.longName):")
    for template in details.padTemplates {
        print("  \(template.direction == .source ? "SRC" : "SINK") template: '\(template.name)'")
        print("    Availability: \(template.presence)")
        print("    Capabilities:")
        printCaps(template.caps, prefix: "      ")
    }
    print()
    return details
}

/// Prints the caps of `element`'s pad `name`: negotiated when they are, else what it could take.
func printPadCaps(_ element: Element, pad name: String) throws -> Caps {
    let pad = try Tutorial.require(element.pad(named: name), "\(element.name) has no pad \(name)")
    let caps = pad.currentCaps ?? pad.queryCaps()
    print("Caps for the \(name) pad (\(pad.currentCaps == nil ? "not negotiated" : "negotiated")):")
    printCaps(caps, prefix: "      ")
    return caps
}

await Tutorial.run {
    let sourceDetails = try printPadTemplates(of: "audiotestsrc")
    let sinkDetails = try printPadTemplates(of: "autoaudiosink")
    let sourceTemplate = try Tutorial.require(sourceDetails.padTemplates.first, "audiotestsrc has no pad template")
    try Tutorial.check(
        sourceTemplate.direction == .source && sourceTemplate.caps.mediaType == "audio/x-raw",
        "audiotestsrc's template is \(sourceTemplate.caps), not raw audio")

    let source = try ElementFactory.make("audiotestsrc", name: "source")
    try source.set("num-buffers", 20)
    // autoaudiosink picks the system's sound output, or a fake one when there is none (headless).
    let sink = try ElementFactory.make("autoaudiosink", name: "sink")
    let pipeline = try Pipeline(name: "test-pipeline")
    try pipeline.add(source, sink)
    try source.link(to: sink)

    // The sink pad's caps at each state: what it could take, then what was agreed with the source.
    print("In NULL state:")
    let open = try printPadCaps(sink, pad: "sink")
    try pipeline.setState(.ready)
    print("\nIn READY state:")
    let ready = try printPadCaps(sink, pad: "sink")
    let messages = pipeline.messages
    // PAUSED: the source has negotiated and the sink holds its first buffer.
    try pipeline.setState(.paused, timeout: 5_000_000_000)
    print("\nIn PAUSED state:")
    let negotiated = try printPadCaps(sink, pad: "sink")
    defer { pipeline.stop() }
    try pipeline.play()
    messages: for await message in messages {
        switch message {
        case .error(let error): throw error
        case .endOfStream:
            print("End-Of-Stream reached.")
            break messages
        default: continue
        }
    }

    try Tutorial.check(!open.isFixed, "before negotiation the sink pad's caps were already fixed: \(open)")
    try Tutorial.check(!ready.isFixed, "in READY the sink pad's caps were already fixed: \(ready)")
    let caps = negotiated
    try Tutorial.check(
        caps.isFixed && caps.mediaType == "audio/x-raw", "in PAUSED the caps were \(caps), not one raw-audio format")
    try Tutorial.check(
        caps.int("rate") != nil && caps.int("channels") != nil, "the negotiated caps lack a rate or channels: \(caps)")
    let sinkTemplate = try Tutorial.require(sinkDetails.padTemplates.first, "autoaudiosink has no pad template")
    try Tutorial.check(
        sourceTemplate.caps.canIntersect(caps) && sinkTemplate.caps.canIntersect(caps),
        "the negotiated caps \(caps) lie outside the templates")
}
