import CGStreamer
import CGStreamerPlay
import Dispatch
import GStreamer
import GstPipeSupport

/// Hands GstPlay's messages to every listener as ``Player/Event``s.
///
/// It is the sync handler of GstPlay's message bus: GstPlay posts from its own thread, and the
/// handler reads the message there and yields it to each listener's continuation, so no thread waits
/// for a message and no task of Swift's pool is blocked. The bus holds the hub (released by the bus's
/// destroy notify when the bus goes): the handler is never unset while GstPlay may post, because
/// GStreamer 1.22 reads the handler's data outside its lock.
final class PlayerEventHub: Sendable {
    /// What a run's listener gets (``subscribeRun(capacity:)``): GstPlay's events, and the marks
    /// ``mark()`` puts among them.
    enum Item: Sendable {
        case event(Player.Event)
        case mark(UInt64)
    }

    private struct Listeners {
        var next = 0
        var continuations: [Int: Listener] = [:]
        var isFinished = false
        var lastState = Player.State.stopped
        var lastMediaInfo: Player.MediaInfo?
        /// The last URI_LOADED, which a new ``subscribe(capacity:)`` listener gets first.
        var lastURILoaded: Player.Event?
        var lastMark: UInt64 = 0
        /// GstPlay's main context (a reference of ours), known from its first URI_LOADED.
        var context: MainContext?
    }

    private let listeners = Locked(Listeners())

    deinit {
        if let context = listeners.withLock({ $0.context }) { g_main_context_unref(context.pointer) }
    }

    /// Becomes `bus`'s sync handler; every message posted on it from now on reaches the listeners.
    func attach(to bus: UnsafeMutablePointer<GstBus>) {
        gst_bus_set_sync_handler(
            bus,
            { _, message, data in
                guard let message else { return GST_BUS_DROP }
                // A sync handler that drops a message owns it (GstBusSyncHandler's contract). Each of
                // GstPlay's messages holds a reference on GstPlay (its source): kept, they kept GstPlay,
                // its thread and playbin alive for good after the player was released.
                defer { gst_message_unref(message) }
                guard let data else { return GST_BUS_DROP }
                let hub = Unmanaged<PlayerEventHub>.fromOpaque(data).takeUnretainedValue()
                if let event = Player.Event(message) {
                    if case .uriLoaded = event { hub.learnContext() }
                    hub.yield(event)
                }
                return GST_BUS_DROP
            },
            Unmanaged.passRetained(self).toOpaque(),
            { data in data.map { Unmanaged<PlayerEventHub>.fromOpaque($0).release() } })
    }

    /// A new listener, which gets the URI loaded last (GstPlay posts URI_LOADED as soon as the player
    /// is made, before anyone could listen), then the events posted from now on; it ends with
    /// ``finish()``.
    ///
    /// - Parameter capacity: How many events it keeps for a reader that falls behind (the newest).
    func subscribe(capacity: Int) -> AsyncStream<Player.Event> {
        let (stream, continuation) = AsyncStream<Player.Event>.makeStream(bufferingPolicy: .bufferingNewest(capacity))
        // Registered and given the last URI_LOADED under one lock: one posted meanwhile is not given twice.
        let listener = Listener.events(continuation)
        let id: Int? = listeners.withLock { state in
            guard !state.isFinished else { return nil }
            state.next += 1
            state.continuations[state.next] = listener
            if let loaded = state.lastURILoaded { continuation.yield(loaded) }
            return state.next
        }
        guard let id else {
            listener.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    /// A new listener that gets the events posted from now on and the marks ``mark()`` puts among
    /// them; it ends with ``finish()``.
    ///
    /// - Parameter capacity: How many items it keeps for a reader that falls behind (the newest).
    func subscribeRun(capacity: Int) -> AsyncStream<Item> {
        let (stream, continuation) = AsyncStream<Item>.makeStream(bufferingPolicy: .bufferingNewest(capacity))
        if let id = register(.run(continuation)) {
            continuation.onTermination = { [weak self] _ in self?.remove(id) }
        }
        return stream
    }

    /// Puts a mark among the events, in the order of GstPlay's commands: after the events of the
    /// commands called before it, before those of the commands called after it. GstPlay runs its
    /// commands (`gst_play_play`, `_pause`, `_stop`, `_set_uri`) one after another on its main
    /// context, where the mark is invoked too, and posts their events from that context's thread,
    /// where the mark is yielded.
    ///
    /// - Returns: The mark's number, which the run listeners get as ``Item/mark(_:)``; nil while
    ///   GstPlay's context is not known (before the player's first ``Player/Event/uriLoaded(_:)``).
    func mark() -> UInt64? {
        let (context, number) = listeners.withLock { state in
            state.lastMark += 1
            return (state.context, state.lastMark)
        }
        guard let context else { return nil }
        let box = Unmanaged.passRetained(Mark(hub: self, number: number)).toOpaque()
        HandOver.published(box)
        g_main_context_invoke_full(
            context.pointer, G_PRIORITY_DEFAULT,
            { data in
                guard let data else { return 0 }
                HandOver.received(data)
                let mark = Unmanaged<Mark>.fromOpaque(data).takeUnretainedValue()
                mark.hub?.yield(mark: mark.number)
                return 0  // G_SOURCE_REMOVE
            },
            box, { data in data.map { Unmanaged<Mark>.fromOpaque($0).release() } })
        return number
    }

    /// Blocks until GstPlay's thread has run what was invoked on its context before (at once when the
    /// context is not known). For the thread that releases GstPlay only: it waits.
    func waitForGstPlayThread() {
        guard let context = listeners.withLock({ $0.context }) else { return }
        let done = DispatchSemaphore(value: 0)
        // Signalled by the destroy notify, which runs once the no-op has run, or when GstPlay's
        // context goes without running it: the wait ends either way.
        g_main_context_invoke_full(
            context.pointer, G_PRIORITY_DEFAULT, { _ in 0 }, Unmanaged.passRetained(done).toOpaque(),
            { data in if let data { Unmanaged<DispatchSemaphore>.fromOpaque(data).takeRetainedValue().signal() } })
        done.wait()
    }

    /// The state last reported.
    var lastState: Player.State { listeners.withLock { $0.lastState } }

    /// Whether ``finish()`` was called.
    var isFinished: Bool { listeners.withLock { $0.isFinished } }

    /// The media info last reported.
    var lastMediaInfo: Player.MediaInfo? { listeners.withLock { $0.lastMediaInfo } }

    /// Ends every listener's sequence; later listeners end at once.
    func finish() {
        let continuations = listeners.withLock { state in
            state.isFinished = true
            defer { state.continuations.removeAll() }
            return Array(state.continuations.values)
        }
        for listener in continuations { listener.finish() }
    }

    // MARK: Private

    /// One listener's continuation.
    private enum Listener: Sendable {
        case events(AsyncStream<Player.Event>.Continuation)
        case run(AsyncStream<Item>.Continuation)

        func finish() {
            switch self {
            case .events(let continuation): continuation.finish()
            case .run(let continuation): continuation.finish()
            }
        }
    }

    /// A reference to GstPlay's `GMainContext`, which GLib lets any thread invoke on.
    private struct MainContext: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// A mark on its way through GstPlay's context. It holds the hub weakly: a mark GstPlay never
    /// runs (the player was released first) keeps nothing alive.
    private final class Mark: Sendable {
        weak let hub: PlayerEventHub?
        let number: UInt64

        init(hub: PlayerEventHub, number: UInt64) {
            self.hub = hub
            self.number = number
        }
    }

    /// Adds `listener` and returns its number; when the hub has finished, ends it at once instead.
    private func register(_ listener: Listener) -> Int? {
        let id: Int? = listeners.withLock { state in
            guard !state.isFinished else { return nil }
            state.next += 1
            state.continuations[state.next] = listener
            return state.next
        }
        if id == nil { listener.finish() }
        return id
    }

    private func remove(_ id: Int) {
        _ = listeners.withLock { $0.continuations.removeValue(forKey: id) }
    }

    /// Keeps the calling thread's main context when it is GstPlay's: GstPlay 1.22 posts URI_LOADED
    /// from its own thread (`gst_play_set_uri` runs there), which runs GstPlay's context as its
    /// thread-default. Another thread (none pushes a context) leaves the context unknown.
    private func learnContext() {
        guard let context = g_main_context_get_thread_default() else { return }
        listeners.withLock { state in
            if state.context == nil { state.context = MainContext(pointer: g_main_context_ref(context)) }
        }
    }

    private func yield(_ event: Player.Event) {
        let continuations = listeners.withLock { state in
            switch event {
            case .stateChanged(let newState): state.lastState = newState
            case .mediaInfoUpdated(let info): state.lastMediaInfo = info
            case .uriLoaded: state.lastURILoaded = event
            default: break
            }
            return Array(state.continuations.values)
        }
        for listener in continuations {
            switch listener {
            case .events(let continuation): continuation.yield(event)
            case .run(let continuation): continuation.yield(.event(event))
            }
        }
    }

    private func yield(mark: UInt64) {
        let continuations = listeners.withLock { Array($0.continuations.values) }
        for case .run(let continuation) in continuations { continuation.yield(.mark(mark)) }
    }
}
