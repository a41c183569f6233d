// A pipeline and its frames in ten lines (the README's tour shows this file as it is).
import MediaIO

let pipeline = try Pipeline(
    launch: "videotestsrc num-buffers=30 ! video/x-raw,format=I420 ! appsink name=out sync=false")
let frames = try pipeline.frames(fromAppSink: "out")
try pipeline.play()
for try await frame in frames {
    let luma = try frame.withPlanes { planes in planes[0].bytes[0] }  // the Y plane's first pixel
    print(frame.timestamp, frame.format, luma)  // 0 I420 320x240 @ 30/1 (bytes per row [320, 160, 160]) 235
}
pipeline.stop()
