import GstPipeSupport
import Synchronization

/// Turns appsink samples into audio frames, remembering the shape of the current caps.
final class AudioFrameReader: Sendable {
    private let cached = Locked<(caps: Caps, info: AudioInfo)?>(nil)

    func frame(from sample: Sample) throws -> AudioFrame {
        guard let buffer = sample.buffer, let caps = sample.caps else {
            throw MediaIOError("a sample without buffer or caps arrived")
        }
        let info = try cached.withLock { cached throws -> AudioInfo in
            if let cached, cached.caps.isSameCaps(as: caps) || cached.caps == caps { return cached.info }
            let info = try AudioInfo(caps: caps)
            cached = (caps, info)
            return info
        }
        return AudioFrame(buffer: buffer, info: info)
    }
}
