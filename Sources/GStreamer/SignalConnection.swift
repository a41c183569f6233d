import CGStreamer
import Synchronization

/// A handler connected to a signal (`Element.connect`). Disconnect it to stop the calls; it stays
/// connected, as in GObject, until then or until the object is gone. Disconnecting after the object
/// is gone, or twice, does nothing.
///
/// The corresponding C type is the handler id `g_signal_connect_closure` returns.
public final class SignalConnection: @unchecked Sendable {
    // `object` is a GWeakRef, whose get and clear GLib makes thread-safe; it is written only by
    // g_weak_ref_init (here) and g_weak_ref_clear (deinit). The handler id is immutable.
    private let object: UnsafeMutablePointer<GWeakRef>
    /// The handler id.
    public let id: UInt
    /// The signal, as connected (`"pad-added"`, `"notify::caps"`).
    public let signal: String

    init(instance: UnsafeMutableRawPointer, id: UInt, signal: String) {
        object = .allocate(capacity: 1)
        object.initialize(to: GWeakRef())
        g_weak_ref_init(object, instance)
        self.id = id
        self.signal = signal
    }

    deinit {
        g_weak_ref_clear(object)
        object.deallocate()
    }

    /// True while the handler is connected to an object that still exists.
    ///
    /// The corresponding C function is `g_signal_handler_is_connected`.
    public var isConnected: Bool {
        guard let instance = g_weak_ref_get(object) else { return false }
        defer { g_object_unref(instance) }
        return g_signal_handler_is_connected(instance, gulong(id)) != 0
    }

    /// Disconnects the handler: it is not called again, and its closure is released.
    ///
    /// The corresponding C function is `g_signal_handler_disconnect`.
    public func disconnect() {
        guard let instance = g_weak_ref_get(object) else { return }
        defer { g_object_unref(instance) }
        if g_signal_handler_is_connected(instance, gulong(id)) != 0 {
            g_signal_handler_disconnect(instance, gulong(id))
        }
    }
}
