// Playback tutorial 6, audio visualization: given audio only, playbin draws it with a visualization
// element when its `vis` flag is on; `vis-plugin` chooses which (the original picks GOOM from the
// registry's visualization factories). Here wavescope draws into an appsink instead of a window.
//
//     swift run PlaybackTutorial6
//
// Checks: the registry lists visualization factories; playbin made video frames from an audio-only
// file, about as many as its duration at the visualization's frame rate, and they change over time
// (the wave moves) with something drawn on them.
import Foundation
import GStreamer
import TutorialSupport

await Tutorial.run {
    // An audio-only clip: a 2 s tone in Vorbis, in Ogg, generated into a temporary file.
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-vis-\(getpid()).ogg").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try await Pipeline(
        launch: "audiotestsrc num-buffers=200 samplesperbuffer=441 freq=330 ! audio/x-raw,rate=44100,channels=1 "
            + "! audioconvert ! vorbisenc ! oggmux ! filesink location=\(path)"
    ).run()

    // The tutorial's filter_vis_features: the factories whose class says Visualization.
    let visualizers = try ElementFactory.names(classifiedAs: "Visualization")
    print("Visualization factories: \(visualizers.joined(separator: ", "))")
    try Tutorial.check(visualizers.contains("wavescope"), "wavescope is not among the visualization factories")

    let playbin = try Pipeline(launch: "playbin uri=file://\(path)")
    try playbin.set("flags", fromString: "audio+vis")
    try playbin.set("vis-plugin", element: try ElementFactory.make("wavescope"))
    try playbin.set("audio-sink", element: try ElementFactory.make("fakesink"))
    let frames = try AppSink(name: "frames")
    frames.caps = try Caps("video/x-raw,format=BGRx,width=320,height=240")
    frames.sync = false
    try playbin.set("video-sink", element: frames)

    let collected = Task {
        var pictures: [[UInt8]] = []
        for try await sample in playbin.samples(from: frames) { pictures.append(sample.buffer?.bytes ?? []) }
        return pictures
    }
    try await playbin.run()
    let pictures = try await collected.value

    let distinct = Set(pictures).count
    let drawn = pictures.filter { $0.contains { $0 != 0 } }.count
    print("\(pictures.count) visualization frames, \(distinct) distinct, \(drawn) with something drawn")
    // wavescope draws at 25 frames a second by default: about 50 for 2 s.
    try Tutorial.check(pictures.count >= 40, "\(pictures.count) frames came for 2 s of audio")
    try Tutorial.check(distinct > pictures.count / 2, "only \(distinct) of \(pictures.count) frames differ")
    try Tutorial.check(drawn > pictures.count / 2, "only \(drawn) of \(pictures.count) frames have anything drawn")
}
