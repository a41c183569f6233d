import CGStreamer
import CGStreamerShim

/// A top-level bin with a clock and a bus. Brought to NULL by `stop()` or, at the latest, after `deinit`:
/// a pipeline released while running is brought to NULL on another thread, so releasing it never blocks.
public final class Pipeline: Bin, @unchecked Sendable {
    /// Builds a pipeline from a gst-launch description, such as `"videotestsrc ! gray ! fakesink"`.
    /// Throws GStreamer's own message when the description cannot be constructed.
    ///
    /// The corresponding C function is `gst_parse_launch_full` (with `GST_PARSE_FLAG_FATAL_ERRORS`).
    ///
    /// - Parameter description: The elements and links, in gst-launch-1.0's syntax; when it is not a
    ///   pipeline already, the elements are put in one.
    /// - Throws: ``GStreamerError`` (syntax) with GStreamer's message when the description does not parse, an
    ///   element does not exist, or a property value is refused; also when GStreamer cannot be initialized.
    public init(launch description: String) throws(GStreamerError) {
        try GStreamer.initialize()
        var error: UnsafeMutablePointer<GError>?
        let (element, warnings) = ParseWarnings.collect {
            gst_parse_launch_full(description, nil, GST_PARSE_FLAG_FATAL_ERRORS, &error)
        }
        try Pipeline.check(element, error, warnings)
        guard let element else {
            throw GStreamerError(kind: .syntax, message: "could not construct pipeline \"\(description)\"")
        }
        let pipeline = Pipeline.wrapInPipeline(element)
        router = BusRouter(pipeline: pipeline)
        super.init(pipeline, owned: true)
    }

    /// Builds a pipeline from gst-launch-1.0's arguments: each argument is one token (spaces inside it
    /// are kept), joined the way gst-launch-1.0 joins its command line.
    ///
    /// The corresponding C function is `gst_parse_launchv_full` (with `GST_PARSE_FLAG_FATAL_ERRORS`).
    ///
    /// - Parameter arguments: gst-launch-1.0's arguments after the options, one token each.
    /// - Throws: ``GStreamerError`` (syntax) with GStreamer's message when the arguments do not parse, an
    ///   element does not exist, or a property value is refused; also when GStreamer cannot be initialized.
    public init(arguments: [String]) throws(GStreamerError) {
        try GStreamer.initialize()
        var error: UnsafeMutablePointer<GError>?
        let copies = arguments.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var argv: [UnsafePointer<gchar>?] = copies.map { UnsafePointer($0) } + [nil]
        let (element, warnings) = ParseWarnings.collect {
            argv.withUnsafeMutableBufferPointer { buffer in
                gst_parse_launchv_full(buffer.baseAddress, nil, GST_PARSE_FLAG_FATAL_ERRORS, &error)
            }
        }
        try Pipeline.check(element, error, warnings)
        guard let element else {
            throw GStreamerError(
                kind: .syntax, message: "could not construct pipeline \"\(arguments.joined(separator: " "))\"")
        }
        let pipeline = Pipeline.wrapInPipeline(element)
        router = BusRouter(pipeline: pipeline)
        super.init(pipeline, owned: true)
    }

    /// Throws the parse error, or the first value GLib refused while parsing, releasing what was built.
    private static func check(
        _ element: UnsafeMutablePointer<GstElement>?, _ error: UnsafeMutablePointer<GError>?, _ warnings: [String]
    ) throws(GStreamerError) {
        if let error {
            if let element { gst_object_unref(UnsafeMutableRawPointer(element)) }
            throw GStreamerError(taking: error, kind: .syntax, source: nil)
        }
        if let warning = warnings.first {
            if let element { gst_object_unref(UnsafeMutableRawPointer(element)) }
            throw GStreamerError(kind: .syntax, message: warning)
        }
    }

    /// The element itself when it is a pipeline, else a new pipeline holding it (as gst-launch-1.0 does).
    private static func wrapInPipeline(_ element: UnsafeMutablePointer<GstElement>) -> UnsafeMutablePointer<GstElement>
    {
        if g_type_is_a(CGStreamerShim_object_type(element), gst_pipeline_get_type()) != 0 { return element }
        let pipeline = gst_pipeline_new(nil)!
        gst_bin_add(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self), element)
        return pipeline
    }

    /// An empty pipeline to add elements to.
    ///
    /// The corresponding C function is `gst_pipeline_new`.
    ///
    /// - Parameter name: The pipeline's name, or nil for a numbered one ("pipeline0").
    /// - Throws: ``GStreamerError`` when GStreamer cannot be initialized.
    public init(name: String? = nil) throws(GStreamerError) {
        try GStreamer.initialize()
        let pipeline = gst_pipeline_new(name)!
        router = BusRouter(pipeline: pipeline)
        super.init(pipeline, owned: true)
    }

    deinit {
        // Bringing a running pipeline to NULL waits for its streaming threads to stop, so it is done on a
        // GLib pool thread and deinit returns at once: a deinit on Swift's cooperative pool must not block
        // it, and on a streaming thread of the pipeline GStreamer forbids the change (it would join the
        // thread it runs on). A pipeline already in NULL (stopped) has nothing to wait for.
        if mustNotJoinHere || !isAtRest {
            Pipeline.tearDownOnPoolThread(pointer, router: router)
        } else {
            Pipeline.tearDown(pointer, router: router)
        }
    }

    /// In NULL with no change in progress: setting NULL again returns at once.
    private var isAtRest: Bool {
        var current = GST_STATE_VOID_PENDING
        var pending = GST_STATE_VOID_PENDING
        _ = gst_element_get_state(pointer, &current, &pending, 0)
        return current == GST_STATE_NULL && pending == GST_STATE_VOID_PENDING
    }

    /// Brings the pipeline to NULL and detaches the router.
    private static func tearDown(_ pointer: UnsafeMutablePointer<GstElement>, router: BusRouter) {
        gst_element_set_state(pointer, GST_STATE_NULL)
        let bus = gst_pipeline_get_bus(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstPipeline.self))
        // Going to NULL flushes the bus, but a pipeline never started makes no change: what was posted
        // (and the elements the messages hold) would stay queued. Flushing, then open again for whoever
        // still holds the pipeline.
        gst_bus_set_flushing(bus, 1)
        gst_bus_set_flushing(bus, 0)
        gst_bus_set_sync_handler(bus, nil, nil, nil)
        gst_object_unref(UnsafeMutableRawPointer(bus))
        router.finish()
    }

    /// `tearDown` on a GLib pool thread, holding a reference of its own to the pipeline until it is done.
    private static func tearDownOnPoolThread(_ pointer: UnsafeMutablePointer<GstElement>, router: BusRouter) {
        onPoolThread(pointer) { tearDown($0, router: router) }
    }

    /// Runs `body` with the pipeline on a GLib pool thread, holding a reference of its own until it is done.
    private static func onPoolThread(
        _ pointer: UnsafeMutablePointer<GstElement>,
        _ body: @escaping @Sendable (UnsafeMutablePointer<GstElement>) -> Void
    ) {
        final class Job: Sendable {
            // The pipeline pointer: GstElement is thread-safe, and the job holds its own reference.
            nonisolated(unsafe) let pointer: UnsafeMutablePointer<GstElement>
            init(_ pointer: UnsafeMutablePointer<GstElement>) { self.pointer = pointer }
        }
        gst_object_ref(UnsafeMutableRawPointer(pointer))
        let job = Job(pointer)
        BlockingCall.start {
            body(job.pointer)
            gst_object_unref(UnsafeMutableRawPointer(job.pointer))
        }
    }

    let router: BusRouter

    /// The bus messages (errors, warnings, end of stream, state changes, tags, ...) posted from now on,
    /// from any thread. Each access subscribes anew, and every subscriber gets every message, so any
    /// number of tasks can read at once; cancelling a reader's task ends only that reader. Up to 4096
    /// unread messages wait per reader (past that the oldest go, but never an error or end of stream).
    /// The sequence finishes when the pipeline is released. Subscribe before `play()` to see it all.
    public var messages: MessageStream { MessageStream(router: router, capacity: 4096) }

    /// `messages` with room for `capacity` unread messages per reader.
    ///
    /// - Parameter capacity: How many unread messages wait for this reader before the oldest are dropped
    ///   (errors and end of stream are never dropped).
    /// - Returns: A new subscription to the messages posted from now on.
    public func messages(capacity: Int) -> MessageStream { MessageStream(router: router, capacity: capacity) }

    /// `messages` as they were posted: each with the element that posted it (`sourceElement`), when an
    /// element did, beside its name.
    public var postedMessages: PostedMessageStream { PostedMessageStream(router: router, capacity: 4096) }

    /// Sets the function that sees every message on the thread that posts it, before any reader of
    /// `messages`, to answer what must be answered there (`need-context` with a context,
    /// `prepare-window-handle` with a window). Returning `.drop` keeps the message from the readers.
    /// It must be quick and must not change the pipeline's state. Nil removes it.
    ///
    /// The corresponding C function is `gst_bus_set_sync_handler` (the pipeline keeps its own handler,
    /// which calls this one).
    ///
    /// - Parameter handler: Called on the posting thread (often a streaming thread) for every message;
    ///   it returns ``BusSyncReply/pass`` to let readers see the message or ``BusSyncReply/drop`` to keep it
    ///   from them. Nil removes the handler.
    public func setSyncHandler(_ handler: (@Sendable (PostedMessage) -> BusSyncReply)?) {
        router.setSyncHandler(handler)
    }

    /// Posts a `.propertyNotify` message each time a pad anywhere in the pipeline gets new caps
    /// (what gst-launch-1.0 -v prints).
    ///
    /// The corresponding C function is `gst_element_add_property_deep_notify_watch`.
    public func watchCaps() {
        _ = gst_element_add_property_deep_notify_watch(pointer, "caps", 1)
    }

    /// Sets the pipeline to PLAYING. Throws the first error message when the change fails.
    ///
    /// The corresponding C function is `gst_element_set_state` with `GST_STATE_PLAYING`; it does not wait for
    /// an asynchronous change to complete.
    ///
    /// - Throws: ``GStreamerError``: the first error an element posted (with its message and name), or a
    ///   state-change error when none did.
    public func play() throws(GStreamerError) {
        try changeStateReportingBusError(.playing)
    }

    /// Sets the pipeline to PAUSED.
    ///
    /// The corresponding C function is `gst_element_set_state` with `GST_STATE_PAUSED`.
    ///
    /// - Throws: ``GStreamerError``: the first error an element posted, or a state-change error when none did.
    public func pause() throws(GStreamerError) {
        try changeStateReportingBusError(.paused)
    }

    /// Brings the pipeline to NULL, releasing its resources. Never fails. Blocks the calling thread until
    /// the streaming threads have stopped: from async code, `await changeState(to: .null)` waits without
    /// holding a thread of Swift's cooperative pool. Called from a streaming thread of the pipeline or
    /// from a handler GStreamer called (a signal handler, a probe), which GStreamer may have to join, it
    /// returns at once and the change happens on another thread.
    ///
    /// The corresponding C function is `gst_element_set_state` with `GST_STATE_NULL`.
    public func stop() {
        if mustNotJoinHere {
            Pipeline.stopOnPoolThread(pointer)
        } else {
            gst_element_set_state(pointer, GST_STATE_NULL)
        }
        router.resetFirstError()
        router.runEnded(nil)
    }

    /// The threads running one of the pipeline's streaming tasks now, in the order of their ids. Each is
    /// listed from the moment it enters its task until it leaves it (the `stream-status` messages
    /// `enter` and `leave`, seen on the posting thread), or until its task is seen to have ended where the
    /// `leave` never came (an element out of its bin posts none: parsebin takes its chains' elements out
    /// before it stops them); once the pipeline reached NULL, there are none. As a thread leaves its task
    /// it gets back the name GLib gives its pool threads ("pool"), where GStreamer would leave the pad's
    /// name on an idle thread; one whose `leave` never came keeps it.
    public var streamingThreads: [StreamingThread] { router.streamingThreads }

    /// True where bringing the pipeline down would have GStreamer join the calling thread: a streaming
    /// thread of the pipeline (a GstTask), or any thread running a Swift handler GStreamer called, which
    /// may be an element's own thread (webrtcbin's, libnice's) that its state change stops.
    var mustNotJoinHere: Bool { router.isOnStreamingThread || CallbackThread.isInside }

    /// Sets `state` (NULL by default) on a GLib pool thread, the pipeline referenced until it is done.
    static func stopOnPoolThread(_ pointer: UnsafeMutablePointer<GstElement>, state: State = .null) {
        onPoolThread(pointer) { _ = gst_element_set_state($0, state.gstState) }
    }

    private func changeStateReportingBusError(_ state: State) throws(GStreamerError) {
        if gst_element_set_state(pointer, state.gstState) == GST_STATE_CHANGE_FAILURE {
            throw router.firstError
                ?? GStreamerError(
                    kind: .stateChange, message: "the pipeline failed to change state to \(state)", source: name)
        }
    }

    /// Plays the pipeline until end of stream, and brings it to NULL. Throws the first error message,
    /// or, when the messages end before end of stream (the task was cancelled), an error saying so.
    ///
    /// - Throws: ``GStreamerError``: the first error an element posts, a state-change error when playing
    ///   fails, or a runtime error when the task is cancelled or the messages end before end of stream.
    ///
    /// Playing and stopping happen on a GLib pool thread, never on Swift's cooperative pool: bringing a
    /// pipeline to NULL waits for its streaming threads, and a few runs ending at once would otherwise hold
    /// every thread of that pool.
    public func run() async throws(GStreamerError) {
        // Subscribed before playing: this run reads what follows, not what an earlier run left.
        let messages = messages
        let outcome: GStreamerError? = await { () async -> GStreamerError? in
            do throws(GStreamerError) {
                try await playWithoutBlocking()
            } catch {
                return error
            }
            for await message in messages {
                switch message {
                case .endOfStream: return nil
                case .error(let error): return error
                default: continue
                }
            }
            return GStreamerError(
                kind: .runtime,
                message: Task.isCancelled
                    ? "the run was cancelled before end of stream" : "the bus messages ended before end of stream",
                source: name)
        }()
        await stopWithoutBlocking()
        if let outcome { throw outcome }
    }

    /// ``play()`` on a GLib pool thread: NULL → READY → PAUSED may open files and devices.
    func playWithoutBlocking() async throws(GStreamerError) {
        try await BlockingCall.run { [self] () -> Result<Void, GStreamerError> in
            Result { () throws(GStreamerError) in try play() }
        }.get()
    }

    /// ``stop()`` on a GLib pool thread, awaited.
    func stopWithoutBlocking() async {
        await BlockingCall.run { [self] in stop() }
    }
}
