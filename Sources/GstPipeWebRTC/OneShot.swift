import Synchronization

/// Something that happens once, fired from any thread, awaited by one task with a time limit.
package final class OneShot: Sendable {
    private struct State {
        var fired = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Not yet happened.
    package init() {}

    /// Marks it as happened, resuming the waiter if there is one; later calls do nothing. True for
    /// the call that marked it.
    @discardableResult
    package func fire() -> Bool {
        let (first, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            guard !state.fired else { return (false, nil) }
            state.fired = true
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        waiter?.resume()
        return first
    }

    /// Returns once it has happened, or after `timeout`.
    package func wait(timeout: Duration) async {
        let timer = Task { [self] in
            try? await Task.sleep(for: timeout)
            fire()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.fired { return true }
                state.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
