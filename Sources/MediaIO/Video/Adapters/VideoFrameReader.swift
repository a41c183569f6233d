import GstPipeSupport
import Synchronization

/// Turns samples from the appsink into frames, remembering the layout of the current caps.
final class VideoFrameReader: Sendable {
    private let cached = Locked<
        (caps: Caps, info: VideoInfo, pixelFormat: VideoPixelFormat, matrix: VideoColorMatrix)?
    >(
        nil)

    func frame(from sample: Sample) throws -> VideoFrame {
        guard let buffer = sample.buffer, let caps = sample.caps else {
            throw MediaIOError("a sample without buffer or caps arrived")
        }
        let (info, pixelFormat, matrix) = try cached.withLock {
            cached throws -> (VideoInfo, VideoPixelFormat, VideoColorMatrix) in
            // Samples of one stream share one GstCaps: identity first, then the (slower) deep comparison.
            if let cached, cached.caps.isSameCaps(as: caps) || cached.caps == caps {
                return (cached.info, cached.pixelFormat, cached.matrix)
            }
            let info = try VideoInfo(caps: caps)
            guard let pixelFormat = VideoPixelFormat(gstreamerName: info.formatName) else {
                throw MediaIOError("unsupported pixel format \(info.formatName)")
            }
            let matrix = caps.colorMatrix.flatMap(VideoColorMatrix.init(rawValue:)) ?? .unknown
            cached = (caps, info, pixelFormat, matrix)
            return (info, pixelFormat, matrix)
        }
        let layout = info.adjusted(for: buffer)
        return VideoFrame(
            buffer: buffer, info: layout, format: VideoFrameFormat(info: layout, pixelFormat: pixelFormat),
            timestamp: buffer.pts ?? 0, duration: buffer.duration, colorMatrix: matrix, hasTimestamp: buffer.pts != nil)
    }
}
