import CGStreamer

/// What a media file or URI holds, learnt by prerolling it once (GStreamer's discoverer).
public struct MediaInfo: Sendable {
    /// The length, when the container says it.
    public var duration: ClockTime?
    /// The number of video streams, decodable or not.
    public var videoStreams: Int
    /// The number of audio streams, decodable or not.
    public var audioStreams: Int
    /// Decoders GStreamer lacks for streams in the file, as GStreamer describes them
    /// ("Sorenson Video 1 decoder"), with the kind of stream each was for.
    public var missingDecoders: [MissingDecoder]

    /// A decoder the file needs and no installed plugin provides.
    public struct MissingDecoder: Sendable, Equatable {
        /// GStreamer's description, such as "QDesign Music v2 decoder".
        public var description: String
        /// The media type it would decode, such as "audio/x-qdm" or "video/x-svq".
        public var mediaType: String

        /// True for a video decoder (the media type starts with "video/").
        public var isVideo: Bool { mediaType.hasPrefix("video/") }
        /// True for an audio decoder (the media type starts with "audio/").
        public var isAudio: Bool { mediaType.hasPrefix("audio/") }
    }

    /// Reads `uri` far enough to know its streams, within `timeout`.
    ///
    /// Throws when GStreamer cannot read the URI at all (missing, not media, timed out); a file whose
    /// streams lack decoders is no error here: see `missingDecoders`.
    ///
    /// The corresponding C functions are `gst_discoverer_new` and `gst_discoverer_discover_uri`.
    /// Blocks the calling thread until the streams are known or `timeout` passes.
    ///
    /// - Parameters:
    ///   - uri: A URI, such as `file:///path/to/movie.mkv` (see `gst_filename_to_uri` for paths).
    ///   - timeout: How long to wait for the streams, 10 seconds by default.
    /// - Returns: The duration and streams, with the decoders missing.
    /// - Throws: ``GStreamerError`` (runtime) with GStreamer's message when the URI cannot be read or timed
    ///   out, (core) when the discoverer cannot be made or GStreamer cannot be initialized.
    public static func discover(uri: String, timeout: Duration = .seconds(10)) throws(GStreamerError) -> MediaInfo {
        let info = try Discoverer(timeout: timeout).discover(uri: uri)
        return MediaInfo(
            duration: info.duration, videoStreams: info.videoStreams.count, audioStreams: info.audioStreams.count,
            missingDecoders: info.missingDecoders)
    }
}
