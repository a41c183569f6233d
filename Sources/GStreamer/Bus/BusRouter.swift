import CGStreamer
import CGStreamerShim
import GstPipeSupport
import Synchronization

/// Routes a pipeline's bus messages to every subscriber (`MessageStream`), from a bus sync handler
/// (`gst_bus_set_sync_handler`), never by polling. On the posting thread it only takes a reference to
/// each message, runs the application's sync handler and does its own bookkeeping: the first error
/// (for failed state changes), the pipeline's streaming threads (for `Pipeline.deinit`) and the end of
/// a run (for appsink sequences).
final class BusRouter: Sendable {
    private struct State {
        var subscribers: [ObjectIdentifier: Subscriber] = [:]
        var finished = false
        var firstError: PostedMessage?
        var syncHandler: (@Sendable (PostedMessage) -> BusSyncReply)?
        var endWatchers: [Int: @Sendable (GStreamerError?) -> Void] = [:]
        var nextWatcher = 0
        var streamingThreads: Set<UInt> = []
    }

    private let state = Mutex(State())
    /// Held while one message is handed to every reader (`route`).
    private let delivery = Mutex(())
    /// The pipeline's address, to recognize its own state changes.
    private let pipelineAddress: UInt

    init(pipeline: UnsafeMutablePointer<GstElement>) {
        pipelineAddress = UInt(bitPattern: pipeline)
        let bus = gst_pipeline_get_bus(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstPipeline.self))!
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        let box = Unmanaged.passRetained(self).toOpaque()
        // The router is made here and used on the threads that post, often pooled threads older than it.
        HandOver.published(box)
        gst_bus_set_sync_handler(
            bus,
            { _, message, userData in
                guard let message, let userData else { return GST_BUS_DROP }
                HandOver.received(userData)
                Unmanaged<BusRouter>.fromOpaque(userData).takeUnretainedValue().route(message)
                gst_message_unref(message)
                return GST_BUS_DROP
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

    private func route(_ pointer: UnsafeMutablePointer<GstMessage>) {
        let message = PostedMessage(borrowing: pointer)
        switch message.type {
        case GST_MESSAGE_STREAM_STATUS:
            // Posted by the streaming thread itself as it enters and leaves the task.
            var type = GST_STREAM_STATUS_TYPE_CREATE
            var owner: UnsafeMutablePointer<GstElement>?
            gst_message_parse_stream_status(pointer, &type, &owner)
            if type == GST_STREAM_STATUS_TYPE_ENTER {
                state.withLock { _ = $0.streamingThreads.insert(BusRouter.currentThread) }
            } else if type == GST_STREAM_STATUS_TYPE_LEAVE {
                state.withLock { _ = $0.streamingThreads.remove(BusRouter.currentThread) }
            }
        case GST_MESSAGE_ERROR:
            state.withLock { state in
                if state.firstError == nil { state.firstError = message }
            }
            if case .error(let error) = message.message { runEnded(error) }
        case GST_MESSAGE_STATE_CHANGED where UInt(bitPattern: pointer.pointee.src) == pipelineAddress:
            var old = GST_STATE_VOID_PENDING
            var new = GST_STATE_VOID_PENDING
            gst_message_parse_state_changed(pointer, &old, &new, nil)
            if old.rawValue >= GST_STATE_PAUSED.rawValue && new.rawValue <= GST_STATE_READY.rawValue { runEnded(nil) }
        default:
            break
        }
        let handler = state.withLock { $0.syncHandler }
        if handler?(message) == .drop { return }
        // One message at a time to every reader: threads post at once (a streaming thread's latency
        // message, the state change's new-clock), and without this two readers could get them in
        // different orders. enqueue never blocks, and calls nothing that posts.
        delivery.withLock { _ in
            let subscribers = state.withLock { Array($0.subscribers.values) }
            for subscriber in subscribers { subscriber.enqueue(message) }
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
        state.withLock { $0.streamingThreads.contains(BusRouter.currentThread) }
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
