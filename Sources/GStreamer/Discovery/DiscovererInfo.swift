import CGStreamer
import CGStreamerShim

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
