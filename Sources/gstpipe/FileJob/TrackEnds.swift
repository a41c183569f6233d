import Foundation

/// Makes a live input's MP4 end its audio where its video ends, by the audio track's edit list.
///
/// A live run stopped at an arbitrary moment (Ctrl-C, SIGTERM, `--reconnect-max`) ends each stream
/// where its own last buffer was: the audio's source and encoder run a few buffers ahead of the
/// video's, whose frames are paced (the reconnecting input holds each until its time) and whose
/// encoder holds its B-frames, and the AAC encoder pads its last frame to 1024 samples. Measured on an
/// RTSP camera with sound: the audio ran 20 to 30 ms past the video, 180 to 280 ms with `--reconnect`.
/// mp4mux writes an edit list for each track (`edts`/`elst`); shortening the audio's last edit to the
/// video's end (and the audio track's and the movie's lengths with it) is a change of fixed-size
/// fields in place: no box moves, no sample is lost, and every player stops the sound with the
/// picture. A file input's tracks are left as they are: their lengths are the input's own.
///
/// The sound can also stop first, by less than a frame: its source is stopped where its last packet
/// got to, up to 40 ms behind the picture measured at 25 fps. Then the video's last edit ends with the
/// sound instead, and the last picture is shown that much shorter. A sound that stopped a frame or more
/// before the picture is left so: the picture is not cut to it.
enum TrackEnds {
    /// The audio tracks of the MP4 at `path` cut to end with its video track, in the movie's timescale,
    /// or the video cut to end with the audio when the audio stops less than its last frame before it.
    /// Returns how many seconds of audio the edit lists no longer present (0 when nothing was longer).
    /// Throws when the file cannot be read or written; leaves a file it does not understand (no
    /// video track, a track without an edit list) as it is.
    @discardableResult
    static func endAudioWithVideo(inFileAt path: String) throws -> Double {
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        guard let moov = MP4Box.boxes(in: data, data.startIndex..<data.endIndex).first(where: { $0.type == "moov" }),
            let mvhd = MP4Box.boxes(in: data, moov.content).first(where: { $0.type == "mvhd" })
        else { return 0 }
        let movieVersion = MP4Box.number(data, mvhd.content.lowerBound, 1) ?? 0
        let timescale = MP4Box.number(data, mvhd.content.lowerBound + (movieVersion == 1 ? 20 : 12), 4) ?? 0
        let movieLength = Field(
            at: mvhd.content.lowerBound + (movieVersion == 1 ? 24 : 16), width: movieVersion == 1 ? 8 : 4)
        let tracks = MP4Box.boxes(in: data, moov.content).filter { $0.type == "trak" }.compactMap { track(data, $0) }
        guard timescale > 0, let video = tracks.first(where: { $0.kind == "vide" }) else { return 0 }
        var videoEnd = video.edits.reduce(0) { $0 + $1.value(in: data) }
        var writes: [(Field, UInt64)] = []
        let soundEnds = tracks.filter { $0.kind == "soun" && !$0.edits.isEmpty }.map {
            $0.edits.reduce(0) { $0 + $1.value(in: data) }
        }
        if let soundEnd = soundEnds.max(), soundEnd < videoEnd, let last = video.edits.last,
            let frame = video.lastSampleDuration(in: data, movieTimescale: timescale),
            videoEnd - soundEnd < frame, last.value(in: data) > videoEnd - soundEnd
        {
            writes.append((last, last.value(in: data) - (videoEnd - soundEnd)))
            writes.append((video.length, soundEnd))
            videoEnd = soundEnd
        }
        var cut: UInt64 = 0
        var longest = videoEnd
        for audio in tracks where audio.kind == "soun" {
            guard let last = audio.edits.last else { continue }
            let end = audio.edits.reduce(0) { $0 + $1.value(in: data) }
            guard end > videoEnd else {
                longest = max(longest, end)
                continue
            }
            let excess = end - videoEnd
            let lastLength = last.value(in: data)
            guard lastLength > excess else { continue }
            writes.append((last, lastLength - excess))
            writes.append((audio.length, videoEnd))
            cut = max(cut, excess)
        }
        guard !writes.isEmpty else { return 0 }
        for track in tracks where track.kind != "soun" && track.kind != "vide" {
            longest = max(longest, track.length.value(in: data))
        }
        writes.append((movieLength, longest))
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? file.close() }
        for (field, value) in writes {
            try file.seek(toOffset: UInt64(field.at))
            try file.write(
                contentsOf: (0..<field.width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
        }
        return Double(cut) / Double(timescale)
    }

    /// A big-endian number's place in the file.
    private struct Field {
        let at: Int
        let width: Int

        func value(in data: Data) -> UInt64 { MP4Box.number(data, at, width) ?? 0 }
    }

    /// A track: its handler (`vide`, `soun`), its length in the header (`tkhd`), its edits' lengths, and
    /// where its media header (`mdhd`) and sample durations (`stts`) are.
    private struct Track {
        let kind: String
        let length: Field
        let edits: [Field]
        let mediaHeader: MP4Box?
        let sampleDurations: MP4Box?

        /// How long the last sample lasts, in `movieTimescale`; nil when the track does not say.
        func lastSampleDuration(in data: Data, movieTimescale: UInt64) -> UInt64? {
            guard let mdhd = mediaHeader, let stts = sampleDurations,
                let version = MP4Box.number(data, mdhd.content.lowerBound, 1),
                let mediaTimescale = MP4Box.number(data, mdhd.content.lowerBound + (version == 1 ? 20 : 12), 4),
                mediaTimescale > 0, let count = MP4Box.number(data, stts.content.lowerBound + 4, 4), count > 0,
                stts.content.lowerBound + 8 + Int(count) * 8 <= stts.content.upperBound,
                let delta = MP4Box.number(data, stts.content.lowerBound + 8 + Int(count - 1) * 8 + 4, 4)
            else { return nil }
            let (scaled, overflow) = delta.multipliedReportingOverflow(by: movieTimescale)
            return overflow ? nil : scaled / mediaTimescale
        }
    }

    private static func track(_ data: Data, _ trak: MP4Box) -> Track? {
        let children = MP4Box.boxes(in: data, trak.content)
        guard let tkhd = children.first(where: { $0.type == "tkhd" }),
            let mdia = children.first(where: { $0.type == "mdia" }),
            let hdlr = MP4Box.boxes(in: data, mdia.content).first(where: { $0.type == "hdlr" }),
            let edts = children.first(where: { $0.type == "edts" }),
            let elst = MP4Box.boxes(in: data, edts.content).first(where: { $0.type == "elst" }),
            hdlr.content.count >= 12, let count = MP4Box.number(data, elst.content.lowerBound + 4, 4)
        else { return nil }
        let kind = String(decoding: data[hdlr.content.lowerBound + 8..<hdlr.content.lowerBound + 12], as: UTF8.self)
        // tkhd: version and flags, two times, the track's ID, 4 reserved bytes, then the length.
        let trackVersion = MP4Box.number(data, tkhd.content.lowerBound, 1) ?? 0
        let length = Field(
            at: tkhd.content.lowerBound + (trackVersion == 1 ? 24 : 16) + 4, width: trackVersion == 1 ? 8 : 4)
        // elst: version and flags, the count, then each edit's length, media time and rate.
        let editVersion = MP4Box.number(data, elst.content.lowerBound, 1) ?? 0
        let width = editVersion == 1 ? 8 : 4
        let entry = 2 * width + 4
        guard count > 0, elst.content.lowerBound + 8 + Int(count) * entry <= elst.content.upperBound else { return nil }
        let edits = (0..<Int(count)).map { Field(at: elst.content.lowerBound + 8 + $0 * entry, width: width) }
        // stts: version and flags, the count, then each run's sample count and duration (media timescale).
        let stbl = MP4Box.boxes(in: data, mdia.content).first { $0.type == "minf" }.flatMap { minf in
            MP4Box.boxes(in: data, minf.content).first { $0.type == "stbl" }
        }
        return Track(
            kind: kind, length: length, edits: edits,
            mediaHeader: MP4Box.boxes(in: data, mdia.content).first { $0.type == "mdhd" },
            sampleDurations: stbl.flatMap { MP4Box.boxes(in: data, $0.content).first { $0.type == "stts" } })
    }
}
