import CGStreamer
import GstPipeSupport
import Synchronization

/// Runs GStreamer calls that wait (pulling a sample, a state change, bringing a pipeline to NULL) on
/// threads of GLib's shared thread pool, never on Swift's cooperative pool: that pool has one thread per
/// core (two on a 2-core machine), and a few tasks blocked in such calls at once would starve every
/// other task, including the one that would have unblocked them.
///
/// The GLib pool grows as needed (no upper bound: each waiting call holds a thread) and keeps idle
/// threads for reuse, so a call costs a queue push, not a thread start.
enum BlockingCall {
    /// One call and its result hand-over, retained through the pool's queue.
    private final class Job: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    // GThreadPool is thread-safe (its queue has its own lock); made once, never freed.
    nonisolated(unsafe) private static let pool: OpaquePointer = {
        let pool = g_thread_pool_new(
            { data, _ in
                guard let data else { return }
                // GLib's queue locks are futexes that ThreadSanitizer does not see: say what they order.
                HandOver.received(data)
                Unmanaged<Job>.fromOpaque(data).takeRetainedValue().body()
            }, nil, -1, 0, nil)
        return OpaquePointer(pool!)
    }()

    /// Runs `body` on a pool thread and returns at once.
    static func start(_ body: @escaping @Sendable () -> Void) {
        let data = Unmanaged.passRetained(Job(body)).toOpaque()
        HandOver.published(data)
        g_thread_pool_push(UnsafeMutablePointer<GThreadPool>(pool), data, nil)
    }

    /// A body called once, then let go: what it captures is released on the pool thread before the waiting
    /// task resumes, not some time after (a pipeline captured last would otherwise be released, and its
    /// elements finalized, after its caller moved on).
    private final class Once<Result>: Sendable {
        private let body: Locked<(@Sendable () -> Result)?>
        init(_ body: @escaping @Sendable () -> Result) { self.body = Locked(body) }

        func callAndRelease() -> Result {
            let body = self.body.withLock { body in
                defer { body = nil }
                return body!
            }
            return body()
        }
    }

    /// Runs `body` on a pool thread; the calling task waits for its result without holding a thread.
    /// Everything `body` captures is released before the task resumes.
    static func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        // ThreadSanitizer does not see a continuation's resume order the result before its use (the Swift
        // runtime's atomics are not instrumented): the token's address says it.
        let token = Job {}
        let once = Once(body)
        let result = await withCheckedContinuation { continuation in
            start {
                let result = once.callAndRelease()
                HandOver.published(Unmanaged.passUnretained(token).toOpaque())
                continuation.resume(returning: result)
            }
        }
        HandOver.received(Unmanaged.passUnretained(token).toOpaque())
        return result
    }

    /// Whether the task awaiting a ``poll(timeout:slice:_:)`` was cancelled.
    private final class Cancelled: Sendable {
        let flag = Atomic(false)
    }

    /// Waits for a value on a pool thread, one slice at a time, so that the wait can be cancelled: GStreamer's
    /// waits (an appsink's pull) cannot be interrupted, but a wait of at most `slice` ends soon enough. The
    /// calling task returns nil within one slice of being cancelled, and the pool thread is free again then
    /// (a waiter never keeps a thread past its cancellation). A value that comes during the last slice is
    /// returned, not lost.
    ///
    /// - Parameters:
    ///   - timeout: The longest to wait, in nanoseconds; nil waits until a value comes or the wait ends.
    ///   - slice: The longest one `attempt` waits, in nanoseconds.
    ///   - attempt: Waits up to the nanoseconds it is given for a value. Nil returned well before then means
    ///     the wait is over (end of stream, stopped), and so does nil with a wait of 0.
    /// - Returns: The value, or nil when the wait ended, timed out or was cancelled.
    static func poll<Value: Sendable>(
        timeout: UInt64?, slice: UInt64 = 20_000_000, _ attempt: @escaping @Sendable (_ wait: UInt64) -> Value?
    ) async -> Value? {
        let cancelled = Cancelled()
        return await withTaskCancellationHandler {
            await run { () -> Value? in
                let clock = ContinuousClock()
                let start = clock.now
                while true {
                    // A wait whose turn on the pool came after its task was cancelled does not wait at all.
                    if cancelled.flag.load(ordering: .acquiring) { return nil }
                    let elapsed = nanoseconds(start.duration(to: clock.now))
                    let remaining = timeout.map { $0 > elapsed ? $0 - elapsed : 0 } ?? .max
                    let wait = min(slice, remaining)
                    let began = clock.now
                    if let value = attempt(wait) { return value }
                    // Back long before its wait was up: the wait is over, whatever the timeout.
                    if wait == 0 || nanoseconds(began.duration(to: clock.now)) < wait / 2 { return nil }
                    if remaining <= wait || cancelled.flag.load(ordering: .acquiring) { return nil }
                }
            }
        } onCancel: {
            cancelled.flag.store(true, ordering: .releasing)
        }
    }
}
