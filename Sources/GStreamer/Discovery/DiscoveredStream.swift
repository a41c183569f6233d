import CGStreamer
import CGStreamerShim

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
                    Int(gst_discoverer_video_info_get_par_num(opaque)),
                    Int(gst_discoverer_video_info_get_par_denom(opaque))),
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
