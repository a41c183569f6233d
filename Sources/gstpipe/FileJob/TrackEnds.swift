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
enum TrackEnds {
    /// The audio tracks of the MP4 at `path` cut to end with its video track, in the movie's timescale.
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
        let videoEnd = video.edits.reduce(0) { $0 + $1.value(in: data) }
        var writes: [(Field, UInt64)] = []
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

    /// A track: its handler (`vide`, `soun`), its length in the header (`tkhd`) and its edits' lengths.
    private struct Track {
        let kind: String
        let length: Field
        let edits: [Field]
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
        return Track(kind: kind, length: length, edits: edits)
    }
}
