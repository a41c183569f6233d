import CGStreamer
import CGStreamerShim
import GstPipeSupport
import Synchronization

/// Routes a pipeline's bus messages to every subscriber (`MessageStream`), from a bus sync handler
/// (`gst_bus_set_sync_handler`), never by polling. On the posting thread it only takes a reference to
/// each message, runs the application's sync handler and does its own bookkeeping: the first error
/// (for failed state changes), the pipeline's streaming threads (for `Pipeline.deinit`) and the end of
/// a run (for appsink sequences).
///
/// Then it lets the message on into the GstBus's own queue, for the standard readers (`Bus.pop`,
/// `gst_bus_timed_pop_filtered`, bus watches), which it cannot see: nothing tells it whether anyone
/// reads that queue. So that a pipeline nobody pops does not grow it for as long as it runs, the router
/// numbers each message it lets through and, when the oldest still queued is `Bus.backlogLimit`
/// messages old, removes it (a reader far behind loses the oldest, as a `MessageStream` reader does).
final class BusRouter: Sendable {
    private struct State {
        var subscribers: [ObjectIdentifier: Subscriber] = [:]
        var finished = false
        var firstError: PostedMessage?
        var syncHandler: (@Sendable (PostedMessage) -> BusSyncReply)?
        var endWatchers: [Int: @Sendable (GStreamerError?) -> Void] = [:]
        var nextWatcher = 0
        /// The threads in one of the pipeline's tasks, by GThread: entered, and not seen leaving.
        var streamingThreads: [UInt: TaskThread] = [:]
    }

    /// A thread that entered one of the pipeline's tasks, and that task, referenced until the entry goes.
    /// `@unchecked Sendable`: a GstTask is thread-safe, and the entry only reads its state.
    private struct TaskThread: @unchecked Sendable {
        let thread: StreamingThread
        /// Nil when the stream-status message named no GstTask (an element's own GThread).
        let task: UnsafeMutablePointer<GstTask>?

        /// False once the task's thread has left it. The `leave` message says so first, but GStreamer posts it
        /// on the element's bus, and an element taken out of its bin before its task was stopped has none:
        /// parsebin, going to READY, removes the elements of its chains and only then sets them to NULL.
        var isRunning: Bool { task.map { CGStreamerShim_task_is_running($0) != 0 } ?? true }

        func release() {
            if let task { gst_object_unref(UnsafeMutableRawPointer(task)) }
        }
    }

    private let state = Locked(State())
    /// Held while one message is handed to every reader (`route`); counts the messages let through.
    private let delivery = Locked<UInt>(0)
    /// The pipeline's address, to recognize its own state changes.
    private let pipelineAddress: UInt

    convenience init(pipeline: UnsafeMutablePointer<GstElement>) {
        let bus = gst_pipeline_get_bus(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstPipeline.self))!
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        self.init(bus: bus, pipelineAddress: UInt(bitPattern: pipeline))
    }

    /// Routes the messages of `bus`; `pipelineAddress` is its pipeline's, or 0 for a bus of no pipeline
    /// (a device monitor's), whose runs never end.
    init(bus: UnsafeMutablePointer<GstBus>, pipelineAddress: UInt) {
        self.pipelineAddress = pipelineAddress
        let box = Unmanaged.passRetained(self).toOpaque()
        // The router is made here and used on the threads that post, often pooled threads older than it.
        HandOver.published(box)
        gst_bus_set_sync_handler(
            bus,
            { bus, message, userData in
                guard let bus, let message, let userData else { return GST_BUS_DROP }
                HandOver.received(userData)
                let router = Unmanaged<BusRouter>.fromOpaque(userData).takeUnretainedValue()
                // The handler took the message when it drops it; the queue takes it when it passes.
                guard router.route(message, bus: bus) else {
                    gst_message_unref(message)
                    return GST_BUS_DROP
                }
                return GST_BUS_PASS
            }, box,
            { userData in
                guard let userData else { return }
                Unmanaged<BusRouter>.fromOpaque(userData).release()
            })
    }

    // MARK: Subscribers

    func subscribe(capacity: Int) -> Subscriber {
        let subscriber = Subscriber(capacity: capacity)
        let finished = state.withLock { state in
            if !state.finished { state.subscribers[ObjectIdentifier(subscriber)] = subscriber }
            return state.finished
        }
        if finished { subscriber.finish() }
        return subscriber
    }

    func unsubscribe(_ subscriber: Subscriber) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: ObjectIdentifier(subscriber)) }
    }

    func setSyncHandler(_ handler: (@Sendable (PostedMessage) -> BusSyncReply)?) {
        state.withLock { $0.syncHandler = handler }
    }

    // MARK: On the posting thread

    private static var currentThread: UInt { UInt(bitPattern: g_thread_self()) }

    /// Routes `pointer` to the subscribers; false when the application's sync handler dropped it.
    private func route(_ pointer: UnsafeMutablePointer<GstMessage>, bus: UnsafeMutablePointer<GstBus>) -> Bool {
        let message = PostedMessage(borrowing: pointer)
        switch message.type {
        case GST_MESSAGE_STREAM_STATUS:
            // Posted by the streaming thread itself as it enters and leaves the task.
            var type = GST_STREAM_STATUS_TYPE_CREATE
            var owner: UnsafeMutablePointer<GstElement>?
            gst_message_parse_stream_status(pointer, &type, &owner)
            if type == GST_STREAM_STATUS_TYPE_ENTER {
                let name = owner.flatMap { owner in
                    String(
                        takingGString: gst_object_get_name(
                            UnsafeMutableRawPointer(owner).assumingMemoryBound(to: GstObject.self)))
                }
                let entry = TaskThread(
                    thread: StreamingThread(id: CGStreamerShim_thread_id(), element: name ?? ""),
                    task: CGStreamerShim_stream_status_task(pointer))
                state.withLock { $0.streamingThreads.updateValue(entry, forKey: BusRouter.currentThread) }?.release()
            } else if type == GST_STREAM_STATUS_TYPE_LEAVE {
                state.withLock { $0.streamingThreads.removeValue(forKey: BusRouter.currentThread) }?.release()
                // GstTask names its thread after the pad ("matroskademux0:sink") and leaves the name on
                // when the thread goes back to GLib's pool: idle pooled threads, and the threads of
                // GLib's shared pool that later run other work, would still carry an element's name, and
                // a stack dump would show streaming threads where none runs. The name GLib gives its pool
                // threads is put back.
                CGStreamerShim_thread_set_name("pool")
            }
        case GST_MESSAGE_ERROR:
            state.withLock { state in
                if state.firstError == nil { state.firstError = message }
            }
            if case .error(let error) = message.message { runEnded(error) }
        case GST_MESSAGE_STATE_CHANGED
        where pipelineAddress != 0 && UInt(bitPattern: pointer.pointee.src) == pipelineAddress:
            var old = GST_STATE_VOID_PENDING
            var new = GST_STATE_VOID_PENDING
            gst_message_parse_state_changed(pointer, &old, &new, nil)
            if old.rawValue >= GST_STATE_PAUSED.rawValue && new.rawValue <= GST_STATE_READY.rawValue { runEnded(nil) }
        default:
            break
        }
        let handler = state.withLock { $0.syncHandler }
        if handler?(message) == .drop { return false }
        // One message at a time to every reader: threads post at once (a streaming thread's latency
        // message, the state change's new-clock), and without this two readers could get them in
        // different orders. enqueue never blocks, and calls nothing that posts; peeking and popping the
        // bus take only its queue lock, which gst_bus_post does not hold while this handler runs.
        delivery.withLock { next in
            let subscribers = state.withLock { Array($0.subscribers.values) }
            for subscriber in subscribers { subscriber.enqueue(message) }
            next += 1
            BusRouter.number(pointer, next)
            BusRouter.trimBacklog(bus, newest: next)
        }
        return true
    }

    // MARK: The GstBus's own queue

    private static let numberQuark = g_quark_from_static_string("gstpipe-bus-router-number")

    /// Marks the message with its place in the order the router let messages through (1, 2, ...).
    private static func number(_ message: UnsafeMutablePointer<GstMessage>, _ number: UInt) {
        gst_mini_object_set_qdata(
            UnsafeMutableRawPointer(message).assumingMemoryBound(to: GstMiniObject.self), numberQuark,
            UnsafeMutableRawPointer(bitPattern: number), nil)
    }

    /// Removes the oldest queued messages while the queue, with the message `newest` about to join it,
    /// would hold more than `Bus.backlogLimit`. A message the router did not number (posted before it was
    /// installed) is left for the readers.
    private static func trimBacklog(_ bus: UnsafeMutablePointer<GstBus>, newest: UInt) {
        while let head = gst_bus_peek(bus) {
            let number = UInt(
                bitPattern: gst_mini_object_get_qdata(
                    UnsafeMutableRawPointer(head).assumingMemoryBound(to: GstMiniObject.self), numberQuark))
            gst_message_unref(head)
            // A number above `newest` was given by another pipeline's router (the message posted again here).
            guard number != 0, number <= newest, newest - number + 1 > UInt(Bus.backlogLimit) else { return }
            // A reader may have popped `head` meanwhile; then this takes the next, as old or nearly so.
            if let oldest = gst_bus_pop(bus) { gst_message_unref(oldest) }
        }
    }

    // MARK: Bookkeeping

    var firstError: GStreamerError? {
        guard case .error(let error)? = state.withLock({ $0.firstError })?.message else { return nil }
        return error
    }

    /// Forgets the first error (the pipeline was stopped; a new run starts clean).
    func resetFirstError() {
        state.withLock { $0.firstError = nil }
    }

    /// True on a streaming thread of this pipeline, where setting the pipeline's state is forbidden.
    var isOnStreamingThread: Bool {
        runningThreads().keys.contains(BusRouter.currentThread)
    }

    /// The threads in one of the pipeline's tasks now.
    var streamingThreads: [StreamingThread] {
        runningThreads().values.map(\.thread).sorted { $0.id < $1.id }
    }

    /// The entries whose task still runs; the others are removed. A task's state is read outside the
    /// router's lock, under a reference of its own (a `leave` on another thread may release the entry's
    /// meanwhile), and an entry is removed only if no newer one took its thread's place.
    private func runningThreads() -> [UInt: TaskThread] {
        let entries = state.withLock { state in
            for task in state.streamingThreads.values.compactMap(\.task) {
                gst_object_ref(UnsafeMutableRawPointer(task))
            }
            return state.streamingThreads
        }
        defer { for entry in entries.values { entry.release() } }
        let ended = entries.filter { !$0.value.isRunning }
        guard !ended.isEmpty else { return entries }
        let removed = state.withLock { state in
            ended.compactMap { key, entry in
                state.streamingThreads[key]?.task == entry.task ? state.streamingThreads.removeValue(forKey: key) : nil
            }
        }
        for entry in removed { entry.release() }
        return entries.filter { ended[$0.key] == nil }
    }

    deinit {
        for entry in state.withLock({ $0.streamingThreads.values }) { entry.release() }
    }

    /// Calls `body` once, when the run ends before end of stream reached whoever watches: with the error
    /// when an element fails, with nil when the pipeline leaves PAUSED for READY or NULL, or is released.
    func watchRunEnd(_ body: @escaping @Sendable (GStreamerError?) -> Void) {
        let finished = state.withLock { state in
            guard !state.finished else { return true }
            state.endWatchers[state.nextWatcher] = body
            state.nextWatcher += 1
            return false
        }
        if finished { body(nil) }
    }

    /// The run ended (see `watchRunEnd`).
    func runEnded(_ error: GStreamerError?) {
        let watchers = state.withLock { state in
            defer { state.endWatchers.removeAll() }
            return Array(state.endWatchers.values)
        }
        for watcher in watchers { watcher(error) }
    }

    /// Ends every subscriber's stream (after the pipeline reached NULL and will post nothing that matters).
    func finish() {
        let subscribers = state.withLock { state in
            state.finished = true
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
        runEnded(nil)
    }
}
