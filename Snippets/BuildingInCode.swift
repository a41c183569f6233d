// A pipeline built element by element, a dynamic pad linked when it appears, the bus read as typed
// messages, and a position query: the calls a GStreamer application makes, in Swift.

// snippet.build
import GStreamer

let pipeline = try Pipeline(name: "example")
let source = try ElementFactory.make("audiotestsrc", name: "source")
let decodebin = try ElementFactory.make("decodebin")
let convert = try ElementFactory.make("audioconvert")
let sink = try ElementFactory.make("fakesink", name: "sink")
try source.set("num-buffers", 50)
try sink.set("sync", false)
try pipeline.add(source, decodebin, convert, sink)
try source.link(to: decodebin, filter: Caps("audio/x-raw,rate=48000,channels=2"))
try convert.link(to: sink)
// snippet.end

// snippet.padadded
// decodebin's source pad exists only once it knows what it decodes: link it when it appears.
decodebin.onPadAdded { pad in
    guard pad.currentCaps?.mediaType?.hasPrefix("audio/") == true,
        let target = convert.pad(named: "sink"), target.peer == nil
    else { return }
    try? pad.link(to: target)
}
// snippet.end

// snippet.bus
try pipeline.play()
loop: for await message in pipeline.messages {
    switch message {
    case .error(let error):
        print("error from \(error.source ?? "?"): \(error.message)")
        break loop
    case .endOfStream:
        print("end of stream at \(pipeline.position.map { "\(Double($0) / 1e9) s" } ?? "?")")
        break loop
    case .stateChanged(let source, let old, let new, _) where source == "example":
        print("pipeline: \(old) -> \(new)")
    default:
        break
    }
}
pipeline.stop()
// snippet.end
