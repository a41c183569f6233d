#if GSTPIPE_TSAN
import Glibc

// Built only by `scripts/sanitize.sh thread` (-DGSTPIPE_TSAN). Synchronization.Mutex takes and releases
// its lock inside the Swift runtime (a futex), which is not built with ThreadSanitizer, so TSan sees no
// synchronization and reports every access a Mutex guards as a race. This lock is a pthread mutex,
// which TSan intercepts; under GSTPIPE_TSAN each module that uses `Mutex` names this one instead.

/// A pthread-mutex stand-in for Synchronization.Mutex with the subset of its API this package uses.
public final class ThreadSanitizerMutex<Value>: @unchecked Sendable {
    // Guarded by `lock`.
    private var value: Value
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init(_ initialValue: consuming sending Value) {
        value = initialValue
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    public func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(&value)
    }
}

typealias Mutex = ThreadSanitizerMutex
#endif
