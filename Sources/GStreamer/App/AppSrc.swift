import CGStreamer
import CGStreamerShim
import Synchronization

/// An `appsrc` element: the application pushes buffers or samples into a pipeline.
///
/// Made in code (`AppSrc(name:)`) or found in a pipeline built from a description
/// (`pipeline.appSrc(named:)`), it is an `Element` like any other, to add, link and set properties on.
/// Set `caps`, `format` (`.time` for timestamped media) and `isLive` before the pipeline leaves NULL,
/// then push from any thread: on a thread of your own (push mode), or from `onNeedData` (pull mode),
/// which appsrc calls on its streaming thread when its queue runs low. The queue is bounded by
/// `maxBytes`, `maxBuffers` and `maxTime`; with `block` a push into a full queue waits for room, so a
/// fast producer is slowed to the pipeline's pace, and without it `onEnoughData` says when to pause.
/// The handlers are appsrc's callbacks (`gst_app_src_set_callbacks`): the first one set replaces any
/// callbacks set from C, and every wrapper of the same appsrc shares them. The appsrc keeps its handlers
/// until it is finalized, so a handler that captures the appsrc keeps it alive after its pipeline is
/// gone: set such a handler to nil when done (as ``SignalConnection/disconnect()`` ends a signal's).
///
/// The corresponding C type is `GstAppSrc`.
public final class AppSrc: Element, @unchecked Sendable {
    // GstAppSrc is thread-safe; the wrapper adds no state of its own (the callbacks live on the
    // GObject, see `AppSrcCallbacks`).

    /// A new appsrc with time format.
    ///
    /// The corresponding C function is `gst_element_factory_make("appsrc", name)`.
    ///
    /// - Parameter name: The element's name; nil lets GStreamer name it (`appsrc0`).
    /// - Throws: ``GStreamerError`` (invalid argument, naming the package to install) when the app plugin
    ///   is not installed.
    public convenience init(name: String? = nil) throws(GStreamerError) {
        try GStreamer.initialize()
        guard let element = gst_element_factory_make("appsrc", name) else { throw ElementFactory.missing("appsrc") }
        self.init(element, owned: true)
        format = .time
    }

    /// The same GStreamer element as `element`, as an appsrc.
    ///
    /// - Parameter element: An element that is an appsrc (`pipeline.element(named:)`, say).
    /// - Throws: ``GStreamerError`` (invalid argument) naming the element and its factory when it is not
    ///   an appsrc.
    public convenience init(_ element: Element) throws(GStreamerError) {
        self.init(try element.checkedPointer(gst_app_src_get_type(), "an appsrc"), owned: false)
    }

    var appSrcPointer: UnsafeMutablePointer<GstAppSrc> {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstAppSrc.self)
    }

    // MARK: Pushing

    /// Pushes `buffer` (with its timestamps) into the queue. With ``block`` set, waits while the queue
    /// is full.
    ///
    /// The corresponding C function is `gst_app_src_push_buffer`.
    ///
    /// - Parameter buffer: The buffer; appsrc takes a reference of its own, the wrapper keeps its own.
    /// - Returns: ``FlowResult/ok``; ``FlowResult/flushing`` when the appsrc is stopped or flushing (the
    ///   buffer is dropped, no error); ``FlowResult/endOfStream`` after ``endOfStream()``.
    @discardableResult
    public func push(_ buffer: Buffer) -> FlowResult {
        // push_buffer takes a reference of its own: the wrapper keeps its reference.
        FlowResult(gst_app_src_push_buffer(appSrcPointer, buffer.newReference()))
    }

    /// Pushes `buffer` as the synchronous `push(_:)` (with a buffer) does, awaiting room in a full queue
    /// (with ``block`` set) on a GLib pool thread: the task suspends, and no thread of Swift's cooperative
    /// pool waits.
    ///
    /// The corresponding C function is `gst_app_src_push_buffer`, called on another thread.
    ///
    /// - Parameter buffer: The buffer; appsrc takes a reference of its own, the wrapper keeps its own.
    /// - Returns: As the synchronous `push(_:)` (with a buffer) does.
    @discardableResult
    public func push(_ buffer: Buffer) async -> FlowResult {
        await BlockingCall.run { [self] in push(buffer) }
    }

    /// Pushes `sample`'s buffer, and its caps when they differ from the current ones (and, with
    /// `handle-segment-change`, its segment).
    ///
    /// The corresponding C function is `gst_app_src_push_sample`.
    ///
    /// - Parameter sample: The sample: a buffer with the caps it is in.
    /// - Returns: As the synchronous `push(_:)` (with a buffer) does.
    @discardableResult
    public func push(_ sample: Sample) -> FlowResult {
        FlowResult(gst_app_src_push_sample(appSrcPointer, sample.pointer))
    }

    /// Pushes a copy of `bytes` as one buffer stamped with `pts` and `duration`.
    ///
    /// The corresponding C functions are `gst_buffer_new_allocate` and `gst_app_src_push_buffer`.
    ///
    /// - Parameters:
    ///   - bytes: The buffer's content, copied.
    ///   - pts: Its presentation timestamp in nanoseconds; nil for none.
    ///   - duration: Its duration in nanoseconds; nil for none.
    /// - Returns: As the synchronous `push(_:)` (with a buffer) does.
    /// - Throws: ``GStreamerError`` (core) when the buffer cannot be allocated.
    @discardableResult
    public func push(
        bytes: some Collection<UInt8>, pts: ClockTime?, duration: ClockTime?
    ) throws(GStreamerError) -> FlowResult {
        let buffer = try Buffer(bytes: bytes, pts: pts, duration: duration)
        return push(buffer)
    }

    /// Ends the stream: the buffers queued are sent, then end of stream. Later pushes return
    /// ``FlowResult/endOfStream``.
    ///
    /// The corresponding C function is `gst_app_src_end_of_stream`.
    ///
    /// - Returns: ``FlowResult/ok``, or ``FlowResult/flushing`` when the appsrc is stopped.
    @discardableResult
    public func endOfStream() -> FlowResult {
        FlowResult(gst_app_src_end_of_stream(appSrcPointer))
    }

    // MARK: Stream description

    /// The caps of the buffers pushed (nil: none set, downstream must find out).
    ///
    /// The corresponding C functions are `gst_app_src_set_caps` and `gst_app_src_get_caps`.
    public var caps: Caps? {
        get { gst_app_src_get_caps(appSrcPointer).map { Caps(taking: $0) } }
        set { gst_app_src_set_caps(appSrcPointer, newValue?.pointer) }
    }

    /// The unit of the segment appsrc starts and of seeks (`format` property): `.time` for buffers
    /// with timestamps, `.bytes` (the default of a bare appsrc) for a byte stream.
    public enum Format: String, Sendable {
        /// Bytes: a byte stream (a file's content), the default of a bare appsrc.
        case bytes
        /// Nanoseconds: timestamped media.
        case time
        /// Buffers, counted.
        case buffers
        /// The stream's default unit (samples for raw audio, frames for raw video).
        case `default` = "default"
    }

    /// The unit of the segment and of seeks (the `format` property). `AppSrc(name:)` sets `.time`.
    public var format: Format {
        get {
            if case .enumeration(_, let nick)? = try? get("format"), let format = Format(rawValue: nick) {
                return format
            }
            return .bytes
        }
        set { try? set("format", fromString: newValue.rawValue) }
    }

    /// True for a live source (a capture device, a network stream): nothing prerolls in PAUSED, and
    /// sinks synchronize on the time a buffer was pushed at (the `is-live` property).
    public var isLive: Bool {
        get { boolProperty("is-live", default: false) }
        set { try? set("is-live", newValue) }
    }

    /// Whether timestamps are added by appsrc from the running time at push (`do-timestamp`), for
    /// live sources that push untimestamped buffers.
    public var stampsBuffers: Bool {
        get { boolProperty("do-timestamp", default: false) }
        set { try? set("do-timestamp", newValue) }
    }

    /// How the stream can be read: pushed in order (`.stream`), seekable (`.seekable`: `onSeekData`
    /// moves the producer), or by random access (pull mode, bytes).
    ///
    /// The corresponding C type is `GstAppStreamType`.
    public enum StreamType: Sendable {
        /// Pushed in order; seeks are refused.
        case stream
        /// Pushed in order; a seek calls ``AppSrc/onSeekData(_:)`` to move the producer.
        case seekable
        /// Pulled by downstream at any offset (bytes).
        case randomAccess
    }

    /// How the stream can be read (see `StreamType`).
    ///
    /// The corresponding C functions are `gst_app_src_set_stream_type` and `gst_app_src_get_stream_type`.
    public var streamType: StreamType {
        get {
            switch gst_app_src_get_stream_type(appSrcPointer) {
            case GST_APP_STREAM_TYPE_SEEKABLE: .seekable
            case GST_APP_STREAM_TYPE_RANDOM_ACCESS: .randomAccess
            default: .stream
            }
        }
        set {
            let type: GstAppStreamType =
                switch newValue {
                case .stream: GST_APP_STREAM_TYPE_STREAM
                case .seekable: GST_APP_STREAM_TYPE_SEEKABLE
                case .randomAccess: GST_APP_STREAM_TYPE_RANDOM_ACCESS
                }
            gst_app_src_set_stream_type(appSrcPointer, type)
        }
    }

    /// The whole stream's length in nanoseconds, when known: what appsrc answers to duration queries.
    ///
    /// The corresponding C functions are `gst_app_src_set_duration` and `gst_app_src_get_duration`.
    public var streamDuration: ClockTime? {
        get { optionalClockTime(gst_app_src_get_duration(appSrcPointer)) }
        set { gst_app_src_set_duration(appSrcPointer, clockTimeValue(newValue)) }
    }

    // MARK: The queue

    /// The most bytes queued before the queue is full (0: no limit by bytes; appsrc's default 200000).
    ///
    /// The corresponding C functions are `gst_app_src_set_max_bytes` and `gst_app_src_get_max_bytes`.
    public var maxBytes: UInt64 {
        get { UInt64(gst_app_src_get_max_bytes(appSrcPointer)) }
        set { gst_app_src_set_max_bytes(appSrcPointer, guint64(newValue)) }
    }

    /// The most buffers queued before the queue is full (0: no limit by buffers, the default).
    ///
    /// The corresponding C functions are `gst_app_src_set_max_buffers` and `gst_app_src_get_max_buffers`.
    public var maxBuffers: UInt64 {
        get { UInt64(gst_app_src_get_max_buffers(appSrcPointer)) }
        set { gst_app_src_set_max_buffers(appSrcPointer, guint64(newValue)) }
    }

    /// The most nanoseconds of media queued before the queue is full (0: no limit by time, the default).
    ///
    /// The corresponding C functions are `gst_app_src_set_max_time` and `gst_app_src_get_max_time`.
    public var maxTime: ClockTime {
        get { ClockTime(gst_app_src_get_max_time(appSrcPointer)) }
        set { gst_app_src_set_max_time(appSrcPointer, GstClockTime(newValue)) }
    }

    /// Whether a push into a full queue waits for room (the `block` property; false by default, when
    /// the queue grows past its limits and only `onEnoughData` says so).
    public var block: Bool {
        get { boolProperty("block", default: false) }
        set { try? set("block", newValue) }
    }

    /// What the queue holds now: bytes, buffers and nanoseconds of media.
    ///
    /// The corresponding C functions are `gst_app_src_get_current_level_bytes`,
    /// `gst_app_src_get_current_level_buffers` and `gst_app_src_get_current_level_time`.
    public var queued: (bytes: UInt64, buffers: UInt64, time: ClockTime) {
        (
            UInt64(gst_app_src_get_current_level_bytes(appSrcPointer)),
            UInt64(gst_app_src_get_current_level_buffers(appSrcPointer)),
            ClockTime(gst_app_src_get_current_level_time(appSrcPointer))
        )
    }

    // MARK: Callbacks

    /// Calls `handler` when the queue runs low and appsrc wants data (about `length` bytes, or -1 when
    /// it does not say), on its streaming thread: push from the handler (pull mode) or wake a producer.
    ///
    /// The corresponding C function is `gst_app_src_set_callbacks` (`need_data`).
    ///
    /// - Parameter handler: Called with the number of bytes wanted (-1: unknown); it replaces the
    ///   handler set before, and nil removes it.
    public func onNeedData(_ handler: (@Sendable (_ length: Int) -> Void)?) {
        AppSrcCallbacks.of(self).handlers.withLock { $0.needData = handler }
    }

    /// Calls `handler` when the queue is full: a producer should pause until the next need-data.
    ///
    /// The corresponding C function is `gst_app_src_set_callbacks` (`enough_data`).
    ///
    /// - Parameter handler: Called on the thread that filled the queue; nil removes it.
    public func onEnoughData(_ handler: (@Sendable () -> Void)?) {
        AppSrcCallbacks.of(self).handlers.withLock { $0.enoughData = handler }
    }

    /// Calls `handler` with the position to go on from after a seek (nanoseconds in `.time` format,
    /// bytes in `.bytes`), for a `.seekable` or `.randomAccess` stream.
    ///
    /// The corresponding C function is `gst_app_src_set_callbacks` (`seek_data`).
    ///
    /// - Parameter handler: Gets the offset to go on from and returns false when it cannot; nil removes
    ///   it (seeks then succeed without the producer knowing).
    public func onSeekData(_ handler: (@Sendable (_ offset: UInt64) -> Bool)?) {
        AppSrcCallbacks.of(self).handlers.withLock { $0.seekData = handler }
    }
}
