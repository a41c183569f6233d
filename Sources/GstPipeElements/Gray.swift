import MediaIO
import Synchronization

/// `gray`: renders each frame's luminance and hands the gray frame on downstream, in the format it
/// came in (or as GRAY8 with `gray8=true`). YUV: the luma plane is kept and chroma set to neutral
/// (128). RGB: R = G = B = luma (BT.601 weights, BT.709 when the caps' colorimetry says bt709 or
/// `matrix=bt709`), alpha kept. GRAY8 passes through untouched.
///
/// The cheapest work is the work not done: for planar and semi-planar YUV in GStreamer's default
/// layout, the output's luma is the input's luma memory, shared, and its chroma one neutral block
/// shared by every frame, so no pixel is copied. Otherwise each input frame is read once and each
/// output frame written once, into a buffer from the element's pool.
public final class Gray: VideoFormatConverting {
    /// The element's properties, declared in one place.
    public static let properties: [PropertySpec] = [
        PropertySpec(
            "matrix", blurb: "Luma weights for RGB input: auto (bt709 when the caps' colorimetry says so, else bt601), bt601 or bt709",
            .string(default: "auto")),
        PropertySpec(
            "gray8", blurb: "Emit GRAY8 (one plane) instead of the input's format", .bool(default: false)),
    ]

    /// Every format gray accepts, and hands on in the same format.
    public static let formats: [VideoPixelFormat] = Noise.formats

    public var pixelFormat: VideoPixelFormat { .i420 }
    public var acceptedPixelFormats: [VideoPixelFormat] { Gray.formats }
    public var outputPixelFormat: VideoPixelFormat? { properties.bool("gray8") ? .gray8 : nil }

    private let properties: ElementProperties
    private let consumer = Mutex<(any VideoFrameConsumer)?>(nil)

    public init(properties: ElementProperties) {
        self.properties = properties
    }

    public func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        let matrix = properties.string("matrix") ?? "auto"
        guard matrix == "auto" || LumaWeights(name: matrix) != nil else {
            consumer.reportError("gray: unknown matrix \"\(matrix)\"; use auto, bt601 or bt709")
            return false
        }
        self.consumer.withLock { $0 = consumer }
        return true
    }

    public func shouldDispose() {
        consumer.withLock { $0 = nil }
    }

    public func render(_ frame: VideoFrame) throws {
        guard let consumer = consumer.withLock({ $0 }) else { return }
        let input = frame.format.pixelFormat
        let output = outputPixelFormat ?? input
        if input == .gray8 {
            consumer.consume(frame)
            return
        }
        if input.isYUV, let shared = consumer.makeFrame(sharingFirstPlaneOf: frame, as: output, otherPlanesFilledWith: 128) {
            consumer.consume(shared)
            return
        }
        var outputFormat = frame.format
        outputFormat.pixelFormat = output
        let result = try consumer.makeFrame(format: outputFormat, timestamp: frame.timestamp, duration: frame.duration)
        let weights = lumaWeights(for: frame)
        try frame.withPlanes { source in
            try result.withMutablePlanes { destination in
                if let layout = input.rgbLayout {
                    Gray.grayRGB(source[0], destination[0], layout: layout, weights: weights, grayOnly: output == .gray8)
                } else {
                    Gray.copyRows(source[0], destination[0])
                    for plane in destination.dropFirst() { Gray.fill(plane, with: 128) }
                }
            }
        }
        consumer.consume(result)
    }

    private func lumaWeights(for frame: VideoFrame) -> LumaWeights {
        let matrix = properties.string("matrix") ?? "auto"
        if let forced = LumaWeights(name: matrix) { return forced }
        return frame.colorMatrix == .bt709 ? .bt709 : .bt601
    }

    static func copyRows(_ source: VideoPlane, _ destination: MutableVideoPlane) {
        let count = min(source.pixelBytesPerRow, destination.pixelBytesPerRow)
        if source.bytesPerRow == destination.bytesPerRow {
            let total = source.bytesPerRow * (source.rows - 1) + count
            destination.bytes.baseAddress!.copyMemory(from: source.bytes.baseAddress!, byteCount: total)
            return
        }
        for row in 0..<min(source.rows, destination.rows) {
            (destination.bytes.baseAddress! + row * destination.bytesPerRow)
                .copyMemory(from: source.bytes.baseAddress! + row * source.bytesPerRow, byteCount: count)
        }
    }

    static func fill(_ plane: MutableVideoPlane, with value: UInt8) {
        plane.bytes.initializeMemory(as: UInt8.self, repeating: value)
    }

    static func grayRGB(
        _ source: VideoPlane, _ destination: MutableVideoPlane,
        layout: (red: Int, green: Int, blue: Int, pixelBytes: Int), weights: LumaWeights, grayOnly: Bool
    ) {
        let width = source.pixelBytesPerRow / layout.pixelBytes
        let (kr, kg, kb) = (UInt32(weights.red), UInt32(weights.green), UInt32(weights.blue))
        let input = source.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let output = destination.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let step = layout.pixelBytes
        for row in 0..<min(source.rows, destination.rows) {
            var from = input + row * source.bytesPerRow
            var to = output + row * destination.bytesPerRow
            if grayOnly {
                for column in 0..<width {
                    to[column] = UInt8(
                        truncatingIfNeeded: (kr * UInt32(from[layout.red]) + kg * UInt32(from[layout.green])
                            + kb * UInt32(from[layout.blue]) + 32768) >> 16)
                    from += step
                }
                continue
            }
            for _ in 0..<width {
                let luma = UInt8(
                    truncatingIfNeeded: (kr * UInt32(from[layout.red]) + kg * UInt32(from[layout.green])
                        + kb * UInt32(from[layout.blue]) + 32768) >> 16)
                if step == 4 {
                    // Copy the pixel first so alpha (or the padding byte) is kept, then set R, G and B.
                    UnsafeMutableRawPointer(to).storeBytes(
                        of: UnsafeRawPointer(from).loadUnaligned(as: UInt32.self), as: UInt32.self)
                }
                to[layout.red] = luma
                to[layout.green] = luma
                to[layout.blue] = luma
                from += step
                to += step
            }
        }
    }
}

/// Luma weights in 1/65536ths; each set sums to 65536, so white stays 255.
public struct LumaWeights: Sendable, Equatable {
    public var red: Int
    public var green: Int
    public var blue: Int

    /// BT.601: 0.299 R + 0.587 G + 0.114 B.
    public static let bt601 = LumaWeights(red: 19595, green: 38470, blue: 7471)
    /// BT.709: 0.2126 R + 0.7152 G + 0.0722 B.
    public static let bt709 = LumaWeights(red: 13933, green: 46871, blue: 4732)

    init(red: Int, green: Int, blue: Int) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The weights called "bt601" or "bt709".
    public init?(name: String) {
        switch name.lowercased() {
        case "bt601": self = .bt601
        case "bt709": self = .bt709
        default: return nil
        }
    }

    /// The luma of one RGB pixel, rounded.
    public func luma(red r: UInt8, green g: UInt8, blue b: UInt8) -> UInt8 {
        UInt8((red * Int(r) + green * Int(g) + blue * Int(b) + 32768) >> 16)
    }
}
