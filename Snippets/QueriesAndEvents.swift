// Queries and events a pipeline uses while it starts: the latency of a live source, the formats a pad
// can take, and a stream-start event read in a probe.
import GStreamer

let pipeline = try Pipeline(
    launch: "videotestsrc name=src is-live=true num-buffers=5 ! video/x-raw,framerate=10/1 "
        + "! queue ! fakesink sync=true")
let sourcePad = pipeline.element(named: "src")!.pad(named: "src")!
sourcePad.addProbe(.eventDownstream) { info in
    if let start = info.event?.streamStart { print("stream \(start.streamID), group \(start.groupID ?? 0)") }
    return .ok
}
let formats = Query.caps(filter: try Caps("video/x-raw,format=GRAY8"))
if sourcePad.query(formats) { print("GRAY8 as: \(formats.capsResult!)") }
try pipeline.play()
_ = pipeline.state(timeout: 5_000_000_000)
let latency = Query.latency()
if pipeline.query(latency), let answer = latency.latency {
    print("live: \(answer.live), at least \(answer.minimum) ns")
}
pipeline.stop()
