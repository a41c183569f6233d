import CGStreamer
import CGStreamerShim
import Dispatch
import GstPipeSupport

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
    private let turn = Locked(())
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
    @available(*, noasync, message: "it blocks the thread: await the async discover(uri:)")
    public func discover(uri: String) throws(GStreamerError) -> DiscovererInfo {
        try turn.withLock { _ throws(GStreamerError) in try discoverNow(uri: uri) }
    }

    /// Reads `uri` far enough to know its streams, on a thread of the discoverer's own: the task
    /// suspends, and no thread of Swift's cooperative pool waits. Calls from several tasks take turns.
    ///
    /// Cancelling the task ends the wait at once with an error. A call still waiting for its turn is
    /// dropped; one under way (GStreamer cannot interrupt it) ends by itself within the discoverer's
    /// timeout, and its answer is dropped.
    ///
    /// The corresponding C function is `gst_discoverer_discover_uri`.
    ///
    /// - Parameter uri: The media's URI (`file:///...`, `https://...`).
    /// - Returns: What the media holds.
    /// - Throws: ``GStreamerError`` (runtime, naming the URI) when GStreamer cannot read it at all
    ///   (missing, not media, timed out), or the task was cancelled.
    public func discover(uri: String) async throws(GStreamerError) -> DiscovererInfo {
        let waiter = Waiter()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
                guard waiter.wait(continuation) else { return }
                queue.async {
                    // Dropped while it waited for its turn: no discovery for nobody.
                    guard !waiter.isCancelled else { return }
                    waiter.finish(Result { () throws(GStreamerError) in try self.discover(uri: uri) })
                }
            }
        } onCancel: {
            waiter.finish(
                .failure(
                    GStreamerError(
                        kind: .runtime, message: "the discovery was cancelled", source: uri)))
        }
        return try result.get()
    }

    private typealias Answer = Result<DiscovererInfo, GStreamerError>

    /// One async discovery's continuation, resumed once: by its answer or by its cancellation.
    private final class Waiter: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Answer, Never>?
            var outcome: Answer?
        }
        private let state = Locked(State())

        var isCancelled: Bool { state.withLock { $0.outcome != nil } }

        /// Keeps `continuation`; false (having resumed it) when the outcome is known already.
        func wait(_ continuation: CheckedContinuation<Answer, Never>) -> Bool {
            let outcome = state.withLock { state in
                if state.outcome == nil { state.continuation = continuation }
                return state.outcome
            }
            guard let outcome else { return true }
            continuation.resume(returning: outcome)
            return false
        }

        /// Resumes the waiter with `outcome`, unless it was resumed already.
        func finish(_ outcome: Answer) {
            let continuation = state.withLock { state -> CheckedContinuation<Answer, Never>? in
                guard state.outcome == nil else { return nil }
                state.outcome = outcome
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume(returning: outcome)
        }
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
