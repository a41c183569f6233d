import CGStreamer

/// A GStreamer element's state.
public enum State: Int, Sendable, CustomStringConvertible, Comparable {
    /// No state: in a pending state, no change is in progress (`GST_STATE_VOID_PENDING`).
    case voidPending = 0
    /// The initial state: no resources held, nothing allocated (`GST_STATE_NULL`).
    case null = 1
    /// Resources opened (devices, files), no data flowing and no stream position (`GST_STATE_READY`).
    case ready = 2
    /// Data flows up to the sinks, which hold the first buffer (preroll) without rendering it; the clock
    /// does not run (`GST_STATE_PAUSED`).
    case paused = 3
    /// Data flows and the clock runs: sinks render (`GST_STATE_PLAYING`).
    case playing = 4

    init(_ state: GstState) {
        self = State(rawValue: Int(state.rawValue)) ?? .voidPending
    }

    var gstState: GstState { GstState(rawValue: UInt32(rawValue)) }

    /// GStreamer's name for the state, as `gst_element_state_get_name` writes it ("PLAYING").
    public var description: String {
        switch self {
        case .voidPending: "VOID_PENDING"
        case .null: "NULL"
        case .ready: "READY"
        case .paused: "PAUSED"
        case .playing: "PLAYING"
        }
    }

    /// Orders states from ``null`` up to ``playing``, as state changes go up (``voidPending`` first).
    ///
    /// - Parameters:
    ///   - lhs: A state.
    ///   - rhs: Another state.
    /// - Returns: Whether `lhs` comes before `rhs`.
    public static func < (lhs: State, rhs: State) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The outcome of a state change that did not fail.
public enum StateChangeResult: Sendable {
    /// The change is complete (`GST_STATE_CHANGE_SUCCESS`).
    case success
    /// The change completes later (a sink waits for its preroll buffer).
    case async
    /// Succeeded, but the element cannot preroll in PAUSED (a live source).
    case noPreroll
}

// MARK: Changing an element's state

extension Element {
    /// Asks the element to change state; waits for an asynchronous change up to `timeout` nanoseconds.
    /// Throws with the message the element posted when the change fails.
    ///
    /// Blocks the calling thread, while it waits and also inside GStreamer (going down to READY or NULL
    /// joins the streaming threads): from async code use ``changeState(to:timeout:)``. A ``Pipeline``
    /// brought down to READY or NULL from its streaming thread or a handler GStreamer called (a signal
    /// handler, a probe) is changed on another thread instead, and the call returns ``StateChangeResult/async``.
    ///
    /// The corresponding C functions are `gst_element_set_state` and `gst_element_get_state`.
    ///
    /// - Parameters:
    ///   - state: The state to go to; the element passes through the states in between.
    ///   - timeout: How long to wait, in nanoseconds, for an asynchronous change; nil does not wait.
    /// - Returns: ``StateChangeResult/success``, ``StateChangeResult/async`` when the change is still going on
    ///   (after `timeout`), or ``StateChangeResult/noPreroll`` for a live source.
    /// - Throws: ``GStreamerError`` (state change) when the change fails (`GST_STATE_CHANGE_FAILURE`).
    @discardableResult
    public func setState(_ state: State, timeout: ClockTime? = nil) throws(GStreamerError) -> StateChangeResult {
        // A pipeline brought down from a thread it may join (a deadlock): done on another thread.
        if state <= .ready, let pipeline = self as? Pipeline, pipeline.mustNotJoinHere {
            Pipeline.stopOnPoolThread(pointer, state: state)
            return .async
        }
        var result = gst_element_set_state(pointer, state.gstState)
        if result == GST_STATE_CHANGE_ASYNC, let timeout {
            result = gst_element_get_state(pointer, nil, nil, GstClockTime(timeout))
        }
        switch result {
        case GST_STATE_CHANGE_FAILURE:
            throw GStreamerError(
                kind: .stateChange, message: "\(name) failed to change state to \(state)", source: name)
        case GST_STATE_CHANGE_ASYNC: return .async
        case GST_STATE_CHANGE_NO_PREROLL: return .noPreroll
        default: return .success
        }
    }

    /// ``setState(_:timeout:)`` awaited: the change and the wait happen on a GLib pool thread, so any
    /// number of them can be awaited at once without starving Swift's cooperative pool.
    ///
    /// The corresponding C functions are `gst_element_set_state` and `gst_element_get_state`, called on
    /// another thread.
    ///
    /// - Parameters:
    ///   - state: The state to go to; the element passes through the states in between.
    ///   - timeout: How long to wait, in nanoseconds, for an asynchronous change; nil does not wait.
    /// - Returns: ``StateChangeResult/success``, ``StateChangeResult/async`` when the change is still going on
    ///   (after `timeout`), or ``StateChangeResult/noPreroll`` for a live source.
    /// - Throws: ``GStreamerError`` (state change) when the change fails (`GST_STATE_CHANGE_FAILURE`).
    @discardableResult
    public func changeState(to state: State, timeout: ClockTime? = nil) async throws(GStreamerError)
        -> StateChangeResult
    {
        try await BlockingCall.run { [self] () -> Result<StateChangeResult, GStreamerError> in
            Result { () throws(GStreamerError) in try setState(state, timeout: timeout) }
        }.get()
    }

    /// The current state, waiting up to `timeout` nanoseconds for a change in progress (0: no wait).
    /// With a timeout, it blocks the calling thread while it waits.
    ///
    /// The corresponding C function is `gst_element_get_state`.
    ///
    /// - Parameter timeout: How long to wait for a change in progress, in nanoseconds; 0 does not wait.
    /// - Returns: The current state, and the state a change in progress is going to (``State/voidPending``
    ///   when none is).
    public func state(timeout: ClockTime = 0) -> (current: State, pending: State) {
        var current = GST_STATE_VOID_PENDING
        var pending = GST_STATE_VOID_PENDING
        _ = gst_element_get_state(pointer, &current, &pending, GstClockTime(timeout))
        return (State(current), State(pending))
    }

    /// Locks or unlocks the element's state against its parent's state changes.
    ///
    /// The corresponding C function is `gst_element_set_locked_state`.
    ///
    /// - Parameter locked: True to keep the element in its state whatever its parent does, false to follow
    ///   the parent again.
    public func setLockedState(_ locked: Bool) {
        gst_element_set_locked_state(pointer, locked ? 1 : 0)
    }
}
