// Data of the application's own riding on buffers (a custom meta, no C code), and a capture time on
// another clock (a reference timestamp), both read back after the buffer went through a pipeline.
import GStreamer

try CustomMeta.register("myapp-detections", tags: ["video"])
let buffer = try Buffer(size: 64 * 48)
buffer.pts = 0
try buffer.addCustomMeta("myapp-detections", try Structure("detections, count=(int)2, label=(string)cat"))
buffer.addReferenceTimestamp(
    ReferenceTimestamp(reference: try Caps("timestamp/x-unix"), timestamp: 1_700_000_000_000_000_000))

let pipeline = try Pipeline(
    launch: "appsrc name=src format=time caps=video/x-raw,format=GRAY8,width=64,height=48,framerate=30/1 "
        + "! queue ! identity ! appsink name=sink")
try pipeline.play()
_ = try pipeline.appSrc(named: "src").push(buffer)
let received = try await pipeline.appSink(named: "sink").nextSample(timeout: .seconds(10))?.buffer
let detections = received?.customMeta("myapp-detections")
let captured = received?.referenceTimestamps.first
print("detections: \(detections?["count"]?.intValue ?? 0) (\(detections?["label"]?.stringValue ?? "none"))")
print("captured at \(captured?.timestamp ?? 0) ns on \(captured?.reference.description ?? "no clock")")
pipeline.stop()
// snippet.hide
precondition(detections?["count"]?.intValue == 2 && detections?["label"]?.stringValue == "cat", "custom meta lost")
precondition(captured?.timestamp == 1_700_000_000_000_000_000, "reference timestamp lost")
precondition(captured?.reference.description == "timestamp/x-unix", "reference clock lost")
