import Foundation

/// What matroskamux and webmmux in GStreamer 1.22 write wrongly, written right in the finished file,
/// in place (no element moves):
///
/// - a string tag is written as GStreamer serializes a value: a title "A title" is written
///   `"A\ title"`, quotes and backslashes included, wherever it holds a space or any character but
///   letters, digits and `_-+/:.`. Each such `TagString` gets its value back, keeps its length
///   field, and is followed by a `Void` element filling the bytes the quotes and escapes took;
/// - the creation date (`DateUTC`) is the time of writing: it gets the input's.
enum MatroskaMetadata {
    private static let segment: UInt32 = 0x1853_8067
    private static let info: UInt32 = 0x1549_A966
    private static let dateUTC: UInt32 = 0x4461
    private static let tags: UInt32 = 0x1254_C367
    private static let tag: UInt32 = 0x7373
    private static let simpleTag: UInt32 = 0x67C8
    private static let tagString: UInt32 = 0x4487
    private static let void: UInt8 = 0xEC

    /// Unquotes the tag values of the Matroska or WebM file at `path`, and sets its creation date to
    /// `creationDate` when given; returns how many values it rewrote. Throws when the file cannot
    /// be read or written, or is no Matroska file.
    @discardableResult
    static func repair(fileAt path: String, creationDate: Date? = nil) throws -> Int {
        guard let file = FileHandle(forUpdatingAtPath: path) else { throw CocoaError(.fileWriteNoPermission) }
        defer { try? file.close() }
        var rewritten = 0
        try forEachTopLevel(of: file, [tags, info]) { id, data in
            if id == tags {
                rewritten += rewrite(&data, in: 0..<data.count, inside: tags)
            } else if let creationDate, let date = child(dateUTC, of: data), date.count == 8 {
                let nanoseconds = Int64((creationDate.timeIntervalSince(epoch) * 1e9).rounded())
                data.replaceSubrange(
                    date, with: (0..<8).reversed().map { UInt8(truncatingIfNeeded: nanoseconds >> (8 * $0)) })
            }
        }
        return rewritten
    }

    /// The creation date (`DateUTC`) of the Matroska or WebM file at `path`, or nil.
    static func creationDate(ofFileAt path: String) -> Date? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        var found: Date?
        try? forEachTopLevel(of: file, [info], write: false) { _, data in
            guard let date = child(dateUTC, of: data), date.count == 8 else { return }
            let nanoseconds = Int64(bitPattern: data[date].reduce(0) { $0 << 8 | UInt64($1) })
            found = epoch.addingTimeInterval(Double(nanoseconds) / 1e9)
        }
        return found
    }

    /// Matroska's dates count from 2001-01-01 UTC, as Foundation's reference date does.
    private static let epoch = Date(timeIntervalSinceReferenceDate: 0)

    /// Calls `body` with the content of each top-level element of the segment whose ID is in `ids`,
    /// and writes it back when `body` changed it.
    private static func forEachTopLevel(
        of file: FileHandle, _ ids: Set<UInt32>, write: Bool = true, _ body: (UInt32, inout Data) -> Void
    ) throws {
        let length = try file.seekToEnd()
        // The EBML header, then the segment, whose top-level elements are walked by their headers.
        guard let header = try element(in: file, at: 0, length: length), header.id == 0x1A45_DFA3,
            let segmentElement = try element(in: file, at: header.end, length: length),
            segmentElement.id == segment
        else { throw CocoaError(.fileReadCorruptFile) }
        var offset = segmentElement.dataStart
        let end = min(segmentElement.end, length)
        while offset < end, let child = try element(in: file, at: offset, length: length) {
            if ids.contains(child.id), child.end - child.dataStart < 16 << 20 {
                try file.seek(toOffset: child.dataStart)
                guard let original = try file.read(upToCount: Int(child.end - child.dataStart)) else { break }
                var data = original
                body(child.id, &data)
                if write && data != original {
                    try file.seek(toOffset: child.dataStart)
                    try file.write(contentsOf: data)
                }
            }
            // An element of unknown size (a live cluster) cannot be stepped over.
            guard child.end > offset, child.end <= length else { break }
            offset = child.end
        }
    }

    /// The content of the first child `id` in `data` (a master element's content).
    private static func child(_ id: UInt32, of data: Data) -> Range<Int>? {
        var offset = data.startIndex
        while offset < data.endIndex, let child = element(in: data, at: offset), child.end >= child.dataStart {
            if child.id == id, child.end <= data.endIndex { return child.dataStart..<child.end }
            offset = child.end
        }
        return nil
    }

    /// Unquotes each `TagString` under `range` of `data`, the content of a `parent` element.
    private static func rewrite(_ data: inout Data, in range: Range<Int>, inside parent: UInt32) -> Int {
        var offset = range.lowerBound
        var count = 0
        while offset < range.upperBound, let child = element(in: data, at: offset), child.end >= child.dataStart {
            let content = child.dataStart..<min(child.end, range.upperBound)
            switch child.id {
            case tag, simpleTag: count += rewrite(&data, in: content, inside: child.id)
            case tagString where parent == simpleTag:
                if let value = unquoted(data[content]), content.count - value.count >= 2 {
                    let lengthBytes = child.dataStart - child.idEnd
                    data.replaceSubrange(child.idEnd..<child.dataStart, with: vint(value.count, bytes: lengthBytes))
                    data.replaceSubrange(child.dataStart..<child.dataStart + value.count, with: value)
                    let gap = content.count - value.count
                    data.replaceSubrange(
                        child.dataStart + value.count..<content.upperBound, with: voidElement(filling: gap))
                    count += 1
                }
            default: break
            }
            offset = child.end
        }
        return count
    }

    /// The value GStreamer serialized as `"..."` with `\c` and `\ooo` escapes (matroskamux ends it
    /// with a NUL byte), or nil when `bytes` are not such a value.
    static func unquoted(_ bytes: Data) -> Data? {
        var bytes = Array(bytes)
        while bytes.last == 0 { bytes.removeLast() }
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else { return nil }
        var value: [UInt8] = []
        var index = 1
        while index < bytes.count - 1 {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\") else {
                value.append(byte)
                index += 1
                continue
            }
            guard index + 1 < bytes.count - 1 else { return nil }
            let octal = bytes[index + 1..<min(index + 4, bytes.count - 1)]
            if octal.count == 3, octal.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "7")).contains($0) }) {
                value.append(octal.reduce(0) { $0 << 3 | ($1 - UInt8(ascii: "0")) })
                index += 4
            } else {
                value.append(bytes[index + 1])
                index += 2
            }
        }
        return Data(value)
    }

    // MARK: EBML

    /// An element's header where it was read: in `Data` (positions are indices) or in the file
    /// (positions are byte offsets).
    private struct Element<Position> {
        let id: UInt32
        /// Where the size field starts (the ID's end), where the content starts, and where it ends.
        let idEnd: Position
        let dataStart: Position
        let end: Position
    }

    /// The element whose header starts at `offset` of the file; one of unknown size ends at the file's end.
    private static func element(in file: FileHandle, at offset: UInt64, length: UInt64) throws -> Element<UInt64>? {
        guard offset < length else { return nil }
        try file.seek(toOffset: offset)
        guard let head = try file.read(upToCount: 12), let parsed = element(in: head, at: 0) else { return nil }
        let dataStart = offset + UInt64(parsed.dataStart)
        let size = parsed.end - parsed.dataStart
        return Element(
            id: parsed.id, idEnd: offset + UInt64(parsed.idEnd), dataStart: dataStart,
            end: size < 0 ? length : dataStart + UInt64(size))
    }

    /// The element whose header starts at `offset` of `data`; its `end` may lie beyond the data (a
    /// header read alone). An unknown size (all ones) reads as -1 past the content's start.
    private static func element(in data: Data, at offset: Int) -> Element<Int>? {
        guard let (id, idLength) = readVint(data, at: offset, keepMarker: true), idLength <= 4,
            let (size, sizeLength) = readVint(data, at: offset + idLength, keepMarker: false)
        else { return nil }
        let dataStart = offset + idLength + sizeLength
        let unknown = size == (UInt64(1) << (7 * UInt64(sizeLength))) - 1
        guard unknown || size <= UInt64(Int.max - dataStart) else { return nil }
        return Element(
            id: UInt32(id), idEnd: offset + idLength, dataStart: dataStart,
            end: unknown ? dataStart - 1 : dataStart + Int(size))
    }

    /// An EBML variable-length number: its length is one more than the leading zero bits of its
    /// first byte. IDs keep their length marker, sizes do not.
    private static func readVint(_ data: Data, at offset: Int, keepMarker: Bool) -> (UInt64, Int)? {
        guard offset >= data.startIndex, offset < data.endIndex else { return nil }
        let first = data[offset]
        guard first != 0 else { return nil }
        let length = first.leadingZeroBitCount + 1
        guard offset + length <= data.endIndex else { return nil }
        var value = UInt64(keepMarker ? first : first & (0xFF >> length))
        for index in offset + 1..<offset + length { value = value << 8 | UInt64(data[index]) }
        return (value, length)
    }

    /// `value` as an EBML size of exactly `bytes` bytes.
    private static func vint(_ value: Int, bytes: Int) -> [UInt8] {
        let marked = UInt64(value) | UInt64(1) << (7 * UInt64(bytes))
        return (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: marked >> (8 * UInt64($0))) }
    }

    /// A Void element of exactly `count` bytes (at least 2): its ID, its size, zeros.
    private static func voidElement(filling count: Int) -> [UInt8] {
        let sizeBytes = count - 2 <= 126 ? 1 : count - 3 <= 16382 ? 2 : 8
        return [void] + vint(count - 1 - sizeBytes, bytes: sizeBytes)
            + [UInt8](repeating: 0, count: count - 1 - sizeBytes)
    }
}
