/// One plane of a frame, valid only inside `withPlanes`.
public struct VideoPlane {
    /// The plane's bytes, from the first row to the last pixel of the last row.
    public let bytes: UnsafeRawBufferPointer
    /// Bytes from one row to the next, padding included.
    public let bytesPerRow: Int
    /// Bytes of pixels in one row, without padding.
    public let pixelBytesPerRow: Int
    /// Rows in the plane (half the frame's height, rounded up, for a vertically subsampled chroma plane).
    public let rows: Int

    @usableFromInline
    init(bytes: UnsafeRawBufferPointer, bytesPerRow: Int, pixelBytesPerRow: Int, rows: Int) {
        self.bytes = bytes
        self.bytesPerRow = bytesPerRow
        self.pixelBytesPerRow = pixelBytesPerRow
        self.rows = rows
    }

    /// The pixel bytes of one row, padding left out: the fast way to read a plane byte by byte
    /// (`for value in plane.row(y) { ... }`), with no index arithmetic and no bounds check per byte
    /// in a release build.
    ///
    /// - Parameter index: The row, from 0 (top) to `rows - 1`.
    /// - Returns: The row's `pixelBytesPerRow` bytes, valid only inside `withPlanes`.
    @inlinable
    public func row(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        precondition(index >= 0 && index < rows, "row \(index) is outside the plane's \(rows) rows")
        let start = bytes.baseAddress!.advanced(by: index * bytesPerRow).bindMemory(
            to: UInt8.self, capacity: pixelBytesPerRow)
        return UnsafeBufferPointer(start: start, count: pixelBytesPerRow)
    }
}

/// One writable plane of a frame, valid only inside `withMutablePlanes`.
public struct MutableVideoPlane {
    /// The plane's writable bytes, from the first row to the last pixel of the last row.
    public let bytes: UnsafeMutableRawBufferPointer
    /// Bytes from one row to the next, padding included.
    public let bytesPerRow: Int
    /// Bytes of pixels in one row, without padding.
    public let pixelBytesPerRow: Int
    /// Rows in the plane (half the frame's height, rounded up, for a vertically subsampled chroma plane).
    public let rows: Int

    /// The same plane, read-only, as `withPlanes` gives it: for code written against ``VideoPlane``.
    @inlinable
    public var readOnly: VideoPlane {
        VideoPlane(
            bytes: UnsafeRawBufferPointer(bytes), bytesPerRow: bytesPerRow, pixelBytesPerRow: pixelBytesPerRow,
            rows: rows)
    }

    /// The writable pixel bytes of one row, padding left out (`for x in row.indices { row[x] = ... }`).
    ///
    /// - Parameter index: The row, from 0 (top) to `rows - 1`.
    /// - Returns: The row's `pixelBytesPerRow` bytes, valid only inside `withMutablePlanes`.
    @inlinable
    public func row(_ index: Int) -> UnsafeMutableBufferPointer<UInt8> {
        UnsafeMutableBufferPointer(mutating: readOnly.row(index))
    }
}
