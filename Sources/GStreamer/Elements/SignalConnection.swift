import CGStreamer

/// A handler connected to a signal (`Element.connect`). Disconnect it to stop the calls; it stays
/// connected, as in GObject, until then or until the object is gone. Disconnecting after the object
/// is gone, or twice, does nothing.
///
/// The corresponding C type is the handler id `g_signal_connect_closure` returns.
public final class SignalConnection: Sendable {
    private let object: WeakObject
    /// The handler id.
    public let id: UInt
    /// The signal, as connected (`"pad-added"`, `"notify::caps"`).
    public let signal: String

    init(instance: UnsafeMutableRawPointer, id: UInt, signal: String) {
        object = WeakObject(instance)
        self.id = id
        self.signal = signal
    }

    /// True while the handler is connected to an object that still exists.
    ///
    /// The corresponding C function is `g_signal_handler_is_connected`.
    public var isConnected: Bool {
        object.withObject { g_signal_handler_is_connected($0, gulong(id)) != 0 } ?? false
    }

    /// Disconnects the handler: it is not called again, and its closure is released.
    ///
    /// The corresponding C function is `g_signal_handler_disconnect`.
    public func disconnect() {
        object.withObject { instance in
            if g_signal_handler_is_connected(instance, gulong(id)) != 0 {
                g_signal_handler_disconnect(instance, gulong(id))
            }
        }
    }
}
