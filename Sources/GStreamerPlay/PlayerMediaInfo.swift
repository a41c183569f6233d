import CGStreamer
import CGStreamerPlay
import GStreamer

extension Player {
    /// What a URI holds, as the player found it while loading: its streams, tags and length. A value
    /// copied out of GStreamer, safe to keep and send.
    ///
    /// The corresponding C type is `GstPlayMediaInfo`.
    public struct MediaInfo: Sendable {
        /// The URI played.
        public var uri: String
        /// The length; nil when unknown (a live stream, or not known yet).
        public var duration: ClockTime?
        /// Whether the player can seek in it.
        public var isSeekable: Bool
        /// Whether it is live (a camera, a network stream that cannot be paused).
        public var isLive: Bool
        /// The title from the tags, when there is one.
        public var title: String?
        /// The container's name as the demuxer tags it, such as "ISO MP4/M4A" or "Matroska".
        public var containerFormat: String?
        /// The tags of the whole media (title, container, encoder, ...), when there are any.
        public var tags: TagList?
        /// Every stream, in the order of their index.
        public var streams: [Stream]

        /// The video streams.
        public var videoStreams: [Stream] { streams.filter { $0.kind == .video } }
        /// The audio streams.
        public var audioStreams: [Stream] { streams.filter { $0.kind == .audio } }
        /// The subtitle streams.
        public var subtitleStreams: [Stream] { streams.filter { $0.kind == .subtitle } }

        /// Copies what `info` holds.
        init(_ info: OpaquePointer) {
            uri = gst_play_media_info_get_uri(info).map { String(cString: $0) } ?? ""
            let duration = gst_play_media_info_get_duration(info)
            self.duration = duration == GstClockTime.max ? nil : ClockTime(duration)
            isSeekable = gst_play_media_info_is_seekable(info) != 0
            isLive = gst_play_media_info_is_live(info) != 0
            title = gst_play_media_info_get_title(info).map { String(cString: $0) }
            containerFormat = gst_play_media_info_get_container_format(info).map { String(cString: $0) }
            tags = Optional(gst_play_media_info_get_tags(info)).flatMap { Self.tagList($0) }
            var streams: [Stream] = []
            // The list and its infos belong to `info` (transfer none).
            var node = gst_play_media_info_get_stream_list(info)
            while let current = node {
                if let stream = current.pointee.data { streams.append(Stream(OpaquePointer(stream))) }
                node = current.pointee.next
            }
            self.streams = streams.sorted { $0.index < $1.index }
        }

        /// A Swift tag list from `list`, which stays GStreamer's: through its string form, the one way
        /// in the core's public API (GStreamer serializes every tag type it defines).
        static func tagList(_ list: UnsafePointer<GstTagList>) -> TagList? {
            guard let text = gst_tag_list_to_string(list) else { return nil }
            defer { g_free(text) }
            return try? TagList(String(cString: text))
        }
    }

    /// One stream of the media: its kind, codec and caps, and the details of its kind.
    ///
    /// The corresponding C types are `GstPlayStreamInfo` and its subclasses `GstPlayVideoInfo`,
    /// `GstPlayAudioInfo` and `GstPlaySubtitleInfo`.
    public struct Stream: Sendable {
        /// What a stream carries.
        public enum Kind: String, Sendable, Equatable {
            /// Video.
            case video
            /// Audio.
            case audio
            /// Subtitles (text or pictures).
            case subtitle
            /// A kind GstPlay does not name.
            case unknown
        }

        /// The stream's index among the media's streams.
        public var index: Int
        /// Video, audio or subtitle.
        public var kind: Kind
        /// The codec's name from the tags, such as "H.264 (Constrained Baseline Profile)" or "Opus".
        public var codec: String?
        /// The caps the stream is decoded with, once playback has started.
        public var caps: Caps?
        /// The stream's tags, when it has any.
        public var tags: TagList?
        /// A video stream's picture size and rate, as the Discoverer describes them; nil for the other kinds.
        public var video: DiscoveredStream.Video?
        /// An audio stream's channels, rate and language code, as the Discoverer describes them; nil for
        /// the other kinds.
        public var audio: DiscoveredStream.Audio?
        /// The language of an audio or subtitle stream by name, as GstPlay gives it ("English" for a
        /// stream tagged "en"; the code is in ``tags``); nil when untagged.
        public var language: String?

        /// Copies what `info` holds (a GstPlayStreamInfo, or one of its subclasses).
        init(_ info: OpaquePointer) {
            index = Int(gst_play_stream_info_get_index(info))
            kind =
                gst_play_stream_info_get_stream_type(info).flatMap { Kind(rawValue: String(cString: $0)) }
                ?? .unknown
            codec = gst_play_stream_info_get_codec(info).map { String(cString: $0) }
            caps = gst_play_stream_info_get_caps(info).flatMap {
                try? Value(copyingBoxed: UnsafeRawPointer($0), as: "GstCaps").caps
            }
            tags = Optional(gst_play_stream_info_get_tags(info)).flatMap { MediaInfo.tagList($0) }
            // GStreamer's "unknown" bitrate is -1 (or 0, for a stream without the tag).
            let bitrate = { (value: gint) in value > 0 ? Int(value) : nil }
            switch kind {
            case .video:
                var rate = (numerator: gint(0), denominator: gint(1))
                gst_play_video_info_get_framerate(info, &rate.numerator, &rate.denominator)
                var aspect = (numerator: gint(1), denominator: gint(1))
                gst_play_video_info_get_pixel_aspect_ratio(info, &aspect.numerator, &aspect.denominator)
                video = DiscoveredStream.Video(
                    width: Int(gst_play_video_info_get_width(info)), height: Int(gst_play_video_info_get_height(info)),
                    framerate: Fraction(Int(rate.numerator), Int(rate.denominator)),
                    pixelAspectRatio: Fraction(Int(aspect.numerator), Int(aspect.denominator)),
                    bitrate: bitrate(gst_play_video_info_get_bitrate(info)))
            case .audio:
                language = gst_play_audio_info_get_language(info).map { String(cString: $0) }
                audio = DiscoveredStream.Audio(
                    channels: Int(gst_play_audio_info_get_channels(info)),
                    sampleRate: Int(gst_play_audio_info_get_sample_rate(info)),
                    bitrate: bitrate(gst_play_audio_info_get_bitrate(info)), language: tags?.languageCode)
            case .subtitle:
                language = gst_play_subtitle_info_get_language(info).map { String(cString: $0) }
            case .unknown:
                break
            }
        }
    }
}
