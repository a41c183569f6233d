import Foundation

/// The length of a fragmented MP4 as `--record` writes it, read from its boxes: for each fragment
/// (`moof`), its decode time (`tfdt`) plus the durations of its samples (`trun`, or the defaults of
/// `tfhd` and `trex`), in the video track's timescale (`mdhd`). GStreamer's discoverer gives such a
/// file's length from its fragment index (`mfra`), which mp4mux writes in running time: the length
/// of every file recorded before it, too. A fragment cut short by kill -9 counts the samples whose
/// entries were written. `addEditList` gives a whole file the edit list mp4mux leaves out of fragmented files.
enum FragmentedMP4 {
    /// Seconds, or nil when the file is no fragmented MP4 or cannot be read.
    static func duration(ofFileAt path: String) -> Double? {
        // Mapped, not read: an hour's file is gigabytes, of which the boxes' headers are read.
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
        var timescale: UInt32?
        var defaultDuration: UInt32 = 0
        var end: UInt64 = 0
        var sawFragment = false
        for box in MP4Box.boxes(in: data, data.startIndex..<data.endIndex, keepingCut: true) {
            if box.type == "moov" {
                for inner in flatten(data, box.content, into: ["trak", "mdia", "mvex"]) {
                    if inner.type == "mdhd", timescale == nil { timescale = mdhdTimescale(data, inner.content) }
                    if inner.type == "trex", inner.content.count >= 24 {
                        defaultDuration = MP4Box.number(data, inner.content.lowerBound + 12, 4).map(UInt32.init) ?? 0
                    }
                }
            } else if box.type == "moof" {
                sawFragment = true
                for traf in MP4Box.boxes(in: data, box.content, keepingCut: true) where traf.type == "traf" {
                    end = max(end, fragmentEnd(data, traf.content, defaultDuration: defaultDuration).decoded)
                }
            }
        }
        guard sawFragment, let timescale, timescale > 0 else { return nil }
        return Double(end) / Double(timescale)
    }

    /// Where a fragment's samples end when decoded (`tfdt` plus the durations), and how long after the
    /// fragment's first decode time the first of them to be presented is presented (the reordering
    /// delay: composition offsets), in the track's timescale.
    private static func fragmentEnd(
        _ data: Data, _ range: Range<Int>, defaultDuration: UInt32
    ) -> (decoded: UInt64, firstPresented: Int64) {
        var start: UInt64 = 0
        var sampleDuration = UInt64(defaultDuration)
        var total: UInt64 = 0
        var firstPresented = Int64.max
        for box in MP4Box.boxes(in: data, range, keepingCut: true) {
            let at = box.content.lowerBound
            guard box.content.count >= 4, let header = MP4Box.number(data, at, 4) else { continue }
            let version = header >> 24
            let flags = header & 0xFF_FFFF
            switch box.type {
            case "tfdt":
                start = MP4Box.number(data, at + 4, version == 1 ? 8 : 4) ?? 0
            case "tfhd":
                // track ID, then the optional fields in flag order: base offset (8), description index (4).
                var offset = at + 8
                if flags & 0x01 != 0 { offset += 8 }
                if flags & 0x02 != 0 { offset += 4 }
                if flags & 0x08 != 0, let value = MP4Box.number(data, offset, 4) { sampleDuration = value }
            case "trun":
                guard let count = MP4Box.number(data, at + 4, 4) else { continue }
                var offset = at + 8
                if flags & 0x001 != 0 { offset += 4 }
                if flags & 0x004 != 0 { offset += 4 }
                let fields = [0x100, 0x200, 0x400, 0x800].filter { flags & $0 != 0 }.count
                for _ in 0..<count {
                    guard offset + fields * 4 <= box.content.upperBound else { break }
                    let duration = flags & 0x100 != 0 ? (MP4Box.number(data, offset, 4) ?? 0) : sampleDuration
                    // The composition offset is the entry's last field; signed in a version 1 trun.
                    var composition: Int64 = 0
                    if flags & 0x800 != 0, let raw = MP4Box.number(data, offset + (fields - 1) * 4, 4) {
                        composition = version == 1 ? Int64(Int32(truncatingIfNeeded: raw)) : Int64(raw)
                    }
                    firstPresented = min(firstPresented, Int64(clamping: total) + composition)
                    total += duration
                    offset += fields * 4
                }
            default: continue
            }
        }
        return (start + total, firstPresented)
    }

    /// Gives a whole recorded file the edit list mp4mux writes into a plain MP4 but not a fragmented one:
    /// its presentation starts at the first picture shown. With B-frames (x264's default, and the
    /// recording shares the output's encoder) each picture is shown the reordering delay after it is
    /// decoded, so the first is shown at 67 ms at 30 fps, while the movie's length (`mehd`) counts from
    /// zero. Read back by GStreamer (qtdemux: `gstpipe recordings --output`, `join`), each file's last
    /// frames then fell past its length and were dropped, and joined files had a gap of that delay.
    /// The edit starts the reordering delay after the first decode time, as mp4mux's own edit lists do: a
    /// file splitmuxsink starts a tick after zero then shows its first picture a tick after its start
    /// (one starting on that picture exactly lost it when joined after another: 119 frames of 120).
    /// The edit list (`edts`) takes the place of the track's `udta` (the encoder's name), with a `free`
    /// box after it, so that nothing after it moves. Does nothing to a file whose first picture is
    /// shown at zero, that has an edit list, or that has no `udta` to take the place of.
    static func addEditList(fileAt path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        var defaultDuration: UInt32 = 0
        var length: UInt64?
        var place: Range<Int>?
        var firstPresented: Int64?
        for box in MP4Box.boxes(in: data, data.startIndex..<data.endIndex, keepingCut: true) {
            if box.type == "moov" {
                let traks = MP4Box.boxes(in: data, box.content, keepingCut: true).filter { $0.type == "trak" }
                // One track: the recording's video.
                guard traks.count == 1, let trak = traks.first else { return }
                let children = MP4Box.boxes(in: data, trak.content, keepingCut: true)
                guard !children.contains(where: { $0.type == "edts" }) else { return }
                // The whole box, header included.
                place = children.first { $0.type == "udta" }.map { ($0.content.lowerBound - 8)..<$0.content.upperBound }
                for inner in flatten(data, box.content, into: ["mvex"]) {
                    let at = inner.content.lowerBound
                    let version = MP4Box.number(data, at, 4).map { $0 >> 24 } ?? 0
                    if inner.type == "mehd" { length = MP4Box.number(data, at + 4, version == 1 ? 8 : 4) }
                    if inner.type == "trex", inner.content.count >= 24 {
                        defaultDuration = MP4Box.number(data, at + 12, 4).map(UInt32.init) ?? 0
                    }
                }
            } else if box.type == "moof", firstPresented == nil {
                for traf in MP4Box.boxes(in: data, box.content, keepingCut: true) where traf.type == "traf" {
                    firstPresented = fragmentEnd(data, traf.content, defaultDuration: defaultDuration).firstPresented
                }
            }
        }
        guard let place, let length, let firstPresented, firstPresented > 0, firstPresented < Int64(Int32.max)
        else { return }
        // elst version 0 holds 32-bit times; version 1 64-bit ones.
        let wide = length > UInt64(UInt32.max)
        let elstSize = wide ? 36 : 28
        var edts = bytes(UInt64(8 + elstSize), 4) + Array("edts".utf8) + bytes(UInt64(elstSize), 4) + Array("elst".utf8)
        edts += bytes(wide ? 1 << 24 : 0, 4) + bytes(1, 4)
        edts += bytes(length, wide ? 8 : 4) + bytes(UInt64(firstPresented), wide ? 8 : 4) + bytes(1 << 16, 4)
        guard place.count == edts.count || place.count >= edts.count + 8 else { return }
        if place.count > edts.count {
            let free = place.count - edts.count
            edts += bytes(UInt64(free), 4) + Array("free".utf8) + [UInt8](repeating: 0, count: free - 8)
        }
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? file.close() }
        try file.seek(toOffset: UInt64(place.lowerBound))
        try file.write(contentsOf: edts)
    }

    /// `value`'s low `width` bytes, big-endian.
    private static func bytes(_ value: UInt64, _ width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private static func mdhdTimescale(_ data: Data, _ range: Range<Int>) -> UInt32? {
        guard let header = MP4Box.number(data, range.lowerBound, 4) else { return nil }
        // version 1: 64-bit creation and modification times.
        let at = range.lowerBound + (header >> 24 == 1 ? 20 : 12)
        return MP4Box.number(data, at, 4).map(UInt32.init)
    }

    /// The boxes of `range` and, for those named in `containers`, the boxes inside them.
    private static func flatten(_ data: Data, _ range: Range<Int>, into containers: Set<String>) -> [MP4Box] {
        MP4Box.boxes(in: data, range, keepingCut: true).flatMap { box in
            containers.contains(box.type) ? [box] + flatten(data, box.content, into: containers) : [box]
        }
    }
}
