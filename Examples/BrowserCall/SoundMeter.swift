import MediaIO
import Synchronization

/// The browser's microphone, rendered: counts the samples that arrive (Chromium's fake microphone
/// beeps), so that the call loop's check covers the sound path of `BrowserPublisher` too.
final class SoundMeter: AudioSink {
    private let count = Mutex(0)

    /// Samples received so far (per channel).
    var samples: Int { count.withLock { $0 } }

    func shouldStart() {}
    func shouldStop() {}
    func shouldDispose() {}

    func render(_ frame: AudioFrame) throws {
        count.withLock { $0 += frame.sampleCount }
    }
}
