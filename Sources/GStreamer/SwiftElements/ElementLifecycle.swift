import GstPipeSupport
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lifecycle of a Swift element's implementation: `initialize`, `start`, `stop` and `dispose`, each
/// once per transition and in order. The state changes drive it (see SwiftElement+StateChange.swift), and
/// so does the first data: a buffer reaching a non-live element in PAUSED starts it, as PLAYING would.
///
/// The same for every kind of element; each calls `ensureStarted` before handing data to the user's code.
struct ElementLifecycle: ~Copyable, Sendable {
    // Not private: Swift 6.3 fails to compile (a broken module) when another file lays out a
    // ~Copyable struct whose stored property has a private type.
    struct State {
        var initialized = false
        var started = false
        /// False between a stop by PLAYING → PAUSED and the next PAUSED → PLAYING: a render already
        /// in flight must not start the element again while it pauses.
        var dataMayStart = true
        /// A stop is under way: buffers must not wait to start the element again.
        var stopping = false
    }
    private let state = Locked(State())
    /// Held while the user's lifecycle code runs, which `state` never is: a buffer checks and claims
    /// the start under `state` (briefly), and never waits for a stop that may be waiting for it.
    private let transitions = Locked(())
    /// Started and not stopping: the streaming threads' check, without a lock.
    private let running = Atomic<Bool>(false)

    /// Started and not stopping.
    var isRunning: Bool { running.load(ordering: .acquiring) }

    /// NULL → READY: the implementation's `initialize`.
    ///
    /// - Returns: nil when it succeeded, else the description of what it threw.
    func initialize(_ implementation: any ElementImplementation) -> String? {
        transitions.withLock { _ in
            do {
                try implementation.initialize()
                state.withLock { $0.initialized = true }
                return nil
            } catch {
                return "\(error)"
            }
        }
    }

    /// Starts the implementation if it is initialized and not started (`byData`: for a buffer, which
    /// may not start it again while it pauses; else for PAUSED → PLAYING).
    func ensureStarted(byData: Bool = true, _ implementation: any ElementImplementation) {
        if byData && running.load(ordering: .acquiring) { return }
        while true {
            if byData && state.withLock({ !$0.dataMayStart || $0.stopping }) { return }
            // A buffer takes the transition lock only when it is free: what holds it may be a stop
            // waiting for this very thread. Another start in progress is waited out.
            let done: Bool? =
                byData
                ? transitions.withLockIfAvailable { _ in startIfClaimed(byData: true, implementation) }
                : transitions.withLock { _ in startIfClaimed(byData: false, implementation) }
            if done != nil { return }
            usleep(100)
        }
    }

    private func startIfClaimed(byData: Bool, _ implementation: any ElementImplementation) -> Bool {
        let claimed = state.withLock { state -> Bool in
            if !byData { state.dataMayStart = true }
            guard state.initialized && !state.started && state.dataMayStart else { return false }
            state.started = true
            return true
        }
        if claimed {
            implementation.start()
            running.store(true, ordering: .releasing)
        }
        return claimed
    }

    /// Stops the implementation if it started (`pausing`: PLAYING → PAUSED, after which only PLAYING
    /// starts it again, not data).
    func stopIfStarted(pausing: Bool = false, _ implementation: any ElementImplementation) {
        state.withLock { state in
            if pausing { state.dataMayStart = false }
            state.stopping = true
        }
        defer { state.withLock { $0.stopping = false } }
        transitions.withLock { _ in
            let claimed = state.withLock { state -> Bool in
                guard state.started else { return false }
                state.started = false
                return true
            }
            guard claimed else { return }
            running.store(false, ordering: .releasing)
            implementation.stop()
        }
    }

    /// READY → NULL: the implementation's `dispose`, once per successful `initialize`.
    func dispose(_ implementation: any ElementImplementation) {
        transitions.withLock { _ in
            let initialized = state.withLock { state in
                defer {
                    state.dataMayStart = true
                    state.initialized = false
                }
                return state.initialized
            }
            if initialized { implementation.dispose() }
        }
    }
}
