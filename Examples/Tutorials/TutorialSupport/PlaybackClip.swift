import Foundation
import GStreamer

extension Tutorial {
    /// What the playback tutorials know about the clip they generate, so they can check what playbin
    /// makes of it.
    public enum PlaybackClip {
        /// The tone of each audio stream, in order: stream 0 is low, stream 1 an octave higher, so a
        /// switch of `current-audio` shows in the samples.
        public static let tones = [440.0, 880.0]
        /// The language code each audio stream is tagged with.
        public static let languages = ["en", "fr"]
        /// The title each audio stream is tagged with.
        public static let titles = ["Low", "High"]
        /// The sample rate of both audio streams.
        public static let sampleRate = 44100
    }

    /// Runs a playback tutorial on a clip generated into a temporary folder (GStreamer's originals play
    /// a web URI; these run without a network): `seconds` of 320x240 H.264 at 30 fps and two mono
    /// Vorbis streams, 440 Hz tagged English ("Low") and 880 Hz tagged French ("High"), in Matroska.
    /// Prints "OK" and exits 0 when `body` returns; prints the error and exits 1 when it throws.
    ///
    /// - Parameters:
    ///   - seconds: The clip's length.
    ///   - body: The tutorial, given the clip.
    public static func runPlayback(seconds: Int = 3, _ body: (Input) async throws -> Void) async -> Never {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-playback-\(getpid())")
        await finish(cleaning: folder) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("streams.mkv").path
            print("Generating a \(seconds) s clip with one video and two audio streams: \(path)")
            let audio = PlaybackClip.tones.indices.map { index in
                "audiotestsrc num-buffers=\(seconds * 100) samplesperbuffer=441 freq=\(PlaybackClip.tones[index]) "
                    + "! audio/x-raw,rate=\(PlaybackClip.sampleRate),channels=1 "
                    + "! taginject tags=\"language-code=\(PlaybackClip.languages[index]),title=\(PlaybackClip.titles[index])\" "
                    + "! audioconvert ! vorbisenc ! mux. "
            }
            try await Pipeline(
                launch: "videotestsrc num-buffers=\(seconds * 30) "
                    + "! video/x-raw,format=I420,width=320,height=240,framerate=30/1 "
                    + "! x264enc speed-preset=ultrafast key-int-max=15 ! matroskamux name=mux ! filesink location=\(path) "
                    + audio.joined()
            ).run()
            let uri = "file://" + path
            let info = try await Discoverer().discover(uri: uri)
            let duration = try require(info.duration, "\(uri) has no known duration")
            try await body(Input(uri: uri, path: path, duration: duration, isGenerated: true))
        }
    }

    /// The main frequency of mono S16 samples, from how often they cross zero: enough to tell the
    /// clip's 440 Hz stream from its 880 Hz one.
    ///
    /// - Parameters:
    ///   - bytes: Native-endian signed 16-bit samples, one channel.
    ///   - rate: Their sample rate.
    /// - Returns: The frequency in Hz; 0 for fewer than two samples.
    public static func frequency(ofS16 bytes: [UInt8], rate: Int) -> Double {
        let samples = stride(from: 0, to: bytes.count - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
        guard samples.count > 1 else { return 0 }
        let crossings = zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        return Double(crossings) / 2 * Double(rate) / Double(samples.count)
    }
}
