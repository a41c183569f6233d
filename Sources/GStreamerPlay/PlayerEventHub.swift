import CGStreamer
import CGStreamerPlay
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
    private struct Listeners {
        var next = 0
        var continuations: [Int: AsyncStream<Player.Event>.Continuation] = [:]
        var isFinished = false
        var lastState = Player.State.stopped
        var lastMediaInfo: Player.MediaInfo?
    }

    private let listeners = Mutex(Listeners())

    /// Becomes `bus`'s sync handler; every message posted on it from now on reaches the listeners.
    func attach(to bus: UnsafeMutablePointer<GstBus>) {
        gst_bus_set_sync_handler(
            bus,
            { _, message, data in
                guard let message, let data else { return GST_BUS_DROP }
                let hub = Unmanaged<PlayerEventHub>.fromOpaque(data).takeUnretainedValue()
                if let event = Player.Event(message) { hub.yield(event) }
                return GST_BUS_DROP
            },
            Unmanaged.passRetained(self).toOpaque(),
            { data in data.map { Unmanaged<PlayerEventHub>.fromOpaque($0).release() } })
    }

    /// A new listener, which gets the events posted from now on; it ends with ``finish()``.
    ///
    /// - Parameter capacity: How many events it keeps for a reader that falls behind (the newest).
    func subscribe(capacity: Int) -> AsyncStream<Player.Event> {
        let (stream, continuation) = AsyncStream<Player.Event>.makeStream(bufferingPolicy: .bufferingNewest(capacity))
        let id: Int? = listeners.withLock { state in
            guard !state.isFinished else { return nil }
            state.next += 1
            state.continuations[state.next] = continuation
            return state.next
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.listeners.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
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
        for continuation in continuations { continuation.finish() }
    }

    private func yield(_ event: Player.Event) {
        let continuations = listeners.withLock { state in
            switch event {
            case .stateChanged(let newState): state.lastState = newState
            case .mediaInfoUpdated(let info): state.lastMediaInfo = info
            default: break
            }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.yield(event) }
    }
}
