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

    /// The next sample, waiting for it.
    ///
    /// The corresponding C function is `gst_app_sink_pull_sample`.
    ///
    /// - Returns: The sample; nil at end of stream, or when the appsink is stopped (set to READY or NULL)
    ///   while waiting.
    public func pullSample() -> Sample? {
        gst_app_sink_pull_sample(appSinkPointer).map { Sample(taking: $0) }
    }

    /// The next sample, waiting at most `timeout`.
    ///
    /// The corresponding C function is `gst_app_sink_try_pull_sample`.
    ///
    /// - Parameter timeout: How long to wait; zero does not wait.
    /// - Returns: The sample; nil when none came in time, at end of stream, or when the appsink is stopped.
    public func tryPullSample(timeout: Duration) -> Sample? {
        gst_app_sink_try_pull_sample(appSinkPointer, GstClockTime(nanoseconds(timeout))).map { Sample(taking: $0) }
    }

    /// The sample the appsink prerolled with (the first one, in PAUSED), waiting for it.
    ///
    /// The corresponding C function is `gst_app_sink_pull_preroll`.
    ///
    /// - Returns: The preroll sample; nil at end of stream or when stopped.
    public func pullPreroll() -> Sample? {
        gst_app_sink_pull_preroll(appSinkPointer).map { Sample(taking: $0) }
    }

    /// The preroll sample, waiting at most `timeout`.
    ///
    /// The corresponding C function is `gst_app_sink_try_pull_preroll`.
    ///
    /// - Parameter timeout: How long to wait; zero does not wait.
    /// - Returns: The preroll sample; nil when none came in time, at end of stream or when stopped.
    public func tryPullPreroll(timeout: Duration) -> Sample? {
        gst_app_sink_try_pull_preroll(appSinkPointer, GstClockTime(nanoseconds(timeout))).map { Sample(taking: $0) }
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

extension Element {
    /// A boolean property's value; `fallback` when it cannot be read.
    func boolProperty(_ name: String, default fallback: Bool) -> Bool {
        (try? get(name))?.boolValue ?? fallback
    }

    /// The element's pointer when it is of `type` (described as `what`, "an appsrc"); else throws.
    func checkedPointer(_ type: GType, _ what: String) throws(GStreamerError) -> UnsafeMutablePointer<GstElement> {
        guard isA(type) else {
            throw GStreamerError(
                kind: .invalidArgument, message: "\(name) is a \(factoryName ?? "?"), not \(what)", source: name)
        }
        return pointer
    }

    /// True when the element is of `type` or a subtype of it.
    ///
    /// The corresponding C function is `g_type_is_a`.
    func isA(_ type: GType) -> Bool {
        g_type_is_a(CGStreamerShim_object_type(pointer), type) != 0
    }
}

extension Bin {
    /// The appsrc named `name` inside the bin (at any depth).
    ///
    /// The corresponding C function is `gst_bin_get_by_name`.
    ///
    /// - Parameter name: The element's name, as in `appsrc name=src`.
    /// - Returns: The appsrc.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no element of that name or it is not
    ///   an appsrc.
    public func appSrc(named name: String) throws(GStreamerError) -> AppSrc {
        try AppSrc(child(named: name))
    }

    /// The appsink named `name` inside the bin (at any depth).
    ///
    /// The corresponding C function is `gst_bin_get_by_name`.
    ///
    /// - Parameter name: The element's name, as in `appsink name=sink`.
    /// - Returns: The appsink.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no element of that name or it is not
    ///   an appsink.
    public func appSink(named name: String) throws(GStreamerError) -> AppSink {
        try AppSink(child(named: name))
    }

    private func child(named name: String) throws(GStreamerError) -> Element {
        guard let element = element(named: name) else {
            throw GStreamerError(kind: .invalidArgument, message: "no element named \"\(name)\" in \(self.name)")
        }
        return element
    }
}

/// `duration` in nanoseconds, saturating (a negative duration is 0).
func nanoseconds(_ duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0, attoseconds >= 0 else { return 0 }
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? .max : whole &+ UInt64(attoseconds / 1_000_000_000)
}
