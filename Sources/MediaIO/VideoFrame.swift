import GStreamer

/// One plane of a frame, valid only inside `withPlanes`.
public struct VideoPlane {
    /// The plane's bytes, from the first row to the last pixel of the last row.
    public let bytes: UnsafeRawBufferPointer
    /// Bytes from one row to the next, padding included.
    public let bytesPerRow: Int
    /// Bytes of pixels in one row, without padding.
    public let pixelBytesPerRow: Int
    public let rows: Int
}

/// One writable plane of a frame, valid only inside `withMutablePlanes`.
public struct MutableVideoPlane {
    public let bytes: UnsafeMutableRawBufferPointer
    public let bytesPerRow: Int
    public let pixelBytesPerRow: Int
    public let rows: Int
}

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

    public let format: VideoFrameFormat
    /// Presentation timestamp in nanoseconds.
    public let timestamp: ClockTime
    /// Duration in nanoseconds, when known.
    public let duration: ClockTime?
    public let rotation: VideoRotation
    /// The colour matrix the stream's caps name (`.unknown` for frames made in memory).
    public let colorMatrix: VideoColorMatrix
    /// False for a frame from a buffer without a timestamp (then `timestamp` reads 0, and the frame
    /// goes on without one).
    public let hasTimestamp: Bool
    let storage: Storage

    init(buffer: Buffer, info: VideoInfo, format: VideoFrameFormat, timestamp: ClockTime, duration: ClockTime?,
         rotation: VideoRotation = .none, colorMatrix: VideoColorMatrix = .unknown, hasTimestamp: Bool = true) {
        self.hasTimestamp = hasTimestamp
        self.storage = .gstreamer(buffer, info)
        self.format = format
        self.timestamp = timestamp
        self.duration = duration
        self.rotation = rotation
        self.colorMatrix = colorMatrix
    }

    /// A frame in memory of its own, tightly packed, zero-filled.
    public init(format: VideoPixelFormat, width: Int, height: Int, timestamp: ClockTime, duration: ClockTime? = nil,
                rotation: VideoRotation = .none) {
        let frameFormat = VideoFrameFormat(pixelFormat: format, width: width, height: height)
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(frameFormat.byteCount, 1), alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0)
        self.storage = .memory(memory)
        self.format = frameFormat
        self.timestamp = timestamp
        self.duration = duration
        self.rotation = rotation
        self.colorMatrix = .unknown
        self.hasTimestamp = true
    }

    /// A frame holding a copy of tightly packed `bytes` (as `consumeRawData` gets them).
    public convenience init(copying bytes: UnsafeRawBufferPointer, format: VideoFrameFormat, timestamp: ClockTime,
                            duration: ClockTime? = nil, rotation: VideoRotation = .none) {
        self.init(format: format.pixelFormat, width: format.width, height: format.height, timestamp: timestamp,
                  duration: duration, rotation: rotation)
        guard case .memory(let memory) = storage else { return }
        memory.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.prefix(memory.count)))
    }

    deinit {
        if case .memory(let memory) = storage { memory.deallocate() }
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

    /// Reads every plane, mapped once for the duration of `body`.
    public func withPlanes<R>(_ body: ([VideoPlane]) throws -> R) throws -> R {
        switch storage {
        case .memory(let memory):
            var offset = 0
            var planes: [VideoPlane] = []
            for plane in 0..<format.planeCount {
                let length = format.bytesPerRow[plane] * format.rows(inPlane: plane)
                planes.append(VideoPlane(
                    bytes: UnsafeRawBufferPointer(rebasing: memory[offset..<offset + length]),
                    bytesPerRow: format.bytesPerRow[plane], pixelBytesPerRow: format.pixelBytesPerRow(inPlane: plane),
                    rows: format.rows(inPlane: plane)))
                offset += length
            }
            return try body(planes)
        case .gstreamer(let buffer, let info):
            return try buffer.withVideoFrame(info) { mapped in
                var planes: [VideoPlane] = []
                for plane in 0..<mapped.planeCount {
                    mapped.withPlane(plane) { bytes, stride in
                        planes.append(VideoPlane(
                            bytes: bytes, bytesPerRow: stride, pixelBytesPerRow: info.planeRowBytes(plane),
                            rows: info.planeHeight(plane)))
                    }
                }
                return try body(planes)
            }
        }
    }

    /// Writes every plane. Only for writable frames (see `isWritable`); never copies behind your back.
    public func withMutablePlanes<R>(_ body: ([MutableVideoPlane]) throws -> R) throws -> R {
        switch storage {
        case .memory(let memory):
            var offset = 0
            var planes: [MutableVideoPlane] = []
            for plane in 0..<format.planeCount {
                let length = format.bytesPerRow[plane] * format.rows(inPlane: plane)
                planes.append(MutableVideoPlane(
                    bytes: UnsafeMutableRawBufferPointer(rebasing: memory[offset..<offset + length]),
                    bytesPerRow: format.bytesPerRow[plane], pixelBytesPerRow: format.pixelBytesPerRow(inPlane: plane),
                    rows: format.rows(inPlane: plane)))
                offset += length
            }
            return try body(planes)
        case .gstreamer(let buffer, let info):
            return try buffer.withVideoFrame(info, writable: true) { mapped in
                var planes: [MutableVideoPlane] = []
                for plane in 0..<mapped.planeCount {
                    mapped.withMutablePlane(plane) { bytes, stride in
                        planes.append(MutableVideoPlane(
                            bytes: bytes, bytesPerRow: stride, pixelBytesPerRow: info.planeRowBytes(plane),
                            rows: info.planeHeight(plane)))
                    }
                }
                return try body(planes)
            }
        }
    }

    /// The pixels tightly packed, plane after plane, without row padding (one copy).
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
