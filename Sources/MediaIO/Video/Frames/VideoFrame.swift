import GStreamer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A video frame: format, timestamps, rotation and pixels, either in a GStreamer buffer (zero-copy,
/// `.pixelBuffer`) or in memory of its own (`.rawData`, tightly packed).
///
/// Frames cross threads (a source's thread to the streaming thread). Pixels may be written only
/// through `withMutablePlanes` on a frame that `isWritable`, by whoever made it, before handing it on;
/// after that it is read-only, which is why sharing it is safe.
public final class VideoFrame: @unchecked Sendable {
    enum Storage {
        case gstreamer(Buffer, VideoInfo)
        case memory(UnsafeMutableRawBufferPointer)
    }

    /// Pixel format, size, frame rate and the bytes per row of each plane as this frame lays them out.
    public let format: VideoFrameFormat
    /// Presentation timestamp in nanoseconds.
    public let timestamp: ClockTime
    /// Duration in nanoseconds, when known.
    public let duration: ClockTime?
    /// Clockwise rotation to apply for display (from the stream's orientation tag); the pixels are not rotated.
    public let rotation: VideoRotation
    /// The colour matrix the stream's caps name (`.unknown` for frames made in memory).
    public let colorMatrix: VideoColorMatrix
    /// False for a frame from a buffer without a timestamp (then `timestamp` reads 0, and the frame
    /// goes on without one).
    public let hasTimestamp: Bool
    let storage: Storage

    init(
        buffer: Buffer, info: VideoInfo, format: VideoFrameFormat, timestamp: ClockTime, duration: ClockTime?,
        rotation: VideoRotation = .none, colorMatrix: VideoColorMatrix = .unknown, hasTimestamp: Bool = true
    ) {
        self.hasTimestamp = hasTimestamp
        self.storage = .gstreamer(buffer, info)
        self.format = format
        self.timestamp = timestamp
        self.duration = duration
        self.rotation = rotation
        self.colorMatrix = colorMatrix
    }

    /// A frame in memory of its own, tightly packed, zero-filled.
    ///
    /// - Parameters:
    ///   - format: The pixel format.
    ///   - width: Width in pixels, from 1 to 2147483647 (as caps allow).
    ///   - height: Height in pixels, from 1 to 2147483647.
    ///   - timestamp: Presentation timestamp in nanoseconds.
    ///   - duration: Duration in nanoseconds, or nil when unknown.
    ///   - rotation: Clockwise rotation to apply for display.
    /// - Throws: ``MediaIOError`` when the width or height is out of range, or the frame's bytes cannot be
    ///   allocated (their count overflows, or memory is short).
    public init(
        format: VideoPixelFormat, width: Int, height: Int, timestamp: ClockTime, duration: ClockTime? = nil,
        rotation: VideoRotation = .none
    ) throws(MediaIOError) {
        guard (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height) else {
            throw MediaIOError(
                "a \(format) frame of \(width)x\(height) is out of range: width and height go from 1 to 2147483647")
        }
        let frameFormat = VideoFrameFormat(pixelFormat: format, width: width, height: height)
        // Zeroed memory; malloc's alignment (16 bytes on 64-bit glibc and Darwin) suits any pixel type, and
        // a failed allocation is an error to throw, not a crash.
        guard let byteCount = frameFormat.checkedByteCount, let memory = calloc(max(byteCount, 1), 1) else {
            throw MediaIOError("a \(format) frame of \(width)x\(height) is too large for memory")
        }
        self.storage = .memory(UnsafeMutableRawBufferPointer(start: memory, count: max(byteCount, 1)))
        self.format = frameFormat
        self.timestamp = timestamp
        self.duration = duration
        self.rotation = rotation
        self.colorMatrix = .unknown
        self.hasTimestamp = true
    }

    /// A frame holding a copy of tightly packed `bytes` (as `consumeRawData` gets them).
    ///
    /// - Parameters:
    ///   - bytes: The pixels, plane after plane, rows without padding. Extra bytes are ignored; missing ones
    ///     stay zero.
    ///   - format: The frame's shape; its `bytesPerRow` is ignored (the copy is tightly packed).
    ///   - timestamp: Presentation timestamp in nanoseconds.
    ///   - duration: Duration in nanoseconds, or nil when unknown.
    ///   - rotation: Clockwise rotation to apply for display.
    /// - Throws: ``MediaIOError`` when the format's width or height is out of range or its bytes cannot be
    ///   allocated, as ``init(format:width:height:timestamp:duration:rotation:)`` does.
    public convenience init(
        copying bytes: UnsafeRawBufferPointer, format: VideoFrameFormat, timestamp: ClockTime,
        duration: ClockTime? = nil, rotation: VideoRotation = .none
    ) throws(MediaIOError) {
        try self.init(
            format: format.pixelFormat, width: format.width, height: format.height, timestamp: timestamp,
            duration: duration, rotation: rotation)
        guard case .memory(let memory) = storage, let source = bytes.baseAddress else { return }
        memory.copyMemory(from: UnsafeRawBufferPointer(start: source, count: min(bytes.count, memory.count)))
    }

    deinit {
        if case .memory(let memory) = storage { free(memory.baseAddress) }
    }

    /// `.pixelBuffer` for frames in GStreamer buffers, `.rawData` for frames in memory of their own.
    public var bufferType: VideoBufferType {
        if case .gstreamer = storage { return .pixelBuffer }
        return .rawData
    }

    /// The layout GStreamer describes the pixels with, for frames in a GStreamer buffer.
    var videoInfo: VideoInfo? {
        if case .gstreamer(_, let info) = storage { return info }
        return nil
    }

    /// The GStreamer buffer holding the pixels, for frames that are in one.
    public var buffer: Buffer? {
        if case .gstreamer(let buffer, _) = storage { return buffer }
        return nil
    }

    /// True when the pixels may be written (memory of its own, or a buffer nobody else holds).
    public var isWritable: Bool {
        switch storage {
        case .memory: true
        case .gstreamer(let buffer, _): buffer.isWritable
        }
    }

    /// One plane as mapped: where it starts and how it is laid out.
    private struct RawPlane {
        var base: UnsafeMutableRawPointer
        var bytesPerRow: Int
        var pixelBytesPerRow: Int
        var rows: Int
        /// From the first row to the last pixel of the last row.
        var length: Int { rows == 0 ? 0 : bytesPerRow * (rows - 1) + pixelBytesPerRow }

        /// The plane as handed out (`withPlanes` hands out its `readOnly` view).
        var view: MutableVideoPlane {
            MutableVideoPlane(
                bytes: UnsafeMutableRawBufferPointer(start: base, count: length), bytesPerRow: bytesPerRow,
                pixelBytesPerRow: pixelBytesPerRow, rows: rows)
        }
    }

    /// Maps every plane once (writable or not) for the duration of `body`.
    private func withRawPlanes<R>(writable: Bool, _ body: ([RawPlane]) throws -> R) throws -> R {
        switch storage {
        case .memory(let memory):
            var offset = 0
            var planes: [RawPlane] = []
            for plane in 0..<format.planeCount {
                let rows = format.rows(inPlane: plane)
                planes.append(
                    RawPlane(
                        base: memory.baseAddress! + offset, bytesPerRow: format.bytesPerRow[plane],
                        pixelBytesPerRow: format.pixelBytesPerRow(inPlane: plane), rows: rows))
                offset += format.bytesPerRow[plane] * rows
            }
            return try body(planes)
        case .gstreamer(let buffer, let info):
            return try buffer.withVideoFrame(info, writable: writable) { mapped in
                let planes = try (0..<mapped.planeCount).map { plane in
                    try mapped.withPlane(plane) { bytes, stride in
                        RawPlane(
                            base: UnsafeMutableRawPointer(mutating: bytes.baseAddress!), bytesPerRow: stride,
                            pixelBytesPerRow: info.planeRowBytes(plane), rows: info.planeHeight(plane))
                    }
                }
                return try body(planes)
            }
        }
    }

    /// Reads every plane, mapped once for the duration of `body`.
    ///
    /// - Parameter body: Called once with the planes in plane order; the pointers are valid only until it
    ///   returns.
    /// - Returns: What `body` returns.
    /// - Throws: `GStreamerError` when a GStreamer buffer cannot be mapped as the frame's format
    ///   (`gst_video_frame_map` fails), or what `body` throws.
    public func withPlanes<R>(_ body: ([VideoPlane]) throws -> R) throws -> R {
        try withRawPlanes(writable: false) { planes in try body(planes.map(\.view.readOnly)) }
    }

    /// Writes every plane. Only for writable frames (see `isWritable`); never copies behind your back.
    ///
    /// - Parameter body: Called once with the writable planes in plane order; the pointers are valid only until
    ///   it returns.
    /// - Returns: What `body` returns.
    /// - Throws: `GStreamerError` when the frame is not writable (its buffer is shared) or cannot be
    ///   mapped, or what `body` throws.
    public func withMutablePlanes<R>(_ body: ([MutableVideoPlane]) throws -> R) throws -> R {
        try withRawPlanes(writable: true) { planes in try body(planes.map(\.view)) }
    }

    /// The pixels tightly packed, plane after plane, without row padding (one copy).
    ///
    /// - Returns: `pixelBytesPerRow × rows` bytes for each plane, concatenated.
    /// - Throws: `GStreamerError` when a GStreamer buffer cannot be mapped as the frame's format.
    public func packedBytes() throws -> [UInt8] {
        try withPlanes { planes in
            var result: [UInt8] = []
            result.reserveCapacity(planes.reduce(0) { $0 + $1.pixelBytesPerRow * $1.rows })
            for plane in planes {
                for row in 0..<plane.rows {
                    let start = row * plane.bytesPerRow
                    result.append(contentsOf: plane.bytes[start..<start + plane.pixelBytesPerRow])
                }
            }
            return result
        }
    }
}
