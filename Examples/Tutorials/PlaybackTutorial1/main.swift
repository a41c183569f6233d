// Playback tutorial 1, playbin usage: one element plays a URI, its flags choose what it renders
// (here video and audio, no subtitles), and its n-video/n-audio/n-text properties count the streams
// it found. The original plays a web URI and shows it; this one plays a generated clip into fake
// sinks, headless.
//
//     swift run PlaybackTutorial1
//
// Checks: the flags read back as set; playbin found 1 video, 2 audio and no text stream; the clip
// played to its end of stream, taking about its duration.
import GStreamer
import TutorialSupport

await Tutorial.runPlayback { clip in
    let playbin = try Pipeline(launch: "playbin uri=\(clip.uri)")
    try playbin.set("video-sink", element: try Tutorial.clockedSink())
    try playbin.set("audio-sink", element: try Tutorial.clockedSink())
    // The tutorial's flags: read them, turn video and audio on and subtitles off, write them back,
    // all by the flags' nicks ("soft-volume+deinterlace+...").
    let defaults = try Tutorial.require(try playbin.get("flags").stringValue, "playbin's flags are no string")
    print("default flags: \(defaults)")
    var wanted = Set(defaults.split(separator: "+").map(String.init))
    wanted.formUnion(["video", "audio"])
    wanted.remove("text")
    try playbin.set("flags", wanted.sorted().joined(separator: "+"))
    let flags = Set(try Tutorial.require(try playbin.get("flags").stringValue, "no flags").split(separator: "+"))
    print("flags: \(flags.sorted().joined(separator: "+"))")
    try Tutorial.check(flags == Set(wanted.map { Substring($0) }), "the flags read back as \(flags), not \(wanted)")
    try Tutorial.check(!flags.contains("text"), "subtitles are still on: \(flags)")

    // Streams are known once playbin has prerolled (PAUSED): the tutorial's analyze_streams.
    try await playbin.changeState(to: .paused, timeout: 10_000_000_000)
    let counts = try ["n-video", "n-audio", "n-text"].map { name in
        try Tutorial.require(try playbin.get(name).intValue, "\(name) is no number")
    }
    print("\(counts[0]) video stream(s), \(counts[1]) audio stream(s), \(counts[2]) text stream(s)")
    try Tutorial.check(counts == [1, 2, 0], "playbin found \(counts) video, audio and text streams, not [1, 2, 0]")

    let start = ContinuousClock.now
    try await playbin.run()
    let elapsed = Tutorial.elapsed(since: start)
    print("Reached the end of stream after \(Tutorial.seconds(elapsed)) (duration \(Tutorial.seconds(clip.duration)))")
    try Tutorial.check(
        elapsed >= clip.duration * 8 / 10, "the clip ended after \(Tutorial.seconds(elapsed)), before its duration")
}
