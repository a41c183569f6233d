// An encoding profile made in Swift, an encodebin fed test sources, and a one-call transcode to WebM.
import GStreamer

let base = "/tmp/gstpipe-encoding-snippet"
let profile = try EncodingProfile.container(
    "video/quicktime,variant=iso",
    streams: [
        .video("video/x-h264", restriction: "video/x-raw,width=320,height=240"),
        .audio("audio/mpeg,mpegversion=4")
    ])
let pipeline = try Pipeline(name: "encode")
let video = try Element(factory: "videotestsrc")
try video.set("num-buffers", 30)
let audio = try Element(factory: "audiotestsrc")
try audio.set("num-buffers", 43)
let encoder = try EncodeBin(profile: profile)
let sink = try Element(factory: "filesink")
try sink.set("location", "\(base).mp4")
try pipeline.add(video, audio, encoder, sink)
try video.pad(named: "src")!.link(to: encoder.requestPad(for: Caps("video/x-raw")))
try audio.pad(named: "src")!.link(to: encoder.requestPad(for: Caps("audio/x-raw")))
try encoder.link(to: sink)
try await pipeline.run()

// The same file again, to VP8 and Vorbis in WebM, from GStreamer's serialized form of a profile.
let webm = try EncodingProfile(string: "video/webm:video/x-vp8:audio/x-vorbis")
try await Transcoder.encode(from: "\(base).mp4", to: "\(base).webm", profile: webm)
// snippet.hide
func discover(_ uri: String) async throws -> DiscovererInfo { try await Discoverer().discover(uri: uri) }
let info = try await discover("file://\(base).webm")
guard info.videoStreams.first?.caps?.mediaType == "video/x-vp8", info.videoStreams.first?.video?.width == 320,
    info.audioStreams.first?.caps?.mediaType == "audio/x-vorbis"
else { fatalError("the WebM file does not hold 320-pixel VP8 and Vorbis") }
print("wrote \(base).mp4 and \(base).webm")
