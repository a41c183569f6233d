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
        try GStreamer.initialize()
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        var error: UnsafeMutablePointer<GError>?
        guard let discoverer = gst_discoverer_new(GstClockTime(nanoseconds), &error) else {
            throw GStreamerError(taking: error, kind: .core, source: nil)
        }
        defer { g_object_unref(UnsafeMutableRawPointer(discoverer)) }
        let info = gst_discoverer_discover_uri(discoverer, uri, &error)
        defer { if let info { g_object_unref(UnsafeMutableRawPointer(info)) } }
        guard let info else { throw GStreamerError(taking: error, kind: .runtime, source: uri) }
        let result = gst_discoverer_info_get_result(info)
        switch result {
        case GST_DISCOVERER_OK, GST_DISCOVERER_MISSING_PLUGINS:
            if let error { g_error_free(error) }
        case GST_DISCOVERER_TIMEOUT:
            if let error { g_error_free(error) }
            throw GStreamerError(kind: .runtime, message: "timed out reading the streams", source: uri)
        default:
            throw GStreamerError(taking: error, kind: .runtime, source: uri)
        }
        let duration = gst_discoverer_info_get_duration(info)
        return MediaInfo(
            duration: duration == GstClockTime.max ? nil : ClockTime(duration),
            videoStreams: streamCount(gst_discoverer_info_get_video_streams(info)),
            audioStreams: streamCount(gst_discoverer_info_get_audio_streams(info)),
            missingDecoders: decodersMissing(in: info))
    }

    private static func streamCount(_ list: UnsafeMutablePointer<GList>?) -> Int {
        defer { gst_discoverer_stream_info_list_free(list) }
        return Int(g_list_length(list))
    }

    /// Installer details read "gstreamer|1.0|app|Sorenson Video 1 decoder|decoder-video/x-svq, ...".
    private static func decodersMissing(in info: OpaquePointer) -> [MissingDecoder] {
        guard var details = gst_discoverer_info_get_missing_elements_installer_details(info) else { return [] }
        var missing: [MissingDecoder] = []
        while let detail = details.pointee {
            let fields = String(cString: detail).split(separator: "|", omittingEmptySubsequences: false)
            if fields.count >= 5, fields[4].hasPrefix("decoder-") {
                let caps = fields[4].dropFirst("decoder-".count)
                let mediaType = caps.prefix { $0 != "," && $0 != " " }
                missing.append(MissingDecoder(description: String(fields[3]), mediaType: String(mediaType)))
            }
            details += 1
        }
        return missing
    }
}
