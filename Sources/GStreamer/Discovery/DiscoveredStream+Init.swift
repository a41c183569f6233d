// The stream details made outside the Discoverer: GStreamerPlay's player describes the streams it
// plays with the same types, so a user reads a picture size or a channel count one way.

extension DiscoveredStream.Audio {
    /// Audio details from their parts; the depth unknown (set ``depth`` when known).
    ///
    /// - Parameters:
    ///   - channels: The number of channels.
    ///   - sampleRate: Samples per second per channel.
    ///   - bitrate: Bits per second, when known.
    ///   - language: The ISO-639 language code, when tagged.
    public init(channels: Int, sampleRate: Int, bitrate: Int? = nil, language: String? = nil) {
        self.channels = channels
        self.sampleRate = sampleRate
        self.depth = nil
        self.bitrate = bitrate
        self.language = language
    }
}

extension DiscoveredStream.Video {
    /// Details of a moving picture (``isImage`` false) from their parts.
    ///
    /// - Parameters:
    ///   - width: The width in pixels.
    ///   - height: The height in pixels.
    ///   - framerate: Frames per second (0/1 for variable or unknown).
    ///   - pixelAspectRatio: Pixel aspect ratio.
    ///   - bitrate: Bits per second, when known.
    public init(
        width: Int, height: Int, framerate: Fraction, pixelAspectRatio: Fraction = Fraction(1, 1), bitrate: Int? = nil
    ) {
        self.width = width
        self.height = height
        self.framerate = framerate
        self.pixelAspectRatio = pixelAspectRatio
        self.isImage = false
        self.bitrate = bitrate
    }
}
