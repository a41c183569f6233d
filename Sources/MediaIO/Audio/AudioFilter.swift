/// A sink that hands audio on: it renders each frame and gives the result to the consumer it got
/// as a source. Only the source's `shouldInitialize(consumer:)` is called.
public typealias AudioFilter = AudioSink & AudioSource

/// A filter whose output has another channel count than its input (the `mono` mixer): read during
/// caps negotiation. Rate and sample format stay the input's.
public protocol AudioChannelConverting: AudioFilter {
    /// The channel count of every frame the filter hands on.
    var outputChannels: Int { get }
}
