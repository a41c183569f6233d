import Foundation

/// What the range and segment tests ask of FFmpegCut (independent of GStreamer): cutting as `-ss -to`
/// does, decoding every frame (`-vsync passthrough`: no frame repeated or dropped to keep a rate) to
/// gray bytes, and the timestamps ffprobe reads.
enum FFmpegCut {
    static let path = "/usr/bin/ffmpeg"
    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: path) && FileManager.default.isExecutableFile(atPath: FFProbe.path)
    }

    /// Every video frame of `url` decoded to 8-bit gray, `width`x`height` bytes each; with `cut`, those
    /// of `ffmpeg -ss S -to E -i url`.
    static func grayFrames(_ url: URL, width: Int, height: Int, cut: (String, String)? = nil) throws -> [[UInt8]] {
        let range = cut.map { ["-ss", $0.0, "-to", $0.1] } ?? []
        let decode = ["-i", url.path, "-an", "-vsync", "passthrough", "-f", "rawvideo", "-pix_fmt", "gray", "-"]
        let data = try standardOutput(of: path, ["-v", "error"] + range + decode)
        let size = width * height
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<$0 + size]) }
    }

    /// The PSNR of `a` against `b`, in dB (infinity when equal).
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var sum = 0.0
        for index in a.indices {
            let difference = Double(a[index]) - Double(b[index])
            sum += difference * difference
        }
        let mse = sum / Double(a.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// The presentation timestamps (seconds) of the packets of `url`'s first `stream` ("v", "a"), sorted.
    static func timestamps(_ url: URL, stream: String = "v") throws -> [Double] {
        let data = try standardOutput(
            of: FFProbe.path,
            ["-v", "error", "-select_streams", "\(stream):0", "-show_entries", "packet=pts_time", "-of", "csv=p=0"]
                + [url.path])
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }.sorted()
    }

    /// The duration ffprobe gives `url`'s first `stream` ("v", "a"), in seconds.
    static func streamDuration(_ url: URL, stream: String) throws -> Double? {
        let data = try standardOutput(
            of: FFProbe.path,
            ["-v", "error", "-select_streams", "\(stream):0", "-show_entries", "stream=duration", "-of", "csv=p=0"]
                + [url.path])
        return Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

extension Media {
    /// 10 s of 320x240 at 30000/1001 fps, a moving ball and the running time drawn in (timeoverlay), so
    /// that every frame differs from the next; H.264 with B-frames (an MP4 edit list) and AAC in MP4,
    /// or H.264 and Vorbis in Matroska (timestamps rounded to the millisecond).
    static func countedClip(_ fileExtension: String) async throws -> URL {
        let muxer = fileExtension == "mkv" ? "matroskamux" : "mp4mux"
        let audio = fileExtension == "mkv" ? "vorbisenc" : "avenc_aac"
        return try await madeFile(
            "counted.\(fileExtension)",
            "videotestsrc num-buffers=300 pattern=ball ! video/x-raw,width=320,height=240,framerate=30000/1001 ! "
                + "timeoverlay ! x264enc key-int-max=60 speed-preset=veryfast bframes=2 ! \(muxer) name=m ! "
                + "filesink location=%@ audiotestsrc num-buffers=470 ! audio/x-raw,rate=48000 ! audioconvert ! "
                + "\(audio) ! m.")
    }
}
