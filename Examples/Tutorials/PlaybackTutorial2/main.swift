// Playback tutorial 2, subtitle-free part of "streams": playbin counts the streams it found
// (n-video, n-audio, n-text), hands out each one's tags through the get-video-tags and get-audio-tags
// action signals, and switches the audio it plays with current-audio, while playing. The original
// asks the user for the stream on the keyboard; this one switches to the second after a second.
//
//     swift run PlaybackTutorial2
//
// Checks: 1 video and 2 audio streams; each audio stream's tags give its language and title as the
// clip was tagged; before the switch the sink hears stream 0's 440 Hz, after it stream 1's 880 Hz,
// and current-audio reads back 1.
import GStreamer
import Synchronization
import TutorialSupport

await Tutorial.runPlayback(seconds: 4) { clip in
    let playbin = try Pipeline(launch: "playbin uri=\(clip.uri)")
    try playbin.set("video-sink", element: try Tutorial.clockedSink())
    // The audio comes back to the application, as mono S16 at the clip's rate: its tone says which
    // stream plays.
    let sink = try AppSink(name: "audio")
    sink.caps = try Caps("audio/x-raw,format=S16LE,channels=1,rate=\(Tutorial.PlaybackClip.sampleRate)")
    sink.sync = true
    try playbin.set("audio-sink", element: sink)

    try await playbin.changeState(to: .paused, timeout: 10_000_000_000)
    let counts = try ["n-video", "n-audio", "n-text"].map { name in
        try Tutorial.require(try playbin.get(name).intValue, "\(name) is no number")
    }
    print("\(counts[0]) video stream(s), \(counts[1]) audio stream(s), \(counts[2]) text stream(s)")
    try Tutorial.check(
        counts[0] == 1 && counts[1] == 2, "playbin found \(counts[0]) video and \(counts[1]) audio streams, not 1 and 2"
    )

    // Each stream's tags, by action signal: the tutorial's analyze_streams.
    let videoTags = try playbin.emit("get-video-tags", .int(0)).asValue?.tagList
    print("video stream 0: codec \(videoTags?["video-codec"]?.stringValue ?? "?")")
    for index in 0..<counts[1] {
        let tags = try Tutorial.require(
            try playbin.emit("get-audio-tags", .int(index)).asValue?.tagList, "audio stream \(index) has no tags")
        let language = tags["language-code"]?.stringValue
        let title = tags["title"]?.stringValue
        print(
            "audio stream \(index): language \(language ?? "?"), title \(title ?? "?"), codec \(tags["audio-codec"]?.stringValue ?? "?")"
        )
        try Tutorial.check(
            language == Tutorial.PlaybackClip.languages[index] && title == Tutorial.PlaybackClip.titles[index],
            "audio stream \(index) is tagged \(language ?? "no language") \(title ?? "no title"), "
                + "not \(Tutorial.PlaybackClip.languages[index]) \(Tutorial.PlaybackClip.titles[index])")
    }
    try Tutorial.check(try playbin.get("current-audio").intValue == 0, "playbin did not start with audio stream 0")

    // The tone of what the sink receives, before and after the switch, by the buffers' timestamps.
    let switchAt: ClockTime = 1_000_000_000
    let tones = Mutex<(before: [Double], after: [Double])>(([], []))
    let switched = Atomic<UInt64>(0)
    let samples = playbin.samples(from: sink)
    let reader = Task {
        for try await sample in samples {
            guard let buffer = sample.buffer, let pts = buffer.pts else { continue }
            let tone = Tutorial.frequency(ofS16: buffer.bytes, rate: Tutorial.PlaybackClip.sampleRate)
            let at = switched.load(ordering: .acquiring)
            tones.withLock {
                if pts < switchAt {
                    $0.before.append(tone)
                }
                // Audio already queued when the switch came may still be stream 0: judge from half a
                // second after it.
                else if at > 0, pts > at + 500_000_000 {
                    $0.after.append(tone)
                }
            }
        }
    }
    let player = Task { try await playbin.run() }
    while (playbin.position ?? 0) < switchAt { try await Task.sleep(for: .milliseconds(20)) }
    switched.store(playbin.position ?? switchAt, ordering: .releasing)
    try playbin.set("current-audio", 1)
    print("Switched to audio stream 1 at \(Tutorial.seconds(playbin.position))")
    try Tutorial.check(try playbin.get("current-audio").intValue == 1, "current-audio did not read back 1")
    try await player.value
    try await reader.value

    let (before, after) = tones.withLock { $0 }
    let median = { (values: [Double]) in values.sorted()[values.count / 2] }
    try Tutorial.check(
        !before.isEmpty && !after.isEmpty, "\(before.count) buffers came before the switch and \(after.count) after")
    print(
        "Tone before the switch: \(Int(median(before))) Hz (\(before.count) buffers), after: \(Int(median(after))) Hz (\(after.count) buffers)"
    )
    try Tutorial.check(
        abs(median(before) - Tutorial.PlaybackClip.tones[0]) < 40, "before the switch the tone was \(median(before)) Hz"
    )
    try Tutorial.check(
        abs(median(after) - Tutorial.PlaybackClip.tones[1]) < 40, "after the switch the tone was \(median(after)) Hz")
}
