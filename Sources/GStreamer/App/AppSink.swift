import CGStreamer
import CGStreamerShim

/// An `appsink` element: the application takes the samples that reach the end of a pipeline.
///
/// Made in code (`AppSink(name:)`) or found in a pipeline built from a description
/// (`pipeline.appSink(named:)`), it is an `Element` like any other. Take samples one at a time with
/// `pullSample()` (waits) or `tryPullSample(timeout:)`, or all of them as an AsyncSequence with
/// `pipeline.samples(from:)`, which ends at end of stream, on an error and when the pipeline stops.
///
/// The corresponding C type is `GstAppSink`.
public final class AppSink: Element, @unchecked Sendable {
    // GstAppSink is thread-safe; the wrapper adds no state of its own.

    /// A new appsink.
    ///
    /// The corresponding C function is `gst_element_factory_make("appsink", name)`.
    ///
    /// - Parameter name: The element's name; nil lets GStreamer name it (`appsink0`).
    /// - Throws: ``GStreamerError`` (invalid argument, naming the package to install) when the app plugin
    ///   is not installed.
    public convenience init(name: String? = nil) throws(GStreamerError) {
        try GStreamer.initialize()
        guard let element = gst_element_factory_make("appsink", name) else { throw ElementFactory.missing("appsink") }
        self.init(element, owned: true)
    }

    /// The same GStreamer element as `element`, as an appsink.
    ///
    /// - Parameter element: An element that is an appsink (`pipeline.element(named:)`, say).
    /// - Throws: ``GStreamerError`` (invalid argument) naming the element and its factory when it is not
    ///   an appsink.
    public convenience init(_ element: Element) throws(GStreamerError) {
        self.init(try element.checkedPointer(gst_app_sink_get_type(), "an appsink"), owned: false)
    }

    // MARK: Pulling

    /// The next sample, waiting for it. Blocks the calling thread: from async code use
    /// ``nextSample(timeout:)``, which waits without holding a thread of Swift's cooperative pool.
    ///
    /// The corresponding C function is `gst_app_sink_pull_sample`.
    ///
    /// - Returns: The sample; nil at end of stream, or when the appsink is stopped (set to READY or NULL)
    ///   while waiting.
    @available(*, noasync, message: "it blocks the thread: await nextSample(timeout:) or nextPreroll(timeout:)")
    public func pullSample() -> Sample? {
        gst_app_sink_pull_sample(appSinkPointer).map { Sample(taking: $0) }
    }

    /// The next sample, waiting at most `timeout`. Blocks the calling thread while it waits: from async
    /// code use ``nextSample(timeout:)``.
    ///
    /// The corresponding C function is `gst_app_sink_try_pull_sample`.
    ///
    /// - Parameter timeout: How long to wait; zero does not wait.
    /// - Returns: The sample; nil when none came in time, at end of stream, or when the appsink is stopped.
    @available(*, noasync, message: "it blocks the thread: await nextSample(timeout:) or nextPreroll(timeout:)")
    public func tryPullSample(timeout: Duration) -> Sample? {
        gst_app_sink_try_pull_sample(appSinkPointer, GstClockTime(nanoseconds(timeout))).map { Sample(taking: $0) }
    }

    /// The sample the appsink prerolled with (the first one, in PAUSED), waiting for it. Blocks the
    /// calling thread: from async code use ``nextPreroll(timeout:)``.
    ///
    /// The corresponding C function is `gst_app_sink_pull_preroll`.
    ///
    /// - Returns: The preroll sample; nil at end of stream or when stopped.
    @available(*, noasync, message: "it blocks the thread: await nextSample(timeout:) or nextPreroll(timeout:)")
    public func pullPreroll() -> Sample? {
        gst_app_sink_pull_preroll(appSinkPointer).map { Sample(taking: $0) }
    }

    /// The preroll sample, waiting at most `timeout`.
    ///
    /// The corresponding C function is `gst_app_sink_try_pull_preroll`.
    ///
    /// - Parameter timeout: How long to wait; zero does not wait.
    /// - Returns: The preroll sample; nil when none came in time, at end of stream or when stopped.
    @available(*, noasync, message: "it blocks the thread: await nextSample(timeout:) or nextPreroll(timeout:)")
    public func tryPullPreroll(timeout: Duration) -> Sample? {
        gst_app_sink_try_pull_preroll(appSinkPointer, GstClockTime(nanoseconds(timeout))).map { Sample(taking: $0) }
    }

    /// The next sample, as `pullSample()` or `tryPullSample(timeout:)` give it, awaited: the wait happens on
    /// a GLib pool thread, so any number of these can be awaited at once without starving Swift's
    /// cooperative pool. Cancelling the task ends the wait within a few milliseconds (it returns nil) and
    /// frees the thread; a sample that came meanwhile is returned rather than lost.
    ///
    /// The corresponding C function is `gst_app_sink_try_pull_sample`, called on another thread (in slices
    /// of 20 ms, between which cancellation is seen).
    ///
    /// - Parameter timeout: The longest to wait; nil (the default) waits until a sample comes.
    /// - Returns: The sample; nil when none came in time, at end of stream, when the appsink is stopped, or
    ///   when the task was cancelled.
    public func nextSample(timeout: Duration? = nil) async -> Sample? {
        await BlockingCall.poll(timeout: timeout.map(nanoseconds)) { [self] wait in
            gst_app_sink_try_pull_sample(appSinkPointer, GstClockTime(wait)).map { Sample(taking: $0) }
        }
    }

    /// The preroll sample, as `pullPreroll()` gives it, awaited without holding a thread of Swift's
    /// cooperative pool, and cancellable, as ``nextSample(timeout:)`` is.
    ///
    /// The corresponding C function is `gst_app_sink_try_pull_preroll`, called on another thread.
    ///
    /// - Parameter timeout: The longest to wait; nil (the default) waits until the preroll sample comes.
    /// - Returns: The preroll sample; nil when none came in time, at end of stream, when stopped or when the
    ///   task was cancelled.
    public func nextPreroll(timeout: Duration? = nil) async -> Sample? {
        await BlockingCall.poll(timeout: timeout.map(nanoseconds)) { [self] wait in
            gst_app_sink_try_pull_preroll(appSinkPointer, GstClockTime(wait)).map { Sample(taking: $0) }
        }
    }

    /// True when end of stream has reached the appsink and every sample before it was pulled.
    ///
    /// The corresponding C function is `gst_app_sink_is_eos`.
    public var isEndOfStream: Bool { gst_app_sink_is_eos(appSinkPointer) != 0 }

    // MARK: Settings

    /// The caps the appsink accepts (nil: anything); upstream converts to them when it can.
    ///
    /// The corresponding C functions are `gst_app_sink_set_caps` and `gst_app_sink_get_caps`.
    public var caps: Caps? {
        get { gst_app_sink_get_caps(appSinkPointer).map { Caps(taking: $0) } }
        set { gst_app_sink_set_caps(appSinkPointer, newValue?.pointer) }
    }

    /// The most samples queued unread (0: no limit, the default). When full, the streaming thread waits
    /// for the reader, or, with `drop`, the oldest sample is dropped.
    ///
    /// The corresponding C functions are `gst_app_sink_set_max_buffers` and `gst_app_sink_get_max_buffers`.
    public var maxBuffers: UInt {
        get { UInt(gst_app_sink_get_max_buffers(appSinkPointer)) }
        set { gst_app_sink_set_max_buffers(appSinkPointer, guint(clamping: newValue)) }
    }

    /// Whether a full queue drops its oldest sample instead of waiting for the reader.
    ///
    /// The corresponding C functions are `gst_app_sink_set_drop` and `gst_app_sink_get_drop`.
    public var drop: Bool {
        get { gst_app_sink_get_drop(appSinkPointer) != 0 }
        set { gst_app_sink_set_drop(appSinkPointer, newValue ? 1 : 0) }
    }

    /// Whether samples are handed out at their time on the pipeline's clock (true, the default, as any
    /// sink) or as fast as they come (the `sync` property).
    public var sync: Bool {
        get { boolProperty("sync", default: true) }
        set { try? set("sync", newValue) }
    }
}
