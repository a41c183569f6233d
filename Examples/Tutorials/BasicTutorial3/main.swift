// Basic tutorial 3, dynamic pipelines: uridecodebin makes its pads only once it knows what the clip
// holds; the application links the raw audio one as it appears (pad-added) and leaves the video.
//
//     swift run BasicTutorial3 [FILE]
//
// Checks: pad-added came for raw audio and raw video, the audio pad was linked, and audio buffers
// covering the clip's length reached the sink before end of stream.
import GStreamer
import Synchronization
import TutorialSupport

await Tutorial.run { input in
    let source = try ElementFactory.make("uridecodebin", name: "source")
    let convert = try ElementFactory.make("audioconvert", name: "convert")
    let resample = try ElementFactory.make("audioresample", name: "resample")
    let sink = try Tutorial.clockedSink(name: "sink")
    let pipeline = try Pipeline(name: "test-pipeline")
    try pipeline.add(source, convert, resample, sink)
    // The source is not linked yet: it has no source pad until it has read the clip.
    try Element.link(convert, resample, sink)
    try source.set("uri", input.uri)

    let convertSink = try Tutorial.require(convert.pad(named: "sink"), "audioconvert has no sink pad")
    let added = Mutex<[String]>([])
    // Runs on uridecodebin's streaming thread, once per stream it exposes.
    source.onPadAdded { pad in
        let type = pad.currentCaps?.mediaType ?? pad.queryCaps().mediaType ?? "?"
        print("Received new pad '\(pad.name)' from '\(source.name)': \(type)")
        added.withLock { $0.append(type) }
        if convertSink.isLinked {
            print("We are already linked. Ignoring.")
        } else if type != "audio/x-raw" {
            print("It has type '\(type)' which is not raw audio. Ignoring.")
        } else {
            do {
                try pad.link(to: convertSink)
                print("Link succeeded (type '\(type)').")
            } catch {
                print("Type is '\(type)' but link failed: \(error)")
            }
        }
    }
    let audio = try Tutorial.require(sink.pad(named: "sink"), "fakesink has no sink pad").countBuffers()

    // The bus, until an error or end of stream; the pipeline's own state changes are printed.
    let messages = pipeline.messages
    try pipeline.play()
    defer { pipeline.stop() }
    messages: for await message in messages {
        switch message {
        case .error(let error): throw error
        case .endOfStream: break messages
        case .stateChanged(let element, let old, let new, _) where element == pipeline.name:
            print("Pipeline state changed from \(old) to \(new)")
        default: continue
        }
    }

    let types = added.withLock { $0 }
    print(
        "Pads added: \(types.joined(separator: ", ")); \(audio.count) audio buffers up to \(Tutorial.seconds(audio.lastEnd))"
    )
    try Tutorial.check(types.contains("audio/x-raw"), "no raw audio pad was added (pads: \(types))")
    try Tutorial.check(types.contains("video/x-raw"), "no raw video pad was added (pads: \(types))")
    try Tutorial.check(convertSink.isLinked, "the audio pad was not linked")
    let end = try Tutorial.require(audio.lastEnd, "no audio buffer reached the sink")
    try Tutorial.check(
        end + 100_000_000 >= input.duration,
        "the audio ended at \(Tutorial.seconds(end)), short of \(Tutorial.seconds(input.duration))")
}
