import CGStreamer

/// A weak reference to a GObject (a signal's or a probe's owner), for handles that must not keep it
/// alive and must do nothing once it is gone.
///
/// The corresponding C type is `GWeakRef`.
final class WeakObject: @unchecked Sendable {
    // A GWeakRef, whose get and clear GLib makes thread-safe; written only by g_weak_ref_init (here)
    // and g_weak_ref_clear (deinit).
    private let reference: UnsafeMutablePointer<GWeakRef>

    init(_ instance: UnsafeMutableRawPointer) {
        reference = .allocate(capacity: 1)
        reference.initialize(to: GWeakRef())
        g_weak_ref_init(reference, instance)
    }

    deinit {
        g_weak_ref_clear(reference)
        reference.deallocate()
    }

    /// Runs `body` with the object, holding a reference meanwhile; nil when it is gone.
    func withObject<T>(_ body: (UnsafeMutableRawPointer) -> T) -> T? {
        guard let instance = g_weak_ref_get(reference) else { return nil }
        defer { g_object_unref(instance) }
        return body(instance)
    }
}
