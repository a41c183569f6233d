import Foundation

/// The length of a fragmented MP4 as `--record` writes it, read from its boxes: for each fragment
/// (`moof`), its decode time (`tfdt`) plus the durations of its samples (`trun`, or the defaults of
/// `tfhd` and `trex`), in the video track's timescale (`mdhd`). GStreamer's discoverer gives such a
/// file's length from its fragment index (`mfra`), which mp4mux writes in running time: the length
/// of every file recorded before it, too. A fragment cut short by kill -9 counts the samples whose
/// entries were written.
enum FragmentedMP4 {
    /// Seconds, or nil when the file is no fragmented MP4 or cannot be read.
    static func duration(ofFileAt path: String) -> Double? {
        // Mapped, not read: an hour's file is gigabytes, of which the boxes' headers are read.
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
        var timescale: UInt32?
        var defaultDuration: UInt32 = 0
        var end: UInt64 = 0
        var sawFragment = false
        for box in boxes(in: data, data.startIndex..<data.endIndex) {
            if box.type == "moov" {
                for inner in flatten(data, box.content, into: ["trak", "mdia", "mvex"]) {
                    if inner.type == "mdhd", timescale == nil { timescale = mdhdTimescale(data, inner.content) }
                    if inner.type == "trex", inner.content.count >= 24 {
                        defaultDuration = number(data, inner.content.lowerBound + 12, 4).map(UInt32.init) ?? 0
                    }
                }
            } else if box.type == "moof" {
                sawFragment = true
                for traf in boxes(in: data, box.content) where traf.type == "traf" {
                    end = max(end, fragmentEnd(data, traf.content, defaultDuration: defaultDuration))
                }
            }
        }
        guard sawFragment, let timescale, timescale > 0 else { return nil }
        return Double(end) / Double(timescale)
    }

    private struct Box {
        let type: String
        let content: Range<Int>
    }

    private static func fragmentEnd(_ data: Data, _ range: Range<Int>, defaultDuration: UInt32) -> UInt64 {
        var start: UInt64 = 0
        var sampleDuration = UInt64(defaultDuration)
        var total: UInt64 = 0
        for box in boxes(in: data, range) {
            let at = box.content.lowerBound
            guard box.content.count >= 4, let header = number(data, at, 4) else { continue }
            let version = header >> 24
            let flags = header & 0xFF_FFFF
            switch box.type {
            case "tfdt":
                start = number(data, at + 4, version == 1 ? 8 : 4) ?? 0
            case "tfhd":
                // track ID, then the optional fields in flag order: base offset (8), description index (4).
                var offset = at + 8
                if flags & 0x01 != 0 { offset += 8 }
                if flags & 0x02 != 0 { offset += 4 }
                if flags & 0x08 != 0, let value = number(data, offset, 4) { sampleDuration = value }
            case "trun":
                guard let count = number(data, at + 4, 4) else { continue }
                var offset = at + 8
                if flags & 0x001 != 0 { offset += 4 }
                if flags & 0x004 != 0 { offset += 4 }
                let fields = [0x100, 0x200, 0x400, 0x800].filter { flags & $0 != 0 }.count
                for _ in 0..<count {
                    guard offset + fields * 4 <= box.content.upperBound else { break }
                    total += flags & 0x100 != 0 ? (number(data, offset, 4) ?? 0) : sampleDuration
                    offset += fields * 4
                }
            default: continue
            }
        }
        return start + total
    }

    private static func mdhdTimescale(_ data: Data, _ range: Range<Int>) -> UInt32? {
        guard let header = number(data, range.lowerBound, 4) else { return nil }
        // version 1: 64-bit creation and modification times.
        let at = range.lowerBound + (header >> 24 == 1 ? 20 : 12)
        return number(data, at, 4).map(UInt32.init)
    }

    /// The boxes of `range` and, for those named in `containers`, the boxes inside them.
    private static func flatten(_ data: Data, _ range: Range<Int>, into containers: Set<String>) -> [Box] {
        boxes(in: data, range).flatMap { box in
            containers.contains(box.type) ? [box] + flatten(data, box.content, into: containers) : [box]
        }
    }

    private static func boxes(in data: Data, _ range: Range<Int>) -> [Box] {
        var result: [Box] = []
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
            guard size >= header else { break }
            // A box cut short (kill -9) keeps what was written.
            let end = min(at + size, range.upperBound)
            result.append(Box(type: type, content: at + header..<end))
            at += size
        }
        return result
    }

    /// The big-endian number of `width` bytes at `at`, nil past the end.
    private static func number(_ data: Data, _ at: Int, _ width: Int) -> UInt64? {
        guard at >= data.startIndex, at + width <= data.endIndex else { return nil }
        return data[at..<at + width].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
