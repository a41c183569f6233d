// A pipeline and its frames.
import MediaIO

let pipeline = try Pipeline(launch: "videotestsrc num-buffers=30 ! appsink name=out sync=false")
let frames = try pipeline.frames(fromAppSink: "out")
try pipeline.play()
var count = 0
for try await frame in frames {
    count += 1
    print(frame.timestamp, frame.format)
}
pipeline.stop()
print("\(count) frames")
