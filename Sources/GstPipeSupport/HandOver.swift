#if GSTPIPE_TSAN
import Glibc
#endif

// What ThreadSanitizer cannot see by itself: an ordering between two threads that GLib or GStreamer
// gives. GLib's mutexes and conditions are futexes and its reference counts atomics, all in libraries
// not built with TSan, so when our code writes something on one thread, hands it to GStreamer (a
// callback's user data, a buffer pushed into a queue) and reads it on a streaming thread, TSan sees
// two unordered accesses and reports a race that is not there. Telling it about the hand-over, at the
// address handed over, keeps every other access checked (a suppression would silence the whole
// function). Without -DGSTPIPE_TSAN both calls are empty.

/// Marks a hand-over between threads that GLib or GStreamer orders, for ThreadSanitizer.
package enum HandOver {
    /// Before handing `address` over: what this thread did so far happens before the `received` of
    /// the same address on the receiving thread.
    ///
    /// The corresponding TSan call is `__tsan_release`.
    @inlinable
    package static func published(_ address: UnsafeRawPointer) {
        #if GSTPIPE_TSAN
        ThreadSanitizerAnnotations.release?(address)
        #endif
    }

    /// On receiving `address`: what the publishing thread did before `published` happens before what
    /// this thread does now.
    ///
    /// The corresponding TSan call is `__tsan_acquire`.
    @inlinable
    package static func received(_ address: UnsafeRawPointer) {
        #if GSTPIPE_TSAN
        ThreadSanitizerAnnotations.acquire?(address)
        #endif
    }
}

#if GSTPIPE_TSAN
/// TSan's annotation functions, found in the running process (the test binary links the TSan runtime,
/// which exports them); looked up as the Swift runtime looks up its own, so no module declares them.
@usableFromInline
enum ThreadSanitizerAnnotations {
    @usableFromInline static let acquire: (@convention(c) (UnsafeRawPointer?) -> Void)? = lookUp("__tsan_acquire")
    @usableFromInline static let release: (@convention(c) (UnsafeRawPointer?) -> Void)? = lookUp("__tsan_release")

    private static func lookUp(_ name: String) -> (@convention(c) (UnsafeRawPointer?) -> Void)? {
        dlsym(nil, name).map { unsafeBitCast($0, to: (@convention(c) (UnsafeRawPointer?) -> Void).self) }
    }
}
#endif
