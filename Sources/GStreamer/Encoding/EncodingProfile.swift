/// What an encoding should produce: a container format holding streams, each with the format its
/// encoder makes and, optionally, what the raw input must be brought to first (size, rate, channels).
/// ``EncodeBin`` picks and links the elements that produce it.
///
/// Made from typed values:
///
///     let profile = try EncodingProfile.container("video/quicktime,variant=iso", streams: [
///         .video("video/x-h264", restriction: "video/x-raw,width=320,height=240"),
///         .audio("audio/mpeg,mpegversion=4"),
///     ])
///
/// or from GStreamer's serialized form, as `gst-launch-1.0 encodebin profile=...` takes it:
/// `try EncodingProfile(string: "video/webm:video/x-vp8:audio/x-vorbis")`.
///
/// The corresponding C types are `GstEncodingContainerProfile`, `GstEncodingVideoProfile` and
/// `GstEncodingAudioProfile` (gstreamer-pbutils).
public struct EncodingProfile: Sendable, Equatable {
    /// Which kind of profile: a container of streams, or one video or audio stream.
    public enum Kind: String, Sendable, Equatable {
        /// A container format (a muxer's output) holding stream profiles.
        case container
        /// A video stream (an encoder's output).
        case video
        /// An audio stream (an encoder's output).
        case audio
    }

    /// Which kind of profile this is.
    public var kind: Kind
    /// The format to produce: the muxer's caps for a container (`video/webm`), the encoder's for a stream
    /// (`video/x-h264`).
    public var format: Caps
    /// For a stream, the raw format its encoder is fed (`video/x-raw,width=320,height=240`): encodebin
    /// converts, scales and resamples to it. Nil leaves the input as it comes.
    public var restriction: Caps?
    /// The name of a preset (`GstPreset`) to load on the encoder or muxer, or nil.
    public var preset: String?
    /// The factory of the element to use (`x264enc`), or nil to let encodebin choose by `format`.
    public var elementFactory: String?
    /// For a stream, how many input streams of this kind the container takes; 0 for any number.
    public var presence: Int
    /// The profile's name, or nil.
    public var name: String?
    /// The profile's description, for people, or nil.
    public var description: String?
    /// For a container, its stream profiles; empty for a stream.
    public var streams: [EncodingProfile]

    /// A profile from its parts. The static functions ``container(_:name:description:streams:)``,
    /// ``video(_:restriction:preset:presence:)`` and ``audio(_:restriction:preset:presence:)`` read better.
    ///
    /// - Parameters:
    ///   - kind: A container, or a video or audio stream.
    ///   - format: The muxer's caps for a container, the encoder's for a stream.
    ///   - restriction: For a stream, the raw format its encoder is fed, or nil.
    ///   - preset: A preset to load on the element, or nil.
    ///   - elementFactory: The factory of the element to use, or nil to choose by `format`.
    ///   - presence: For a stream, how many streams of this kind the container takes; 0 for any number.
    ///   - name: The profile's name, or nil.
    ///   - description: The profile's description, or nil.
    ///   - streams: For a container, its stream profiles.
    public init(
        kind: Kind, format: Caps, restriction: Caps? = nil, preset: String? = nil, elementFactory: String? = nil,
        presence: Int = 0, name: String? = nil, description: String? = nil, streams: [EncodingProfile] = []
    ) {
        self.kind = kind
        self.format = format
        self.restriction = restriction
        self.preset = preset
        self.elementFactory = elementFactory
        self.presence = presence
        self.name = name
        self.description = description
        self.streams = streams
    }

    /// A container profile, such as `"video/webm"` or `"video/quicktime,variant=iso"` (MP4), holding `streams`.
    ///
    /// The corresponding C function is `gst_encoding_container_profile_new`.
    ///
    /// - Parameters:
    ///   - format: The container's caps, as a string.
    ///   - name: The profile's name, or nil.
    ///   - description: The profile's description, or nil.
    ///   - streams: The stream profiles (``video(_:restriction:preset:presence:)``,
    ///     ``audio(_:restriction:preset:presence:)``).
    /// - Returns: The profile.
    /// - Throws: ``GStreamerError`` (invalid argument) when `format` is not caps, naming it.
    public static func container(
        _ format: String, name: String? = nil, description: String? = nil, streams: [EncodingProfile]
    ) throws(GStreamerError) -> EncodingProfile {
        EncodingProfile(
            kind: .container, format: try Caps(format), name: name, description: description, streams: streams)
    }

    /// A video stream profile, such as `"video/x-h264"`, optionally restricting the raw video its encoder
    /// takes (`"video/x-raw,width=320,height=240,framerate=25/1"`).
    ///
    /// The corresponding C function is `gst_encoding_video_profile_new`.
    ///
    /// - Parameters:
    ///   - format: The encoder's caps, as a string.
    ///   - restriction: The raw video the encoder is fed, as a string, or nil.
    ///   - preset: A preset to load on the encoder, or nil.
    ///   - presence: How many video streams the container takes; 0 for any number.
    /// - Returns: The profile.
    /// - Throws: ``GStreamerError`` (invalid argument) when `format` or `restriction` is not caps, naming it.
    public static func video(
        _ format: String, restriction: String? = nil, preset: String? = nil, presence: Int = 0
    ) throws(GStreamerError) -> EncodingProfile {
        try stream(.video, format, restriction: restriction, preset: preset, presence: presence)
    }

    /// An audio stream profile, such as `"audio/x-vorbis"`, optionally restricting the raw audio its
    /// encoder takes (`"audio/x-raw,channels=1,rate=48000"`).
    ///
    /// The corresponding C function is `gst_encoding_audio_profile_new`.
    ///
    /// - Parameters:
    ///   - format: The encoder's caps, as a string.
    ///   - restriction: The raw audio the encoder is fed, as a string, or nil.
    ///   - preset: A preset to load on the encoder, or nil.
    ///   - presence: How many audio streams the container takes; 0 for any number.
    /// - Returns: The profile.
    /// - Throws: ``GStreamerError`` (invalid argument) when `format` or `restriction` is not caps, naming it.
    public static func audio(
        _ format: String, restriction: String? = nil, preset: String? = nil, presence: Int = 0
    ) throws(GStreamerError) -> EncodingProfile {
        try stream(.audio, format, restriction: restriction, preset: preset, presence: presence)
    }

    private static func stream(
        _ kind: Kind, _ format: String, restriction: String?, preset: String?, presence: Int
    ) throws(GStreamerError) -> EncodingProfile {
        let restrictionCaps: Caps?
        if let restriction { restrictionCaps = try Caps(restriction) } else { restrictionCaps = nil }
        return EncodingProfile(
            kind: kind, format: try Caps(format), restriction: restrictionCaps, preset: preset, presence: presence)
    }

    /// The profile with every stream profile of `kind` (the container's own streams, or itself).
    func streams(of kind: Kind) -> [EncodingProfile] {
        self.kind == kind ? [self] : streams.filter { $0.kind == kind }
    }
}
