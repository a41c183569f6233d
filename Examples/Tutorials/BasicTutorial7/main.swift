// Basic tutorial 7, multithreading and pad availability: a tee splits one audio stream into two
// branches, each behind a queue (a thread of its own): one to the sound output, one drawn as a
// waveform video. The tee's source pads exist only on request.
//
//     swift run BasicTutorial7
//
// Checks: the tee gave src_0 and src_1, all 50 audio buffers reached the sound branch, the waveform
// branch drew frames, and after release the tee has its sink pad alone.
import GStreamer
import TutorialSupport

await Tutorial.run {
    let source = try ElementFactory.make("audiotestsrc", name: "audio_source")
    let tee = try ElementFactory.make("tee", name: "tee")
    let audioQueue = try ElementFactory.make("queue", name: "audio_queue")
    let audioConvert = try ElementFactory.make("audioconvert", name: "audio_convert")
    let audioResample = try ElementFactory.make("audioresample", name: "audio_resample")
    let audioSink = try ElementFactory.make("autoaudiosink", name: "audio_sink")
    let videoQueue = try ElementFactory.make("queue", name: "video_queue")
    let visual = try ElementFactory.make("wavescope", name: "visual")
    let videoConvert = try ElementFactory.make("videoconvert", name: "csp")
    // Headless: a clocked fake sink where the tutorial shows a window.
    let videoSink = try Tutorial.clockedSink(name: "video_sink")

    try source.set("freq", 215.0)
    try source.set("num-buffers", 50)
    try visual.set("shader", fromString: "none")
    try visual.set("style", fromString: "lines")

    let pipeline = try Pipeline(name: "test-pipeline")
    try pipeline.add(
        source, tee, audioQueue, audioConvert, audioResample, audioSink, videoQueue, visual, videoConvert, videoSink)
    // Always pads link as the elements are made...
    try Element.link(source, tee)
    try Element.link(audioQueue, audioConvert, audioResample, audioSink)
    try Element.link(videoQueue, visual, videoConvert, videoSink)
    // ...the tee's source pads are requested, one per branch, from its "src_%u" template.
    let teeAudioPad = try tee.requestPad("src_%u")
    print("Obtained request pad \(teeAudioPad.name) for audio branch.")
    let teeVideoPad = try tee.requestPad("src_%u")
    print("Obtained request pad \(teeVideoPad.name) for video branch.")
    try teeAudioPad.link(to: try Tutorial.require(audioQueue.pad(named: "sink"), "queue has no sink pad"))
    try teeVideoPad.link(to: try Tutorial.require(videoQueue.pad(named: "sink"), "queue has no sink pad"))

    let audioBuffers = try Tutorial.require(audioResample.pad(named: "src"), "no audioresample src pad").countBuffers()
    let videoFrames = try Tutorial.require(videoConvert.pad(named: "src"), "no videoconvert src pad").countBuffers()
    try await pipeline.run()

    print("Audio branch: \(audioBuffers.count) buffers; waveform branch: \(videoFrames.count) frames")
    try Tutorial.check(
        [teeAudioPad.name, teeVideoPad.name] == ["src_0", "src_1"],
        "the tee gave \(teeAudioPad.name) and \(teeVideoPad.name)")
    try Tutorial.check(audioBuffers.count == 50, "\(audioBuffers.count) of 50 buffers reached the audio branch")
    try Tutorial.check(videoFrames.count > 0, "the waveform branch drew no frame")

    // Request pads are released by the application, as they were asked for by it.
    tee.releaseRequestPad(teeAudioPad)
    tee.releaseRequestPad(teeVideoPad)
    let left = tee.pads.map(\.name)
    try Tutorial.check(left == ["sink"], "after release the tee still has \(left)")
}
