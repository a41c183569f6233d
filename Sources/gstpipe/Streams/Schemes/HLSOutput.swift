import Foundation
import GstPipeParsing

/// `DIR/NAME.m3u8`: HLS, written as files (hlssink2): the playlist, and 2-second MPEG-TS segments
/// beside it (H.264, and a file's AAC), a live window of them unless `--hls-window 0` keeps them all.
struct HLSOutput: StreamOutput {
    static let scheme = OutputScheme(
        naming: .fileExtension("m3u8"), help: "DIR/NAME.m3u8 (HLS)", example: "live/stream.m3u8")

    let address: StreamAddress

    init(_ address: StreamAddress) {
        self.address = address
    }

    var format: OutputFormat { Self.format }

    private static let format = OutputFormat(
        extensions: ["m3u8"], name: "HLS (H.264 in MPEG-TS segments)",
        videoChain: OutputFormat.streamingH264 + ["!", "h264parse"], muxer: "hlssink2",
        audioEncoders: OutputFormat.aac, audioName: "HLS (AAC in MPEG-TS segments)", isImage: false,
        encoderInput: OutputFormat.h264Input)

    /// hlssink2 writes the files itself.
    var sinkChain: [ElementSpec] { [] }

    /// Where segments and playlist go, how many the playlist lists (`--hls-window`), and how many
    /// stay on disk (the window and two more; with 0, every one).
    func muxerProperties(_ settings: StreamSettings) -> [(name: String, value: ElementSpec.Value)] {
        let window = settings.hlsWindow
        let playlist = URL(fileURLWithPath: address.path)
        let segments = playlist.deletingPathExtension().path + "%05d.ts"
        return [
            ("location", .string(segments)), ("playlist-location", .string(playlist.path)),
            ("target-duration", .text("2")), ("playlist-length", .text(String(window))),
            ("max-files", .text(String(window == 0 ? 0 : window + 2)))
        ]
    }

    func startNote(_ settings: StreamSettings) -> String? {
        let window = settings.hlsWindow == 0 ? "every segment kept" : "a live window of \(settings.hlsWindow) segments"
        return "writing HLS to \(address.path) (2 s segments beside it, \(window))"
    }

    var failureAdvice: String { "check that the folder of \(address.path) exists and that you may write to it" }
}
