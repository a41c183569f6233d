// Playback tutorial 7, custom playbin sinks: playbin's video-sink and audio-sink take any element,
// a whole bin included, as long as it has a sink pad: a ghost pad standing for its first element's.
// The original puts an equalizer before the sound card; this one takes the colour out of the picture
// (through GRAY8) before an appsink, and checks the pictures. (Not with videobalance saturation=0:
// playsink finds a colour balance element in its video sink and sets it to its own values.)
//
//     swift run PlaybackTutorial7
//
// Checks: the bin's ghost pad stands for the filter's sink pad; every frame of the clip reached the
// bin's appsink, gray (both chroma planes within 2 of 128), where the clip's colour bars were coloured.
import GStreamer
import TutorialSupport

/// How far an I420 frame's chroma strays from gray (128) at worst.
func chromaSpread(_ bytes: [UInt8], width: Int, height: Int) -> Int {
    bytes.dropFirst(width * height).prefix(width * height / 2).map { abs(Int($0) - 128) }.max() ?? 255
}

await Tutorial.runPlayback { clip in
    // The custom sink: convert ! GRAY8 ! convert ! appsink, in a bin whose "sink" ghost pad is the
    // first converter's.
    let filter = try ElementFactory.make("videoconvert", name: "gray")
    let gray = try ElementFactory.make("capsfilter")
    try gray.set("caps", fromString: "video/x-raw,format=GRAY8")
    let convert = try ElementFactory.make("videoconvert")
    let frames = try AppSink(name: "frames")
    frames.caps = try Caps("video/x-raw,format=I420,width=320,height=240")
    frames.sync = false
    let bin = try Bin(name: "graysink")
    try bin.add(filter, gray, convert, frames)
    try Element.link(filter, gray, convert, frames)
    let ghost = try bin.addGhostPad(
        named: "sink", target: try Tutorial.require(filter.pad(named: "sink"), "videoconvert has no sink pad"))
    try Tutorial.check(
        ghost.ghostTarget?.name == "sink", "the ghost pad stands for \(ghost.ghostTarget?.name ?? "nothing")")

    let playbin = try Pipeline(launch: "playbin uri=\(clip.uri)")
    try playbin.set("video-sink", element: bin)
    try playbin.set("audio-sink", element: try ElementFactory.make("fakesink"))

    // The clip is colour bars: before the bin, the picture has colour.
    let collected = Task {
        var spreads: [Int] = []
        for try await sample in playbin.samples(from: frames) {
            spreads.append(chromaSpread(sample.buffer?.bytes ?? [], width: 320, height: 240))
        }
        return spreads
    }
    try await playbin.run()
    let spreads = try await collected.value

    let expected = Int(clip.duration / 33_333_333)
    print(
        "\(spreads.count) frames reached the custom sink (about \(expected) expected); chroma strays at most \(spreads.max() ?? 0) from gray"
    )
    try Tutorial.check(
        spreads.count >= expected - 2, "\(spreads.count) frames reached the bin's appsink, not about \(expected)")
    try Tutorial.check(
        spreads.allSatisfy { $0 <= 2 }, "a frame kept its colour (chroma up to \(spreads.max() ?? 0) from gray)")
}
