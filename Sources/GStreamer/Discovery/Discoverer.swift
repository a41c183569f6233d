import CGStreamer
import CGStreamerShim
import Dispatch

/// Reads what a media file or URI holds by prerolling it once: its streams (container, audio,
/// video, subtitles) with their caps and tags, its duration, whether it can seek.
///
/// The corresponding C type is `GstDiscoverer` (gstreamer-pbutils).
///
/// One discoverer may be shared by any number of threads and tasks: GstDiscoverer handles one URI at a
/// time (a second call meanwhile fails with "Already handling a uri"), so calls take turns.
public final class Discoverer: @unchecked Sendable {
    // Only `discover` touches `pointer` after init, one call at a time (`turn`).
    private let pointer: UnsafeMutablePointer<GstDiscoverer>
    /// Held for one discovery: GstDiscoverer refuses a second URI while it handles one.
    private let turn = Mutex(())
    /// Where the async form waits for its turn and its answer, so that no thread of Swift's
    /// cooperative pool blocks on GStreamer.
    private let queue = DispatchQueue(label: "gstpipe.discoverer")

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

    /// Reads `uri` far enough to know its streams, blocking the calling thread meanwhile (and while
    /// another thread's discovery with this discoverer finishes); from Swift concurrency, await
    /// ``discover(uri:)-swift.method`` instead. Streams without a decoder are no error here: see
    /// ``DiscovererInfo/missingDecoders``.
    ///
    /// The corresponding C function is `gst_discoverer_discover_uri`.
    ///
    /// - Parameter uri: The media's URI (`file:///...`, `https://...`).
    /// - Returns: What the media holds.
    /// - Throws: ``GStreamerError`` (runtime, naming the URI) when GStreamer cannot read it at all
    ///   (missing, not media, timed out).
    public func discover(uri: String) throws(GStreamerError) -> DiscovererInfo {
        try turn.withLock { _ throws(GStreamerError) in try discoverNow(uri: uri) }
    }

    /// Reads `uri` far enough to know its streams, on a thread of the discoverer's own: the task
    /// suspends, and no thread of Swift's cooperative pool waits. Calls from several tasks take turns.
    ///
    /// The corresponding C function is `gst_discoverer_discover_uri`.
    ///
    /// - Parameter uri: The media's URI (`file:///...`, `https://...`).
    /// - Returns: What the media holds.
    /// - Throws: ``GStreamerError`` (runtime, naming the URI) when GStreamer cannot read it at all
    ///   (missing, not media, timed out).
    public func discover(uri: String) async throws(GStreamerError) -> DiscovererInfo {
        let result: Result<DiscovererInfo, GStreamerError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(GStreamerError) in try self.discover(uri: uri) })
            }
        }
        return try result.get()
    }

    private func discoverNow(uri: String) throws(GStreamerError) -> DiscovererInfo {
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
