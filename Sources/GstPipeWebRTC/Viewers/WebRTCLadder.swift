import GstPipeParsing

/// The renditions a `webrtc://` output encodes once for all its viewers, largest first: each viewer
/// watches the one its link carries (`ViewerBandwidth`). `?ladder=off` is one rung (the source at the
/// encode's usual bit rate), `?ladder=WxH:KBPS,...` the rungs given, and by default three for a 720p
/// source: the source's size at 2.5 Mbit/s, 640x360 at 800 kbit/s and 320x180 at 250 kbit/s, fewer
/// for a smaller source (`fitting`).
package struct WebRTCLadder: Sendable, Equatable {
    /// One rendition: its picture size and the bit rate its encoder aims at.
    package struct Rung: Sendable, Equatable, CustomStringConvertible {
        /// The picture's width and height in pixels; nil for the source's own size.
        package let width: Int?
        package let height: Int?
        /// Bits a second.
        package let bitrate: Int

        /// A rendition of `width`x`height` (nil: the source's) at `bitrate` bits a second.
        package init(width: Int?, height: Int?, bitrate: Int) {
            (self.width, self.height, self.bitrate) = (width, height, bitrate)
        }

        /// As the option writes it: `640x360:800`.
        package var description: String {
            let size = width.flatMap { width in height.map { "\(width)x\($0)" } } ?? "source"
            return "\(size):\(bitrate / 1000)"
        }
    }

    /// The rungs, largest first.
    package let rungs: [Rung]

    /// A ladder of `rungs`, largest first.
    package init(rungs: [Rung]) {
        self.rungs = rungs
    }

    /// The most rungs a ladder has: each is an encoder running on a busy machine.
    package static let maximumRungs = 4

    /// The default: the source's size at 2.5 Mbit/s, 640x360 at 800 kbit/s, 320x180 at 250 kbit/s.
    package static let standard = WebRTCLadder(rungs: [
        Rung(width: nil, height: nil, bitrate: 2_500_000),
        Rung(width: 640, height: 360, bitrate: 800_000),
        Rung(width: 320, height: 180, bitrate: 250_000)
    ])

    /// One encode of the source, as before there were ladders.
    package static let off = WebRTCLadder(rungs: [
        Rung(width: nil, height: nil, bitrate: WebRTCCodec.defaultBitrate)
    ])

    /// Why a `ladder=` option cannot be encoded: the message says what is wrong and what to write.
    package struct Failure: Error, Sendable, Equatable {
        package let message: String
    }

    /// The ladder `option` writes (`off`, or `WxH:KBPS` rungs separated by commas, largest first).
    package init(option: String) throws(Failure) {
        let example = "write ladder=off or ladder=WxH:KBPS,... largest first, e.g. ladder=1280x720:2500,640x360:800"
        if option == "off" {
            self = .off
            return
        }
        let parts = option.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= Self.maximumRungs else {
            throw Failure(
                message: "ladder=\(option) has \(parts.count) rungs, at most \(Self.maximumRungs) are encoded")
        }
        var rungs: [Rung] = []
        for part in parts {
            let fields = part.split(separator: ":", omittingEmptySubsequences: false)
            let size = fields.first?.split(separator: "x", omittingEmptySubsequences: false) ?? []
            guard fields.count == 2, size.count == 2, let width = Int(size[0]), let height = Int(size[1]),
                let kbps = Int(fields[1])
            else {
                throw Failure(message: "ladder=\(option): '\(part)' is not a rung: \(example)")
            }
            guard kbps > 0 && kbps <= 100_000 else {
                throw Failure(
                    message: "ladder=\(option): '\(part)' has a bit rate of \(kbps) kbit/s: "
                        + "write one from 1 to 100000")
            }
            // I420 halves both sides for its colour: an odd side cannot be encoded as asked.
            guard (16...7680).contains(width), (16...4320).contains(height), width % 2 == 0, height % 2 == 0 else {
                throw Failure(
                    message: "ladder=\(option): '\(part)' is not a picture size that can be encoded: "
                        + "write an even width from 16 to 7680 and an even height from 16 to 4320")
            }
            if let larger = rungs.last,
                larger.width! < width || larger.height! < height || larger.bitrate <= kbps * 1000
            {
                throw Failure(
                    message: "ladder=\(option): '\(part)' is not smaller than the rung before it, "
                        + "in size and bit rate: \(example)")
            }
            rungs.append(Rung(width: width, height: height, bitrate: kbps * 1000))
        }
        self.rungs = rungs
    }

    /// The rungs a source of `width`x`height` can give: none larger than it (a rung of the source's
    /// own size always stays). For a given ladder, a rung larger than the source is a mistake that
    /// `check` reports; the default ladder just has fewer rungs for a small source.
    package func fitting(width: Int, height: Int) -> WebRTCLadder {
        WebRTCLadder(rungs: rungs.filter { ($0.width ?? 0) < width && ($0.height ?? 0) < height || $0.width == nil })
    }

    /// Nil when every rung fits a source of `width`x`height`; else why not, and what to do.
    package func check(width: Int, height: Int) -> Failure? {
        guard let larger = rungs.first(where: { ($0.width ?? 0) > width || ($0.height ?? 0) > height }) else {
            return nil
        }
        return Failure(
            message: "the ladder's rung \(larger) is larger than the source (\(width)x\(height)): "
                + "give rungs no larger than it, or ladder=off")
    }
}
