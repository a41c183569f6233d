// GstPlay from Swift: a file played to its end with its media info and events, headless.
import GStreamer
import GStreamerPlay

// snippet.hide
let path = "/tmp/gstpipe-player-snippet.webm"
try await Pipeline(
    launch: """
        videotestsrc num-buffers=15 ! video/x-raw,width=160,height=120,framerate=30/1 ! vp8enc deadline=1 \
        ! webmmux ! filesink location=\(path)
        """
).run()
// snippet.show
let player = try Player(path: path, videoSink: Element(factory: "fakesink"))
let watcher = Task {
    for await event in player.events {
        if case .positionUpdated(let position) = event { print("at \(position / 1_000_000) ms") }
    }
}
try await player.playUntilEnd()
let video = player.mediaInfo?.videoStreams.first?.video
print("played \(player.uri): \(video?.width ?? 0)x\(video?.height ?? 0)")
player.close()
await watcher.value
// snippet.hide
guard video?.width == 160, video?.height == 120 else { fatalError("the player saw no 160x120 video") }
