import Foundation
import MediaIO

/// The picture the outputs show while a reconnecting input is away: dark gray with "no signal" in
/// the middle (when textoverlay is installed; plain gray without it), made once in the caps the
/// outputs were started with, by a short pipeline of GStreamer's own test source, and then sent
/// again and again with new timestamps (the same memory each time: no copy a frame).
enum Slate {
    /// Makes the slate in `caps` (raw video, fixed), or nil when GStreamer cannot (then the last
    /// frame stays instead).
    static func make(in caps: Caps) -> Buffer? {
        guard let pipeline = try? Pipeline(name: "gstpipe-slate") else { return nil }
        defer { pipeline.stop() }
        let height = (try? VideoInfo(caps: caps))?.height ?? 480
        do throws(GStreamerError) {
            var chain = [
                try ElementSpec(
                    "videotestsrc",
                    [
                        ("num-buffers", .text("1")), ("pattern", .text("solid-color")),
                        ("foreground-color", .text("\(0xff30_3030 as UInt32)"))
                    ]
                ).make(in: pipeline)
            ]
            if GStreamer.hasElement(named: "textoverlay") {
                // Points, at 96 dots an inch: a twelfth of the picture's height.
                let size = max(6, height * 3 / 4 / 12)
                chain.append(
                    try ElementSpec(
                        "textoverlay",
                        [
                            ("text", .string("no signal")), ("valignment", .text("center")),
                            ("halignment", .text("center")), ("font-desc", .string("Sans \(size)")),
                            ("shaded-background", .text("false"))
                        ]
                    ).make(in: pipeline))
            }
            chain += [
                try ElementSpec("videoconvert").make(in: pipeline), try ElementSpec("videoscale").make(in: pipeline),
                try ElementSpec("capsfilter", [("caps", .string(caps.description))]).make(in: pipeline)
            ]
            let sink = try AppSink()
            sink.sync = false
            try pipeline.add(sink)
            for (upstream, downstream) in zip(chain, chain.dropFirst() + [sink]) { try upstream.link(to: downstream) }
            try pipeline.play()
            return sink.tryPullSample(timeout: .seconds(5))?.buffer
        } catch {
            return nil
        }
    }
}
