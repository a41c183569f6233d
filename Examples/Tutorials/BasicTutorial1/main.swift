// Basic tutorial 1, hello world: playbin plays a clip from start to end.
//
//     swift run BasicTutorial1 [FILE]
//
// Checks: the stream ends (EOS, no error), after about its own duration (played on the clock).
import GStreamer
import TutorialSupport

await Tutorial.run { input in
    // playbin is a whole player in one element: it reads, demuxes, decodes and renders whatever the URI
    // holds. Headless, it renders into clocked fake sinks instead of a window and a sound card.
    let playbin = try Pipeline(launch: "playbin uri=\(input.uri)")
    try playbin.set("video-sink", element: try Tutorial.clockedSink())
    try playbin.set("audio-sink", element: try Tutorial.clockedSink())

    let start = ContinuousClock.now
    // run() plays until end of stream and throws the first error; the pipeline is stopped after.
    try await playbin.run()
    let elapsed = Tutorial.elapsed(since: start)

    print(
        "Played \(input.uri) to its end in \(Tutorial.seconds(elapsed)) (duration \(Tutorial.seconds(input.duration)))")
    try Tutorial.check(
        elapsed >= input.duration * 9 / 10, "the clip ended after \(Tutorial.seconds(elapsed)), before its duration")
}
