import CGStreamer
import GstPipeSupport

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

    /// Runs `body` on a pool thread; the calling task waits for its result without holding a thread.
    static func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        // ThreadSanitizer does not see a continuation's resume order the result before its use (the Swift
        // runtime's atomics are not instrumented): the token's address says it.
        let token = Job {}
        let result = await withCheckedContinuation { continuation in
            start {
                let result = body()
                HandOver.published(Unmanaged.passUnretained(token).toOpaque())
                continuation.resume(returning: result)
            }
        }
        HandOver.received(Unmanaged.passUnretained(token).toOpaque())
        return result
    }
}
