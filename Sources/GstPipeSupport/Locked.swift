// `Locked`, the lock every gstpipe module guards its shared state with: `Locked(State())`, then
// `state.withLock { ... }`. Its own name, rather than `Mutex`, so that it never meets Synchronization's
// `Mutex` in a file that imports both, and no module needs an alias of its own:
//
// - normally it is Synchronization.Mutex itself;
// - under `-DGSTPIPE_TSAN` (scripts/sanitize.sh thread) it is ThreadSanitizerMutex. Synchronization's
//   Mutex takes and releases its lock with a futex inside the Swift runtime, which is not built with
//   ThreadSanitizer, so TSan sees no synchronization and reports everything such a lock guards as a race.
//   A pthread mutex is intercepted by TSan, which then sees the ordering the lock gives.
//
// `package` access: the modules of this package share it; it is not part of any library's public API.

#if GSTPIPE_TSAN
package typealias Locked = ThreadSanitizerMutex
#else
import Synchronization

package typealias Locked<Value: ~Copyable> = Synchronization.Mutex<Value>
#endif
