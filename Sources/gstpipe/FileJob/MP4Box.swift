import Foundation

/// One box of an MP4 (ISO BMFF) file, read from its bytes: what `TrackEnds` and `FragmentedMP4` read and
/// write in place.
struct MP4Box {
    /// The box's four-character type (`moov`, `trak`, `elst`).
    let type: String
    /// Where the box's content (its bytes after the header) is in the file's data.
    let content: Range<Int>

    /// The boxes one after another in `range` of `data`. A box that claims to run past `range` ends the
    /// list, or, with `keepingCut` (a file killed as it was written), is kept with what was written.
    static func boxes(in data: Data, _ range: Range<Int>, keepingCut: Bool = false) -> [MP4Box] {
        var result: [MP4Box] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound, let size32 = number(data, at, 4) {
            let type = String(decoding: data[at + 4..<at + 8], as: UTF8.self)
            var header = 8
            var size = Int(size32)
            if size32 == 1, let large = number(data, at + 8, 8) {
                size = Int(clamping: large)
                header = 16
            } else if size32 == 0 {
                size = range.upperBound - at
            }
            guard size >= header, keepingCut || at + size <= range.upperBound else { break }
            result.append(MP4Box(type: type, content: at + header..<min(at + size, range.upperBound)))
            at += size
        }
        return result
    }

    /// The big-endian number of `width` bytes at `at`, nil past the end.
    static func number(_ data: Data, _ at: Int, _ width: Int) -> UInt64? {
        guard at >= data.startIndex, at + width <= data.endIndex else { return nil }
        return data[at..<at + width].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
