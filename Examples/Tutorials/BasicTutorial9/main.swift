// Basic tutorial 9, media information gathering: the discoverer reads a clip's streams, their caps
// and tags, and its duration, without playing it.
//
//     swift run BasicTutorial9 [FILE]
//
// Checks: the discoverer found streams and a duration; for the generated clip, exactly what was
// written: a Matroska container holding 320x240 video at 30 fps and 2-channel 44.1 kHz audio, its codec tagged.
import GStreamer
import TutorialSupport

/// Prints `tags`, one per line, under `prefix`.
func printTags(_ tags: TagList?, prefix: String) {
    guard let tags, !tags.isEmpty else { return }
    print("\(prefix)Tags:")
    for (tag, values) in tags {
        print("\(prefix)  \(tag): \(values.map(\.description).joined(separator: ", "))")
    }
}

/// Prints `stream` and what it holds, indented by its depth.
func printTopology(_ stream: DiscoveredStream, depth: Int = 1) {
    let prefix = String(repeating: "  ", count: depth)
    // Codec headers make caps long: they are left out.
    let caps = stream.caps?.removing("streamheader").removing("codec_data")
    print("\(prefix)\(stream.kind): \(caps.map { "\($0)" } ?? "?")")
    if let audio = stream.audio {
        print(
            "\(prefix)  \(audio.channels) channels at \(audio.sampleRate) Hz"
                + (audio.bitrate.map { ", \($0) bit/s" } ?? ""))
    }
    if let video = stream.video {
        print(
            "\(prefix)  \(video.width)x\(video.height) at \(video.framerate) fps"
                + (video.bitrate.map { ", \($0) bit/s" } ?? ""))
    }
    printTags(stream.tags, prefix: prefix + "  ")
    for child in stream.children { printTopology(child, depth: depth + 1) }
}

await Tutorial.run { input in
    print("Discovering '\(input.uri)'")
    let discoverer = try Discoverer(timeout: .seconds(5))
    let info = try await discoverer.discover(uri: input.uri)

    print("\nDiscovered '\(info.uri)'")
    print("Duration: \(Tutorial.seconds(info.duration))")
    printTags(info.tags, prefix: "")
    print("Seekable: \(info.isSeekable ? "yes" : "no")")
    print("\nStream information:")
    let topology = try Tutorial.require(info.topology, "the discoverer found no stream")
    printTopology(topology)

    try Tutorial.check(!info.streams.isEmpty, "the discoverer found no stream")
    try Tutorial.check(info.duration != nil, "the discoverer found no duration")
    guard input.isGenerated else { return }
    try Tutorial.check(
        topology.kind == .container && topology.caps?.mediaType == "video/x-matroska",
        "the clip is not read as Matroska")
    try Tutorial.check(info.streams.count == 2, "\(info.streams.count) streams found, not 2")
    let video = try Tutorial.require(info.videoStreams.first?.video, "no video stream found")
    try Tutorial.check(
        video.width == 320 && video.height == 240 && video.framerate == Fraction(30, 1),
        "the video is \(video.width)x\(video.height) at \(video.framerate), not 320x240 at 30/1")
    let audio = try Tutorial.require(info.audioStreams.first?.audio, "no audio stream found")
    try Tutorial.check(
        audio.channels == 2 && audio.sampleRate == 44100,
        "the audio is \(audio.channels) channels at \(audio.sampleRate) Hz")
    let codec = info.videoStreams.first?.tags?.videoCodec
    try Tutorial.check(
        codec?.contains("H264") == true, "the video stream's codec tag is \(codec ?? "missing"), not H.264")
    let duration = try Tutorial.require(info.duration, "no duration")
    try Tutorial.check(
        duration.distance(to: 3_000_000_000).magnitude < 50_000_000,
        "the duration is \(Tutorial.seconds(duration)), not 3 s")
}
