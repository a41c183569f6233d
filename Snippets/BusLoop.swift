// The Swift core alone: a pipeline and its bus, read as typed messages.
import GStreamer

let pipeline = try Pipeline(launch: "audiotestsrc num-buffers=50 ! audioconvert ! fakesink")
try pipeline.play()
for await message in pipeline.messages {
    if case .endOfStream = message { break }
    if case .error(let error) = message { throw error }
}
pipeline.stop()
// snippet.hide
print("played to the end")
