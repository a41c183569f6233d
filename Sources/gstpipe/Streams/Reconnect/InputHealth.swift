import Foundation
import GstPipeParsing
import GstPipeSupport
import Synchronization

/// How a reconnecting input (`--reconnect`) is doing, for whatever reports on the run: the one
/// place its losses and returns are told, with their times and the count of reconnections, so that
/// metrics (`/metrics`, `/healthz`), event lines and the run's own stderr notes all say the same.
///
/// `ReconnectingInput` owns one (`health`) and calls `record`; readers either read `current`, set
/// a handler with `onChange` (called on the thread that recorded the change: keep it short), or
/// iterate `changes`, an `AsyncStream` of every change from the moment it is asked for. A run finds
/// it on its input's session: `(elements.input?.session as? ReconnectingInput)?.health`, nil without
/// `--reconnect`.
final class InputHealth: Sendable {
    /// What the input is doing.
    enum State: Sendable, Equatable {
        /// Not delivered a frame yet: the first connection is being made.
        case starting
        /// Frames arrive.
        case delivering
        /// Lost: nothing arrives, and the outputs show the last frame, then the slate.
        case away
        /// Away for longer than `--reconnect-max`: the run ends.
        case gaveUp
    }

    /// One change of state, as it happened.
    struct Change: Sendable, Equatable {
        /// The state entered.
        let state: State
        /// When it was entered, on the wall clock.
        let date: Date
        /// Why the input was lost (`away`, `gaveUp`), or why the first connection failed; its
        /// password hidden (`Secrets.redact`). Nil for `delivering`.
        let reason: String?
        /// For `delivering` after `away`: how long the input was away.
        let awayFor: Duration?
        /// Times the input came back so far, this change included.
        let reconnects: Int
    }

    /// The last change, nil before the first.
    var current: Change? { state.withLock { $0.current } }
    /// Times the input came back after a loss.
    var reconnects: Int { state.withLock { $0.current?.reconnects ?? 0 } }

    private struct Listeners {
        var current: Change?
        var handlers: [@Sendable (Change) -> Void] = []
        var streams: [UUID: AsyncStream<Change>.Continuation] = [:]
    }
    private let state = Locked(Listeners())

    /// Calls `handler` with every change from now on, on the thread that records it.
    func onChange(_ handler: @escaping @Sendable (Change) -> Void) {
        state.withLock { $0.handlers.append(handler) }
    }

    /// Every change from now on, until the input is closed (`finish`).
    var changes: AsyncStream<Change> {
        let (stream, continuation) = AsyncStream.makeStream(of: Change.self, bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        state.withLock { $0.streams[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Records that the input entered `newState`; counts a return after a loss as a reconnection.
    func record(_ newState: State, reason: String? = nil, awayFor: Duration? = nil) {
        let (change, handlers, streams) = state.withLock { listeners in
            let previous = listeners.current
            let back = newState == .delivering && previous?.state == .away
            let change = Change(
                state: newState, date: Date(), reason: reason, awayFor: awayFor,
                reconnects: (previous?.reconnects ?? 0) + (back ? 1 : 0))
            listeners.current = change
            return (change, listeners.handlers, Array(listeners.streams.values))
        }
        handlers.forEach { $0(change) }
        streams.forEach { $0.yield(change) }
    }

    /// Ends every `changes` stream: the input is closed.
    func finish() {
        let streams = state.withLock { listeners in
            defer { listeners.streams.removeAll() }
            return Array(listeners.streams.values)
        }
        streams.forEach { $0.finish() }
    }
}
