// The core's clocks and typed messages: running time while PLAYING, a wait on the pipeline's clock
// that blocks no thread, and a missing decoder named with what to install.
import GStreamer

let pipeline = try Pipeline(launch: "videotestsrc is-live=true ! fakesink sync=true")
_ = try await pipeline.changeState(to: .playing, timeout: 5_000_000_000)
await pipeline.pipelineClock.sleep(for: .milliseconds(200))
print("running time: \((pipeline.currentRunningTime ?? 0) / 1_000_000) ms")
pipeline.stop()

let broken = try Pipeline(
    launch: "fakesrc num-buffers=1 sizetype=fixed sizemax=16 ! capsfilter caps=video/x-example ! queue "
        + "! decodebin ! fakesink")
let messages = broken.messages
try? broken.play()
for await message in messages {
    if case .missingPlugin(_, let plugin) = message {
        print("missing: \(plugin.description), install: \(plugin.installerDetail ?? "?")")
    }
    if case .error = message { break }
}
broken.stop()
