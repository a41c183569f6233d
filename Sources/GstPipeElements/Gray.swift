import Dispatch
import Foundation
import GstPipeSupport
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
            "matrix",
            blurb:
                "Luma weights for RGB input: auto (bt709 when the caps' colorimetry says so, else bt601), bt601 or bt709",
            .string(default: "auto")),
        PropertySpec(
            "gray8", blurb: "Emit GRAY8 (one plane) instead of the input's format", .bool(default: false))
    ]

    /// Every format gray accepts, and hands on in the same format.
    public static let formats: [VideoPixelFormat] = Noise.formats

    /// I420, the format gray prefers when upstream offers several.
    public var pixelFormat: VideoPixelFormat { .i420 }
    /// Every format in ``formats``.
    public var acceptedPixelFormats: [VideoPixelFormat] { Gray.formats }
    /// GRAY8 with `gray8=true`, else nil: the input's own format.
    public var outputPixelFormat: VideoPixelFormat? { properties.bool("gray8") ? .gray8 : nil }

    private let properties: ElementProperties
    private let consumer = Locked<(any VideoFrameConsumer)?>(nil)

    /// A gray filter reading its `matrix` and `gray8` properties from `properties`.
    ///
    /// - Parameter properties: The element instance's properties, as ``properties`` declares them.
    public init(properties: ElementProperties) {
        self.properties = properties
    }

    /// Checks the `matrix` property and keeps `consumer` for the gray frames.
    ///
    /// - Parameter consumer: Where the gray frames go.
    /// - Returns: False, with an error on the bus, when `matrix` is not auto, bt601 or bt709.
    public func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        let matrix = properties.string("matrix") ?? "auto"
        guard matrix == "auto" || LumaWeights(name: matrix) != nil else {
            consumer.reportError("gray: unknown matrix \"\(matrix)\"; use auto, bt601 or bt709")
            return false
        }
        self.consumer.withLock { $0 = consumer }
        return true
    }

    /// Lets go of the consumer.
    public func shouldDispose() {
        consumer.withLock { $0 = nil }
    }

    /// Hands on the gray version of `frame`, on the streaming thread: GRAY8 as it is, YUV with its luma
    /// shared where the layout allows, anything else converted into a buffer from the element's pool.
    ///
    /// - Parameter frame: The input frame, in one of ``formats``.
    /// - Throws: `GStreamerError` when no output buffer can be had or a frame cannot be mapped; the
    ///   pipeline then stops with the error.
    public func render(_ frame: VideoFrame) throws {
        guard let consumer = consumer.withLock({ $0 }) else { return }
        let input = frame.format.pixelFormat
        let output = outputPixelFormat ?? input
        if input == .gray8 {
            consumer.consume(frame)
            return
        }
        if input.isYUV,
            let shared = consumer.makeFrame(sharingFirstPlaneOf: frame, as: output, otherPlanesFilledWith: 128)
        {
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
                    Gray.grayRGB(
                        source[0], destination[0], layout: layout, weights: weights, grayOnly: output == .gray8)
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

    static let cores = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))

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
        let rows = min(source.rows, destination.rows)
        let input = source.bytes.baseAddress!
        let output = destination.bytes.baseAddress!
        if layout.pixelBytes == 4 && !grayOnly {
            // Large frames are split into bands of rows, one per core: the bands touch disjoint memory,
            // and render still returns only when the whole frame is done.
            let bands = width * rows >= 512 * 1024 ? Gray.cores : 1
            let (inputStride, outputStride) = (source.bytesPerRow, destination.bytesPerRow)
            nonisolated(unsafe) let (from, to) = (input, output)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let first = rows * band / bands
                let last = rows * (band + 1) / bands
                grayPacked32(
                    from + first * inputStride, inputStride, to + first * outputStride, outputStride, width: width,
                    rows: last - first, layout: layout, weights: weights)
            }
            return
        }
        let step = layout.pixelBytes
        for row in 0..<rows {
            let from = (input + row * source.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            let to = (output + row * destination.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for column in 0..<width {
                let pixel = from + column * step
                let luma = weights.luma(red: pixel[layout.red], green: pixel[layout.green], blue: pixel[layout.blue])
                if grayOnly {
                    to[column] = luma
                } else {
                    to[column * step + layout.red] = luma
                    to[column * step + layout.green] = luma
                    to[column * step + layout.blue] = luma
                }
            }
        }
    }

    /// 4-byte pixels, eight at a time in 16-bit lanes: each 32-bit pixel is two 16-bit lanes holding
    /// two bytes each, so every multiply is a native 16-bit one (SSE2 on any x86-64, NEON on arm64).
    /// The fourth byte (alpha or padding) is kept.
    static func grayPacked32(
        _ input: UnsafeRawPointer, _ inputStride: Int, _ output: UnsafeMutableRawPointer, _ outputStride: Int,
        width: Int, rows: Int, layout: (red: Int, green: Int, blue: Int, pixelBytes: Int), weights: LumaWeights
    ) {
        var byteWeight: [UInt16] = [0, 0, 0, 0]
        byteWeight[layout.red] = UInt16(weights.red)
        byteWeight[layout.green] = UInt16(weights.green)
        byteWeight[layout.blue] = UInt16(weights.blue)
        let lowWeights = SIMD16<UInt16>((0..<16).map { byteWeight[($0 % 2) * 2] })
        let highWeights = SIMD16<UInt16>((0..<16).map { byteWeight[($0 % 2) * 2 + 1] })
        let (redShift, greenShift, blueShift) = (
            UInt32(layout.red * 8), UInt32(layout.green * 8), UInt32(layout.blue * 8)
        )
        let keep = ~((UInt32(0xFF) << redShift) | (UInt32(0xFF) << greenShift) | (UInt32(0xFF) << blueShift))
        let vectorWidth = width & ~7
        for row in 0..<rows {
            let fromRaw = input + row * inputStride
            let toRaw = output + row * outputStride
            var column = 0
            while column < vectorWidth {
                let pixels = fromRaw.loadUnaligned(fromByteOffset: column * 4, as: SIMD8<UInt32>.self)
                let halves = unsafeBitCast(pixels, to: SIMD16<UInt16>.self)
                let weighted = (halves & 0xFF) &* lowWeights &+ (halves &>> 8) &* highWeights
                let pairs = unsafeBitCast(weighted, to: SIMD8<UInt32>.self)
                let luma = ((pairs & 0xFFFF) &+ (pairs &>> 16) &+ 128) &>> 8
                let gray =
                    (luma &<< SIMD8(repeating: redShift)) | (luma &<< SIMD8(repeating: greenShift))
                    | (luma &<< SIMD8(repeating: blueShift))
                toRaw.storeBytes(of: (pixels & keep) | gray, toByteOffset: column * 4, as: SIMD8<UInt32>.self)
                column += 8
            }
            let from = fromRaw.assumingMemoryBound(to: UInt8.self)
            let to = toRaw.assumingMemoryBound(to: UInt8.self)
            for column in vectorWidth..<width {
                let pixel = from + column * 4
                let luma = weights.luma(red: pixel[layout.red], green: pixel[layout.green], blue: pixel[layout.blue])
                (to + column * 4).update(from: pixel, count: 4)
                to[column * 4 + layout.red] = luma
                to[column * 4 + layout.green] = luma
                to[column * 4 + layout.blue] = luma
            }
        }
    }
}

/// Luma weights in 1/256ths; each set sums to 256, so white stays 255 and every product fits 16 bits.
public struct LumaWeights: Sendable, Equatable {
    /// The weight of red, in 1/256ths.
    public var red: Int
    /// The weight of green, in 1/256ths.
    public var green: Int
    /// The weight of blue, in 1/256ths.
    public var blue: Int

    /// BT.601: 0.299 R + 0.587 G + 0.114 B.
    public static let bt601 = LumaWeights(red: 77, green: 150, blue: 29)
    /// BT.709: 0.2126 R + 0.7152 G + 0.0722 B.
    public static let bt709 = LumaWeights(red: 54, green: 183, blue: 19)

    init(red: Int, green: Int, blue: Int) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The weights called "bt601" or "bt709".
    ///
    /// - Parameter name: "bt601" or "bt709", in any case; anything else gives nil.
    public init?(name: String) {
        switch name.lowercased() {
        case "bt601": self = .bt601
        case "bt709": self = .bt709
        default: return nil
        }
    }

    /// The luma of one RGB pixel, rounded.
    ///
    /// - Parameters:
    ///   - r: The red component, 0–255.
    ///   - g: The green component, 0–255.
    ///   - b: The blue component, 0–255.
    /// - Returns: The luma, 0–255.
    @inline(__always)
    public func luma(red r: UInt8, green g: UInt8, blue b: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (red * Int(r) + green * Int(g) + blue * Int(b) + 128) >> 8)
    }
}
