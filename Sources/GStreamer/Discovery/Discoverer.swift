import CGStreamer
import CGStreamerShim

/// Reads what a media file or URI holds by prerolling it once: its streams (container, audio,
/// video, subtitles) with their caps and tags, its duration, whether it can seek.
///
/// The corresponding C type is `GstDiscoverer` (gstreamer-pbutils).
public final class Discoverer: @unchecked Sendable {
    // GstDiscoverer's synchronous discovery is safe to call from any thread, one call at a time per
    // discoverer; `discover` serializes its calls through GStreamer's own lock inside the object.
    private let pointer: UnsafeMutablePointer<GstDiscoverer>

    /// A discoverer.
    ///
    /// The corresponding C function is `gst_discoverer_new`.
    ///
    /// - Parameter timeout: How long one URI may take before the discoverer gives up on it.
    /// - Throws: ``GStreamerError`` (core) when GStreamer cannot make a discoverer.
    public init(timeout: Duration = .seconds(10)) throws(GStreamerError) {
        try GStreamer.initialize()
        var error: UnsafeMutablePointer<GError>?
        guard let discoverer = gst_discoverer_new(GstClockTime(nanoseconds(timeout)), &error) else {
            throw GStreamerError(taking: error, kind: .core, source: nil)
        }
        pointer = discoverer
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(pointer))
    }

    /// Reads `uri` far enough to know its streams, blocking the calling thread meanwhile. Streams
    /// without a decoder are no error here: see ``DiscovererInfo/missingDecoders``.
    ///
    /// The corresponding C function is `gst_discoverer_discover_uri`.
    ///
    /// - Parameter uri: The media's URI (`file:///...`, `https://...`).
    /// - Returns: What the media holds.
    /// - Throws: ``GStreamerError`` (runtime, naming the URI) when GStreamer cannot read it at all
    ///   (missing, not media, timed out).
    public func discover(uri: String) throws(GStreamerError) -> DiscovererInfo {
        var error: UnsafeMutablePointer<GError>?
        let info = gst_discoverer_discover_uri(pointer, uri, &error)
        defer { if let info { g_object_unref(UnsafeMutableRawPointer(info)) } }
        guard let info else { throw GStreamerError(taking: error, kind: .runtime, source: uri) }
        switch gst_discoverer_info_get_result(info) {
        case GST_DISCOVERER_OK, GST_DISCOVERER_MISSING_PLUGINS:
            if let error { g_error_free(error) }
        case GST_DISCOVERER_TIMEOUT:
            if let error { g_error_free(error) }
            throw GStreamerError(kind: .runtime, message: "timed out reading the streams", source: uri)
        default:
            throw GStreamerError(taking: error, kind: .runtime, source: uri)
        }
        return DiscovererInfo(info, uri: uri)
    }
}

/// What `Discoverer.discover(uri:)` found.
///
/// The corresponding C type is `GstDiscovererInfo`.
public struct DiscovererInfo: Sendable {
    /// The URI read.
    public var uri: String
    /// The length, when known.
    public var duration: ClockTime?
    /// True when the media can be sought in.
    public var isSeekable: Bool
    /// True for a live source.
    public var isLive: Bool
    /// The tags of the whole media (title, container format, ...), merged from every stream.
    public var tags: TagList?
    /// The streams as GStreamer found them nested: a container holding its streams, each stream
    /// followed by what it decodes into (`DiscoveredStream.children`).
    public var topology: DiscoveredStream?
    /// Every stream that is not a container (audio, video, subtitles, unknown), in GStreamer's order.
    public var streams: [DiscoveredStream]
    /// The audio streams.
    public var audioStreams: [DiscoveredStream] { streams.filter { $0.kind == .audio } }
    /// The video streams (pictures count as video).
    public var videoStreams: [DiscoveredStream] { streams.filter { $0.kind == .video } }
    /// Decoders GStreamer lacks for streams in the media, as GStreamer describes them.
    public var missingDecoders: [MediaInfo.MissingDecoder]

    init(_ info: OpaquePointer, uri: String) {
        self.uri = uri
        duration = optionalClockTime(gst_discoverer_info_get_duration(info))
        isSeekable = gst_discoverer_info_get_seekable(info) != 0
        isLive = gst_discoverer_info_get_live(info) != 0
        tags = gst_discoverer_info_get_tags(info).map { TagList(borrowing: UnsafeMutablePointer(mutating: $0)) }
        if let top = gst_discoverer_info_get_stream_info(info) {
            topology = DiscoveredStream(top)
            g_object_unref(UnsafeMutableRawPointer(top))
        }
        let list = gst_discoverer_info_get_stream_list(info)
        defer { gst_discoverer_stream_info_list_free(list) }
        streams = DiscoveredStream.streams(in: list).filter { $0.kind != .container }
        missingDecoders = DiscovererInfo.decodersMissing(in: info)
    }

    /// Installer details read "gstreamer|1.0|app|Sorenson Video 1 decoder|decoder-video/x-svq, ...".
    private static func decodersMissing(in info: OpaquePointer) -> [MediaInfo.MissingDecoder] {
        guard var details = gst_discoverer_info_get_missing_elements_installer_details(info) else { return [] }
        var missing: [MediaInfo.MissingDecoder] = []
        while let detail = details.pointee {
            let fields = String(cString: detail).split(separator: "|", omittingEmptySubsequences: false)
            if fields.count >= 5, fields[4].hasPrefix("decoder-") {
                let caps = fields[4].dropFirst("decoder-".count)
                let mediaType = caps.prefix { $0 != "," && $0 != " " }
                missing.append(MediaInfo.MissingDecoder(description: String(fields[3]), mediaType: String(mediaType)))
            }
            details += 1
        }
        return missing
    }
}

/// One stream `Discoverer` found.
///
/// The corresponding C type is `GstDiscovererStreamInfo` and its subclasses.
public struct DiscoveredStream: Sendable {
    /// What the stream is.
    public enum Kind: String, Sendable {
        /// A container (Matroska, MP4, ...) holding other streams.
        case container
        /// Audio.
        case audio
        /// Video, or a still picture.
        case video
        /// Subtitles.
        case subtitle
        /// Anything else (a stream GStreamer cannot tell).
        case unknown
    }

    /// Details of an audio stream.
    public struct Audio: Sendable, Equatable {
        /// The number of channels.
        public var channels: Int
        /// Samples per second per channel.
        public var sampleRate: Int
        /// Bits per sample, when known.
        public var depth: Int?
        /// Bits per second, when known.
        public var bitrate: Int?
        /// The ISO-639 language code, when tagged.
        public var language: String?
    }

    /// Details of a video stream.
    public struct Video: Sendable, Equatable {
        /// The width in pixels.
        public var width: Int
        /// The height in pixels.
        public var height: Int
        /// Frames per second (0/1 for variable or unknown).
        public var framerate: Fraction
        /// Pixel aspect ratio.
        public var pixelAspectRatio: Fraction
        /// True for a still picture.
        public var isImage: Bool
        /// Bits per second, when known.
        public var bitrate: Int?
    }

    /// What the stream is.
    public var kind: Kind
    /// The stream's caps, such as `video/x-h264, ...` (`caps.mediaType` is "video/x-h264").
    public var caps: Caps?
    /// The stream's own tags (codec, bitrate, language, ...).
    public var tags: TagList?
    /// The stream's id, unique within the media.
    public var streamID: String?
    /// Audio details, for audio streams.
    public var audio: Audio?
    /// Video details, for video streams.
    public var video: Video?
    /// For a container, its streams; for another stream, what it decodes into, when GStreamer says.
    public var children: [DiscoveredStream]

    init(_ info: OpaquePointer) {
        let type = CGStreamerShim_object_type(UnsafeMutableRawPointer(info))
        caps = gst_discoverer_stream_info_get_caps(info).map { Caps(taking: $0) }
        tags = gst_discoverer_stream_info_get_tags(info).map { TagList(borrowing: UnsafeMutablePointer(mutating: $0)) }
        streamID = gst_discoverer_stream_info_get_stream_id(info).map { String(cString: $0) }
        children = []
        let opaque = info
        if g_type_is_a(type, gst_discoverer_container_info_get_type()) != 0 {
            kind = .container
            let list = gst_discoverer_container_info_get_streams(opaque)
            defer { gst_discoverer_stream_info_list_free(list) }
            children = DiscoveredStream.streams(in: list)
        } else if g_type_is_a(type, gst_discoverer_audio_info_get_type()) != 0 {
            kind = .audio
            let depth = Int(gst_discoverer_audio_info_get_depth(opaque))
            let bitrate = Int(gst_discoverer_audio_info_get_bitrate(opaque))
            audio = Audio(
                channels: Int(gst_discoverer_audio_info_get_channels(opaque)),
                sampleRate: Int(gst_discoverer_audio_info_get_sample_rate(opaque)), depth: depth == 0 ? nil : depth,
                bitrate: bitrate == 0 ? nil : bitrate,
                language: gst_discoverer_audio_info_get_language(opaque).map { String(cString: $0) })
        } else if g_type_is_a(type, gst_discoverer_video_info_get_type()) != 0 {
            kind = .video
            let bitrate = Int(gst_discoverer_video_info_get_bitrate(opaque))
            video = Video(
                width: Int(gst_discoverer_video_info_get_width(opaque)),
                height: Int(gst_discoverer_video_info_get_height(opaque)),
                framerate: Fraction(
                    Int(gst_discoverer_video_info_get_framerate_num(opaque)),
                    Int(gst_discoverer_video_info_get_framerate_denom(opaque))),
                pixelAspectRatio: Fraction(
                    Int(gst_discoverer_video_info_get_par_num(opaque)), Int(gst_discoverer_video_info_get_par_denom(opaque))),
                isImage: gst_discoverer_video_info_is_image(opaque) != 0, bitrate: bitrate == 0 ? nil : bitrate)
        } else if g_type_is_a(type, gst_discoverer_subtitle_info_get_type()) != 0 {
            kind = .subtitle
        } else {
            kind = .unknown
        }
        if kind != .container, let next = gst_discoverer_stream_info_get_next(info) {
            children.append(DiscoveredStream(next))
            g_object_unref(UnsafeMutableRawPointer(next))
        }
    }

    /// The streams of a GList of GstDiscovererStreamInfo, in order.
    static func streams(in list: UnsafeMutablePointer<GList>?) -> [DiscoveredStream] {
        var result: [DiscoveredStream] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data {
                result.append(DiscoveredStream(OpaquePointer(data)))
            }
            node = current.pointee.next
        }
        return result
    }
}
