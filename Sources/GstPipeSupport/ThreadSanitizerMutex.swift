#if GSTPIPE_TSAN
import Glibc

// Built only under -DGSTPIPE_TSAN (Locked.swift says why). It keeps to Synchronization.Mutex's API as
// this package uses it, noncopyable values included (the bus keeps a ~Copyable queue behind one), so
// that no module needs an #if of its own. A class rather than a ~Copyable struct: a pthread mutex must
// not move once initialized, and a class instance never moves.
//
// The value lives in memory of its own, not in a stored property: `body(&property)` on a class is a
// dynamically enforced access, which TSan tracks as a write, and for a zero-sized value (`Mutex(())`,
// a lock guarding code rather than data) it lands on the object's first word, which every thread
// reads before it takes the lock; TSan reported that as a race between withLockIfAvailable and withLock.

/// A pthread-mutex stand-in for Synchronization.Mutex that ThreadSanitizer can see (`-DGSTPIPE_TSAN`).
package final class ThreadSanitizerMutex<Value: ~Copyable>: @unchecked Sendable {
    // Guarded by `lock`: read and written only inside withLock and withLockIfAvailable.
    private let value = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// A mutex guarding `initialValue`.
    package init(_ initialValue: consuming sending Value) {
        value.initialize(to: initialValue)
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` on the value with the lock held, waiting for the lock.
    package func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(&value.pointee)
    }

    /// Runs `body` on the value with the lock held if the lock is free now; nil, without running it, if not.
    package func withLockIfAvailable<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result? {
        guard pthread_mutex_trylock(lock) == 0 else { return nil }
        defer { pthread_mutex_unlock(lock) }
        return try body(&value.pointee)
    }
}
#endif
