import Foundation
import MediaIO

/// Media the file-job tests make with GStreamer, and what they read back from outputs.
enum Media {
    /// A temporary file name with `extension`, removed by the caller.
    static func temporary(_ name: String, _ fileExtension: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-\(name)-\(UUID()).\(fileExtension)")
    }

    /// A 4-second 640x360 clip, colour bars (chroma far from neutral) at 25 fps, H.264 + AAC in MP4,
    /// made once per test process. 640x360 with audio is the size at which x264enc's lookahead
    /// outlasts a default one-second audio queue: a badly sized muxing path hangs on it.
    static func clipWithAudio() async throws -> URL {
        try await made.file(
            "clip.mp4",
            "videotestsrc num-buffers=100 ! video/x-raw,width=640,height=360,framerate=25/1 ! x264enc ! "
                + "mp4mux name=m ! filesink location=%@ audiotestsrc num-buffers=188 ! audio/x-raw,rate=48000 ! "
                + "avenc_aac ! m.")
    }

    /// 250 frames (10 s) of 320x240 colour bars and 10 s of a tone, H.264 and AAC in MP4: long enough
    /// for a network receiver that joins late.
    static func longClipWithAudio() async throws -> URL {
        try await made.file(
            "long-clip.mp4",
            "videotestsrc num-buffers=250 ! video/x-raw,width=320,height=240,framerate=25/1 ! x264enc "
                + "speed-preset=ultrafast ! mp4mux name=m ! filesink location=%@ audiotestsrc num-buffers=470 ! "
                + "audio/x-raw,rate=48000 ! avenc_aac ! m.")
    }

    /// 250 frames (10 s) of 320x240 colour bars, H.264 in Matroska, no audio.
    static func clipWithoutAudio() async throws -> URL {
        try await made.file(
            "clip.mkv",
            "videotestsrc num-buffers=250 ! video/x-raw,width=320,height=240,framerate=25/1 ! x264enc "
                + "speed-preset=ultrafast ! "
                + "matroskamux ! filesink location=%@")
    }

    /// 25 frames of 294x240 colour bars, H.264 in Matroska: rows GStreamer pads (294 is no multiple
    /// of 4, 147 no multiple of 4 either), so frames in its default layout are not tightly packed.
    static func paddedSizeClip() async throws -> URL {
        try await made.file(
            "padded.mkv",
            "videotestsrc num-buffers=25 ! video/x-raw,format=I420,width=294,height=240,framerate=25/1 ! x264enc "
                + "speed-preset=ultrafast ! matroskamux ! filesink location=%@")
    }

    /// The rows of the first plane, without padding.
    static func luma(_ frame: VideoFrame) throws -> [UInt8] {
        try frame.withPlanes { planes in
            let luma = planes[0]
            return (0..<luma.rows).flatMap { row in
                Array(luma.bytes[row * luma.bytesPerRow..<row * luma.bytesPerRow + luma.pixelBytesPerRow])
            }
        }
    }

    private static let made = Made()

    /// `description` (its file sink at `%@`) run once per test process into a file named `name`.
    static func madeFile(_ name: String, _ description: String) async throws -> URL {
        try await made.file(name, description)
    }

    /// Files made once per test process (tests asking at the same time wait for the same making).
    private actor Made {
        private var files: [String: Task<URL, any Error>] = [:]

        func file(_ name: String, _ description: String) async throws -> URL {
            if let making = files[name] { return try await making.value }
            if files.isEmpty {
                // Removed when the test process exits.
                atexit {
                    let folder = FileManager.default.temporaryDirectory
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                    for name in names where name.hasPrefix("gstpipe-\(getpid())-") {
                        try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
                    }
                }
            }
            let making = Task {
                let url = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-\(getpid())-\(name)")
                try await Pipeline(launch: description.replacingOccurrences(of: "%@", with: url.path)).run()
                return url
            }
            files[name] = making
            return try await making.value
        }
    }

    /// The first `fraction` of `url` in a new temporary file.
    static func truncated(_ url: URL, to fraction: Double) throws -> URL {
        let data = try Data(contentsOf: url)
        return try truncated(url, bytes: Int(Double(data.count) * fraction))
    }

    /// The first `bytes` bytes of `url` in a new temporary file.
    static func truncated(_ url: URL, bytes: Int) throws -> URL {
        let copy = temporary("truncated", url.pathExtension)
        try Data(contentsOf: url).prefix(bytes).write(to: copy)
        return copy
    }

    static func info(_ url: URL) throws -> MediaInfo {
        try MediaInfo.discover(uri: url.absoluteString)
    }

    /// Every frame of the file's video, as I420, decoded by GStreamer.
    static func frames(of url: URL) async throws -> [VideoFrame] {
        let pipeline = try Pipeline(
            launch: "uridecodebin uri=\(url.absoluteString) ! videoconvert ! video/x-raw,format=I420 ! appsink name=out"
        )
        let frames = try pipeline.frames(fromAppSink: "out", capacity: 4)
        try pipeline.play()
        var result: [VideoFrame] = []
        for try await frame in frames { result.append(frame) }
        pipeline.stop()
        return result
    }

    /// The chroma format of the H.264 video in `url` (MP4, QuickTime or Matroska), as h264parse reads
    /// it from the stream's SPS: "4:0:0" for monochrome, "4:2:0" for the usual.
    static func h264ChromaFormat(of url: URL) async throws -> String? {
        let demuxer = url.pathExtension == "mkv" ? "matroskademux" : "qtdemux"
        let pipeline = try Pipeline(
            launch: "filesrc location=\(url.path) ! \(demuxer) ! h264parse ! appsink name=out sync=false")
        let samples = try pipeline.samples(fromAppSink: "out")
        try pipeline.play()
        defer { pipeline.stop() }
        var iterator = samples.makeAsyncIterator()
        return try await iterator.next()?.caps?.string("chroma-format")
    }

    /// The largest distance of any chroma byte from neutral 128 in an I420 frame.
    static func chromaSpread(_ frame: VideoFrame) throws -> Int {
        try frame.withPlanes { planes in
            planes.dropFirst().map { plane in
                (0..<plane.rows).map { row in
                    (0..<plane.pixelBytesPerRow).map { abs(Int(plane.bytes[row * plane.bytesPerRow + $0]) - 128) }.max()
                        ?? 0
                }.max() ?? 0
            }.max() ?? 0
        }
    }

    static func isPresent(_ name: String) -> URL? {
        let url = Repository.root.deletingLastPathComponent().appendingPathComponent("shared/media/\(name)")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}

extension Media {
    /// 100 buffers of 1024 samples (102,400 per channel, 2.32 s) of a 440 Hz sine, 16-bit stereo at
    /// 44.1 kHz, in FLAC: lossless, so any PCM made from it can be compared sample for sample.
    static let sineFrames = 102_400

    static func sineFLAC() async throws -> URL {
        try await made.file(
            "sine.flac",
            "audiotestsrc wave=sine num-buffers=100 ! audio/x-raw,format=S16LE,rate=44100,channels=2 ! flacenc ! "
                + "filesink location=%@")
    }

    /// 60 s of the same sine in FLAC, for runs stopped part way.
    static func longSineFLAC() async throws -> URL {
        try await made.file(
            "long-sine.flac",
            "audiotestsrc wave=sine num-buffers=2584 ! audio/x-raw,format=S16LE,rate=44100,channels=2 ! flacenc ! "
                + "filesink location=%@")
    }

    /// Every sample of the file's audio, decoded by GStreamer and made 16-bit interleaved (channels
    /// kept, rate kept), with the rate and channels it has.
    static func samples(of url: URL) async throws -> (samples: [Int16], rate: Int, channels: Int) {
        let pipeline = try Pipeline(
            launch: "uridecodebin uri=\(url.absoluteString) ! audioconvert ! "
                + "audio/x-raw,format=S16LE,layout=interleaved ! appsink name=out sync=false")
        let samples = try pipeline.samples(fromAppSink: "out")
        try pipeline.play()
        defer { pipeline.stop() }
        var bytes: [UInt8] = []
        var rate = 0
        var channels = 0
        for try await sample in samples {
            rate = sample.caps?.int("rate") ?? rate
            channels = sample.caps?.int("channels") ?? channels
            bytes += sample.buffer?.bytes ?? []
        }
        let values = stride(from: 0, to: bytes.count - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
        return (values, rate, channels)
    }
}
