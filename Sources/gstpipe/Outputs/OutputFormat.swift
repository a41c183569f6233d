import Foundation
import GStreamer

/// How gstpipe writes a file it is given by name: encoder, muxer and sink by the file's extension.
///
/// A format holds video, audio or both. A file of a format that holds both is written from a
/// video description with the input's audio beside it, or from an audio description as audio alone
/// (`in.flac ! audioconvert ! out.mkv`).
struct OutputFormat: Sendable {
    /// The extensions that choose this format, lowercased, without the dot.
    let extensions: [String]
    /// What to call it in notes, such as "H.264 in MP4".
    let name: String
    /// The video chain from raw video up to the muxer (or the sink, when there is no muxer); empty
    /// when the format holds audio only.
    let videoChain: [String]
    /// The muxer, or nil when the encoder writes the file alone (y4m, images, WAV, FLAC).
    let muxer: String?
    /// The audio encoders to try in order, nil when the format holds no audio.
    let audioEncoders: [String]?
    /// What to call the format written with audio alone, such as "AAC in MP4"; nil when it holds
    /// no audio.
    var audioName: String? = nil
    /// True for still images: one file, or a numbered sequence when the name holds a %d pattern.
    let isImage: Bool
    /// The video chain for the output of `gray`, when it differs: H.264 formats write gray video as
    /// monochrome (4:0:0), as ffmpeg's `-vf format=gray -c:v libx264` does, rather than two planes
    /// of constant chroma.
    var grayVideoChain: [String]? = nil
    /// Muxer properties, as launch tokens, that write the file so that it plays after the process is
    /// killed outright; nil when the muxer has none (Matroska and WebM play without them).
    var crashSafeMuxing: [String]? = nil
    /// Caps between the converter and the encoder, when the encoder's own first choice is wrong.
    var encoderInput: String? = nil
    /// Caps before the audio encoder, when the format asks for particular rates or channels (FLV for
    /// RTMP ingest: stereo at 44.1 or 48 kHz).
    var audioInput: String? = nil
    /// True when the encoder writes frames as they come and so needs rows without padding
    /// (y4menc in GStreamer 1.22: `Pad.packVideoBuffers`).
    var needsPackedFrames: Bool { videoChain.first == "y4menc" }

    var holdsVideo: Bool { !videoChain.isEmpty }
    var holdsAudio: Bool { audioEncoders != nil }

    /// True for the formats that hold one kind of media alone: sound (WAV) or pictures (PNG, Y4M).
    func holds(_ media: MediaKind) -> Bool {
        switch media {
        case .video: holdsVideo
        case .audio: holdsAudio
        }
    }

    /// What to call the format when it is written from a description of `media`.
    func name(for media: MediaKind) -> String {
        media == .audio ? audioName ?? name : name
    }

    /// Known formats, one a row. Video is encoded for quality, as ffmpeg does by default (x264
    /// constant quality 23 at the medium preset), not at x264enc's own 2 Mbit/s constant bitrate.
    static let all: [OutputFormat] = [
        h264(["mp4", "m4v"], "H.264 in MP4", muxer: "mp4mux", audio: aac, "AAC in MP4", crashSafe: true),
        h264(["mov"], "H.264 in QuickTime", muxer: "qtmux", audio: aac, "AAC in QuickTime", crashSafe: true),
        h264(["mkv"], "H.264 in Matroska", muxer: "matroskamux", audio: ["vorbisenc"], "Vorbis in Matroska"),
        video(["webm"], "VP8 in WebM", vp8, muxer: "webmmux", audio: ["opusenc", "vorbisenc"], "Opus in WebM"),
        video(["y4m"], "raw YUV4MPEG", ["y4menc"]),
        image(["png"], "PNG", "pngenc"),
        image(["jpg", "jpeg"], "JPEG", "jpegenc"),
        // Audio alone. An audioconvert and an audioresample go before each encoder (`FileJob`), so
        // any raw audio fits: Opus takes 48 kHz and fewer rates, FLAC integer samples only.
        audio(["wav"], "PCM in WAV", ["wavenc"]),
        audio(["flac"], "FLAC", ["flacenc"]),
        audio(["ogg"], "Opus in Ogg", ["opusenc"], muxer: "oggmux"),
        audio(["opus"], "Opus in Ogg", ["opusenc"], muxer: "oggmux"),
        audio(["m4a"], "AAC in MP4", aac, muxer: "mp4mux", crashSafe: true),
        audio(["mka"], "Vorbis in Matroska", ["vorbisenc"], muxer: "matroskamux"),
        // lamemp3enc encodes at variable bit rate (quality 4, LAME's default); xingmux puts the Xing
        // header first, without which players guess a VBR file's length from its first frame.
        audio(["mp3"], "MP3", ["lamemp3enc"], muxer: "xingmux")
    ]

    /// In quality mode x264enc caps the rate with a VBV buffer sized from `bitrate` (2 Mbit/s by
    /// default: outputs half ffmpeg's size); a buffer of zero turns the cap off, so x264 runs with
    /// the settings ffmpeg's libx264 writes in its SEI.
    private static let qualityH264 = [
        "x264enc", "pass=qual", "quantizer=23", "speed-preset=medium", "vbv-buf-capacity=0"
    ]
    /// x264enc in GStreamer 1.22 prefers 10-bit 4:4:4 (High 4:4:4 Predictive), which few players
    /// decode: a converter before it would choose that. 8-bit 4:2:0 plays everywhere, and is what
    /// ffmpeg writes from the usual 4:2:0 input.
    static let h264Input = "video/x-raw,format=I420"
    /// x264grayenc has the same defaults as the chain above, and gives the muxers `avc` directly
    /// (h264parse would set every frame's duration to the SPS's 1 ns tick, the last one included).
    private static let grayH264 = ["x264grayenc"]
    private static let vp8 = [
        "vp8enc", "deadline=1", "cpu-used=4", "end-usage=cq", "cq-level=16", "target-bitrate=4000000",
        "threads=\(ProcessInfo.processInfo.activeProcessorCount)"
    ]
    static let aac = ["avenc_aac", "voaacenc"]
    /// MP4 and QuickTime written as a fragment a second while running and made an ordinary file
    /// (one moov) at end of stream: a process killed outright (SIGKILL, the OOM killer, a power cut)
    /// leaves a file that plays up to its last fragment, not one without its moov atom that nothing
    /// can play. The fragments' headers stay inside the finished file's media data: about 20 bytes a
    /// sample, which is 3% of a 600 kbit/s file and 30% of a 60 kbit/s one.
    private static let fragmentedUntilTheEnd = ["fragment-duration=1000", "fragment-mode=first-moov-then-finalise"]

    /// A row of H.264 video (`grayH264` for gray's output) with `audio` beside it in `muxer`.
    private static func h264(
        _ extensions: [String], _ name: String, muxer: String, audio: [String], _ audioName: String,
        crashSafe: Bool = false
    ) -> OutputFormat {
        OutputFormat(
            extensions: extensions, name: name, videoChain: qualityH264, muxer: muxer, audioEncoders: audio,
            audioName: audioName, isImage: false, grayVideoChain: grayH264,
            crashSafeMuxing: crashSafe ? fragmentedUntilTheEnd : nil, encoderInput: h264Input)
    }

    /// A row of video by `chain`, in `muxer` with `audio` beside it when it has them.
    private static func video(
        _ extensions: [String], _ name: String, _ chain: [String], muxer: String? = nil, audio: [String]? = nil,
        _ audioName: String? = nil
    ) -> OutputFormat {
        OutputFormat(
            extensions: extensions, name: name, videoChain: chain, muxer: muxer, audioEncoders: audio,
            audioName: audioName, isImage: false)
    }

    /// A row of still images: one picture, or one a frame (`isSequence`).
    private static func image(_ extensions: [String], _ name: String, _ encoder: String) -> OutputFormat {
        OutputFormat(
            extensions: extensions, name: name, videoChain: [encoder], muxer: nil, audioEncoders: nil, isImage: true)
    }

    /// A row of audio alone, by the first installed of `encoders`, in `muxer` when it has one.
    private static func audio(
        _ extensions: [String], _ name: String, _ encoders: [String], muxer: String? = nil, crashSafe: Bool = false
    ) -> OutputFormat {
        OutputFormat(
            extensions: extensions, name: name, videoChain: [], muxer: muxer, audioEncoders: encoders,
            audioName: name, isImage: false, crashSafeMuxing: crashSafe ? fragmentedUntilTheEnd : nil)
    }

    /// The format for a file name, by its extension.
    static func forPath(_ path: String) -> OutputFormat? {
        let fileExtension = URL(fileURLWithPath: path).pathExtension.lowercased()
        return all.first { $0.extensions.contains(fileExtension) }
    }

    /// "…, .mp3 and so on": the extensions gstpipe writes, for error messages.
    static var knownExtensions: String { list(all) }

    /// The extensions of the formats that can hold `media`, for error messages: ".mp4, .mov, …, .png or .jpg".
    static func extensions(holding media: MediaKind) -> String {
        list(all.filter { $0.holds(media) }, conjunction: "or")
    }

    private static func list(_ formats: [OutputFormat], conjunction: String = "and") -> String {
        formats.map { "." + $0.extensions[0] }.listed(conjunction)
    }

    /// The Debian package that provides an element the formats use, for "install ..." advice.
    static func package(of element: String) -> String {
        ElementFactory.debianPackage(providing: element) ?? "gstreamer1.0-plugins-good"
    }

    /// True when a file name asks for a numbered image sequence (out%04d.png).
    static func isSequence(_ path: String) -> Bool {
        path.range(of: #"%0?[0-9]*d"#, options: .regularExpression) != nil
    }
}

extension [String] {
    /// "a, b and c" (or "a, b or c"): the items as a sentence lists them, for messages and `--help`.
    func listed(_ conjunction: String) -> String {
        guard let last, count > 1 else { return last ?? "" }
        return dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
