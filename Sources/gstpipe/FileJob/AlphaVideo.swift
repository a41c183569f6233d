import Foundation
import GStreamer
import GstPipeParsing
import GstPipeSupport

/// VP8 and VP9 with an alpha channel (WebM's AlphaMode), which gstpipe decodes without the alpha.
///
/// GStreamer 1.22 decodes them with vp8alphadecodebin and vp9alphadecodebin, which refuse a stream
/// whose first frame carries no alpha ("Cannot handle streams without an initial alpha buffer"),
/// as some WebM writers make it; ffmpeg decodes such files. gstpipe writes no alpha (its outputs'
/// encoders and gray have none), so the plain decoders, which read the colour alone, lose nothing.
enum AlphaVideo {
    /// The alpha decoders that decodebin would choose first.
    static let decoders = ["vp9alphadecodebin", "vp8alphadecodebin"]

    /// Leaves the alpha decoders out of decodebin's choice, through GStreamer's own
    /// `GST_PLUGIN_FEATURE_RANK` (read as GStreamer starts, so call this first). A rank the user set
    /// for them in that variable is kept.
    static func decodeWithoutAlpha() {
        let variable = "GST_PLUGIN_FEATURE_RANK"
        let current = ProcessEnvironment.value(variable) ?? ""
        let unset = decoders.filter { !ByteSearch.contains($0, in: current) }
        guard !unset.isEmpty else { return }
        let ranks = ([current].filter { !$0.isEmpty } + unset.map { "\($0):NONE" }).joined(separator: ",")
        setenv(variable, ranks, 1)
    }

    /// "the alpha channel of in.webm is left out: ...", when an element inside the decoding source
    /// `source` gives video with an alpha channel (caps with `codec-alpha=true`); else nil.
    static func note(inside source: Element, of pipeline: Pipeline, name: String) -> String? {
        let hasAlpha = pipeline.allElements.contains { element in
            element.isInside(source)
                && element.sourcePads.contains {
                    $0.currentCaps?.description.contains("codec-alpha=(boolean)true") == true
                }
        }
        guard hasAlpha else { return nil }
        return "\(name) has an alpha channel: decoding its colour alone (gstpipe writes no alpha)"
    }
}
