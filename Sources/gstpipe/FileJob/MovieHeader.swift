import Foundation

/// What GStreamer 1.22's mp4mux and qtmux leave out of an MP4 or QuickTime file's header, read from
/// the input's header and written over the output's:
///
/// - the creation time: they write the time of writing (the input's `datetime` tag reaches them
///   and is not written);
/// - the video track's display matrix: they write none from an `image-orientation` tag, so a file
///   written with `--no-autorotate` would lose its orientation.
///
/// Both are fixed-size fields of the `moov` box (`mvhd`, `tkhd`, `mdhd`), so the output is changed
/// in place after it is finished: no box moves.
struct MovieHeader: Equatable {
    /// Seconds since 1904-01-01 UTC (the QuickTime epoch); nil when the file gives none (zero).
    var creationTime: UInt64?
    /// The video track's display matrix: nine big-endian 32-bit numbers (36 bytes).
    var videoMatrix: [UInt8]?

    /// `creationTime` as a date: QuickTime counts from 1904-01-01 UTC, 2,082,844,800 s before 1970.
    var creationDate: Date? {
        get { creationTime.map { Date(timeIntervalSince1970: Double($0) - 2_082_844_800) } }
        set {
            creationTime = newValue.flatMap { date in
                let seconds = date.timeIntervalSince1970.rounded() + 2_082_844_800
                return seconds > 0 && seconds < Double(UInt64.max) ? UInt64(seconds) : nil
            }
        }
    }

    /// The header of the MP4 or QuickTime file at `path`, or nil when it is no such file.
    static func read(from path: String) -> MovieHeader? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        guard let (_, moov, content) = try? movieBox(in: file) else { return nil }
        var header = MovieHeader()
        for box in MP4Box.boxes(in: moov, content) {
            if box.type == "mvhd" {
                let time = creationTime(in: moov, fullBox: box.content)
                header.creationTime = time == 0 ? nil : time
            } else if box.type == "trak", isVideoTrack(box, in: moov),
                let tkhd = MP4Box.boxes(in: moov, box.content).first(where: { $0.type == "tkhd" }),
                let matrix = matrixRange(in: moov, tkhd: tkhd.content)
            {
                header.videoMatrix = Array(moov[matrix])
            }
        }
        return header
    }

    /// Writes the creation time (movie, tracks and their media) and the video track's matrix of
    /// `header` over those of the file at `path`; a field `header` lacks is left as it is.
    /// Throws when the file cannot be read or written, or is no MP4 or QuickTime file.
    static func write(_ header: MovieHeader, to path: String) throws {
        guard let file = FileHandle(forUpdatingAtPath: path) else { throw CocoaError(.fileWriteNoPermission) }
        defer { try? file.close() }
        guard let (offset, original, content) = try movieBox(in: file) else { throw CocoaError(.fileReadCorruptFile) }
        var moov = original
        for box in MP4Box.boxes(in: moov, content) {
            if box.type == "mvhd", let time = header.creationTime {
                setCreationTime(time, in: &moov, fullBox: box.content)
            }
            guard box.type == "trak" else { continue }
            let trackBoxes = MP4Box.boxes(in: moov, box.content)
            for child in trackBoxes {
                if child.type == "tkhd" {
                    if let time = header.creationTime { setCreationTime(time, in: &moov, fullBox: child.content) }
                    if let matrix = header.videoMatrix, isVideoTrack(box, in: moov),
                        let range = matrixRange(in: moov, tkhd: child.content)
                    {
                        moov.replaceSubrange(range, with: matrix)
                    }
                }
                if child.type == "mdia", let time = header.creationTime,
                    let mdhd = MP4Box.boxes(in: moov, child.content).first(where: { $0.type == "mdhd" })
                {
                    setCreationTime(time, in: &moov, fullBox: mdhd.content)
                }
            }
        }
        guard moov != original else { return }
        try file.seek(toOffset: offset)
        try file.write(contentsOf: moov)
    }

    // MARK: Boxes

    /// The first `moov` box of the file, whole, where it starts in the file, and where its content
    /// starts in it.
    private static func movieBox(in file: FileHandle) throws -> (offset: UInt64, moov: Data, content: Range<Int>)? {
        let length = try file.seekToEnd()
        var offset: UInt64 = 0
        while offset + 8 <= length {
            try file.seek(toOffset: offset)
            guard let head = try file.read(upToCount: 16), head.count >= 8 else { return nil }
            let type = String(decoding: head[4..<8], as: UTF8.self)
            var size = UInt64(readUInt32(head, at: 0))
            let header = size == 1 ? 16 : 8
            if size == 1 {
                guard head.count == 16 else { return nil }
                size = readUInt64(head, at: 8)
            } else if size == 0 {
                size = length - offset
            }
            // The first box of an ISO file is ftyp (QuickTime may start with wide, free, mdat...):
            // anything not made of four printable letters is no such file.
            guard size >= 8, type.utf8.allSatisfy({ (0x20...0x7e).contains($0) }) else { return nil }
            if type == "moov" {
                guard size < 256 << 20, offset + size <= length else { return nil }
                try file.seek(toOffset: offset)
                guard let moov = try file.read(upToCount: Int(size)), moov.count == Int(size) else { return nil }
                return (offset, Data(moov), header..<Int(size))
            }
            offset += size
        }
        return nil
    }

    /// True for a `trak` whose media handler is video (`mdia/hdlr` of type `vide`).
    private static func isVideoTrack(_ trak: MP4Box, in data: Data) -> Bool {
        guard let mdia = MP4Box.boxes(in: data, trak.content).first(where: { $0.type == "mdia" }),
            let hdlr = MP4Box.boxes(in: data, mdia.content).first(where: { $0.type == "hdlr" }),
            hdlr.content.count >= 12
        else { return false }
        return String(decoding: data[hdlr.content.lowerBound + 8..<hdlr.content.lowerBound + 12], as: UTF8.self)
            == "vide"
    }

    /// The 36 bytes of a `tkhd`'s matrix: after version and flags, times, track ID and duration
    /// (32- or 64-bit by version), 8 reserved bytes, layer, group, volume and 2 reserved bytes.
    private static func matrixRange(in data: Data, tkhd: Range<Int>) -> Range<Int>? {
        guard tkhd.count >= 4 else { return nil }
        let start = tkhd.lowerBound + 4 + (data[tkhd.lowerBound] == 1 ? 32 : 20) + 16
        guard start + 36 <= tkhd.upperBound else { return nil }
        return start..<start + 36
    }

    /// A full box's creation time (`mvhd`, `tkhd` and `mdhd` start alike): 32-bit in version 0,
    /// 64-bit in version 1.
    private static func creationTime(in data: Data, fullBox: Range<Int>) -> UInt64 {
        guard fullBox.count >= 12 else { return 0 }
        return data[fullBox.lowerBound] == 1
            ? readUInt64(data, at: fullBox.lowerBound + 4) : UInt64(readUInt32(data, at: fullBox.lowerBound + 4))
    }

    private static func setCreationTime(_ time: UInt64, in data: inout Data, fullBox: Range<Int>) {
        guard fullBox.count >= 12 else { return }
        let start = fullBox.lowerBound + 4
        if data[fullBox.lowerBound] == 1 {
            data.replaceSubrange(
                start..<start + 8, with: bigEndian(UInt32(time >> 32)) + bigEndian(UInt32(time & 0xffff_ffff)))
        } else if time <= UInt32.max {
            data.replaceSubrange(start..<start + 4, with: bigEndian(UInt32(time)))
        }
    }

    private static func readUInt32(_ data: Data, at offset: Int) -> UInt32 {
        data[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func readUInt64(_ data: Data, at offset: Int) -> UInt64 {
        data[offset..<offset + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }

}

private func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
}
