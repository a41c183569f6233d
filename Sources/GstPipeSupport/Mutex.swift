// The lock every gstpipe module guards its shared state with. Each module names it `Mutex` in one line
// (`typealias Mutex = GstPipeSupport.Mutex`, in its Mutex.swift), which shadows Synchronization's, so
// code reads the same in both builds:
//
// - normally it is Synchronization.Mutex itself;
// - under `-DGSTPIPE_TSAN` (scripts/sanitize.sh thread) it is ThreadSanitizerMutex below. Synchronization's
//   Mutex takes and releases its lock with a futex inside the Swift runtime, which is not built with
//   ThreadSanitizer, so TSan sees no synchronization and reports everything a Mutex guards as a race.
//   A pthread mutex is intercepted by TSan, which then sees the ordering the lock gives.
//
// `package` access: the modules of this package share it; it is not part of any library's public API.

#if GSTPIPE_TSAN
package typealias Mutex = ThreadSanitizerMutex
#else
import Synchronization

package typealias Mutex<Value: ~Copyable> = Synchronization.Mutex<Value>
#endif
