import Foundation
import MediaIO

/// Loads the plugin of a decoder for a stream while a run is still being planned: the first element a
/// plugin makes loads it, and GStreamer's libav plugin registers hundreds of codecs as it loads (0.1 to
/// 0.2 s here, as long as the rest of a one-frame cut near the end of a long file). Started as soon as
/// the stream's caps are known, the load overlaps reading the input's times; the run's decodebin then
/// finds the plugin loaded (or waits for the load to end, as GStreamer loads a plugin once).
enum DecoderWarmUp {
    /// Starts loading, on a thread of its own, the plugin of the first video decoder (by name) that
    /// takes `caps`. Nothing happens when none does; the element made is dropped at once.
    static func start(for caps: Caps) {
        DispatchQueue.global(qos: .userInitiated).async {
            guard let names = try? ElementFactory.names(classifiedAs: "Decoder", "Video") else { return }
            for name in names {
                guard let details = try? ElementFactory.details(of: name),
                    details.padTemplates.contains(where: { $0.direction == .sink && $0.caps.canIntersect(caps) })
                else { continue }
                _ = try? ElementFactory.make(name)
                return
            }
        }
    }
}
