import MediaIO
import Synchronization

/// `gray`: renders each frame's luminance and hands the gray frame on downstream, in the format it
/// came in. YUV: the luma plane is kept and chroma set to neutral (128). RGB: R = G = B = luma (BT.601
/// weights, or BT.709 with `matrix=bt709`), alpha kept. GRAY8 passes through untouched (no copy).
public final class Gray: VideoFilter {
    /// The element's properties, declared in one place.
    public static let properties: [PropertySpec] = [
        PropertySpec(
            "matrix", blurb: "Luma weights for RGB input: bt601 or bt709", .string(default: "bt601"))
    ]

    /// Every format gray accepts, and hands on in the same format.
    public static let formats: [VideoPixelFormat] = Noise.formats

    public var pixelFormat: VideoPixelFormat { .i420 }
    public var acceptedPixelFormats: [VideoPixelFormat] { Gray.formats }

    private let properties: ElementProperties
    private let consumer = Mutex<(any VideoFrameConsumer)?>(nil)

    public init(properties: ElementProperties) {
        self.properties = properties
    }

    public func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        let matrix = properties.string("matrix") ?? "bt601"
        guard LumaWeights(name: matrix) != nil else {
            consumer.reportError("gray: unknown matrix \"\(matrix)\"; use bt601 or bt709")
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
        if frame.format.pixelFormat == .gray8 {
            consumer.consume(frame)
            return
        }
        let output = try consumer.makeFrame(format: frame.format, timestamp: frame.timestamp, duration: frame.duration)
        let weights = LumaWeights(name: properties.string("matrix") ?? "bt601") ?? .bt601
        try frame.withPlanes { input in
            try output.withMutablePlanes { output in
                if let layout = frame.format.pixelFormat.rgbLayout {
                    Gray.grayRGB(input[0], output[0], layout: layout, weights: weights)
                } else {
                    Gray.copyRows(input[0], output[0])
                    for plane in output.dropFirst() { Gray.fill(plane, with: 128) }
                }
            }
        }
        consumer.consume(output)
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
        layout: (red: Int, green: Int, blue: Int, pixelBytes: Int), weights: LumaWeights
    ) {
        let width = source.pixelBytesPerRow / layout.pixelBytes
        let (kr, kg, kb) = (UInt32(weights.red), UInt32(weights.green), UInt32(weights.blue))
        let input = source.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let output = destination.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let step = layout.pixelBytes
        for row in 0..<min(source.rows, destination.rows) {
            var from = input + row * source.bytesPerRow
            var to = output + row * destination.bytesPerRow
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
