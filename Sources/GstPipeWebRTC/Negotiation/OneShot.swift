import GstPipeSupport
import Synchronization

/// Something that happens once, fired from any thread, awaited with a time limit (by any number of
/// tasks: the end of a `webrtc://` run may be awaited more than once).
package final class OneShot: Sendable {
    private struct State {
        var fired = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Not yet happened.
    package init() {}

    /// Marks it as happened, resuming every waiter; later calls do nothing. True for
    /// the call that marked it.
    @discardableResult
    package func fire() -> Bool {
        let (first, waiters) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
            guard !state.fired else { return (false, []) }
            state.fired = true
            defer { state.waiters = [] }
            return (true, state.waiters)
        }
        waiters.forEach { $0.resume() }
        return first
    }

    /// Returns once it has happened, or after `timeout` (which marks it as happened, for every waiter).
    package func wait(timeout: Duration) async {
        let timer = Task { [self] in
            try? await Task.sleep(for: timeout)
            fire()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.fired { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
