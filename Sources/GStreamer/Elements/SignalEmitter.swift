import CGStreamer
import CGStreamerShim

/// A GStreamer object whose GObject signals are connected to and emitted by name: ``Element`` (with
/// ``Bin`` and ``Pipeline``) and ``Pad``. The methods are written once, here, for every such object, as
/// gstreamer-rs gives them to every object through `ObjectExt`.
///
/// The corresponding C type is `GObject`, whose signals these are.
public protocol SignalEmitter: AnyObject {
    /// The C type of the object (`GstElement`, `GstPad`), a GObject.
    associatedtype CObject

    /// The object's name, which errors about its signals give.
    var name: String { get }

    /// Calls `body` with the underlying GObject, for C interop; the signal methods reach the object
    /// through it.
    ///
    /// - Parameter body: Gets the pointer, valid only until it returns; no reference is added for it.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    func withUnsafePointer<Result, Failure: Error>(
        _ body: (UnsafeMutablePointer<CObject>) throws(Failure) -> Result
    ) throws(Failure) -> Result
}

extension SignalEmitter {
    /// Connects `handler` to the signal `signal` (`"pad-added"`, `"need-data"`, `"notify::caps"`):
    /// it gets the signal's arguments after the object, as typed values (pad-added: `.pad`,
    /// need-data: `.uint`). Runs on the thread that emits the signal, often a streaming thread; the
    /// handler is kept until the connection is disconnected or the object is gone. Throws when the
    /// object has no such signal.
    ///
    /// The corresponding C functions are `g_closure_new_simple` (with a marshaller converting each
    /// GValue) and `g_signal_connect_closure_by_id`.
    ///
    /// - Parameters:
    ///   - signal: The signal's name, with a detail after `::` where it takes one.
    ///   - after: True to run after the signal's default handler (`G_CONNECT_AFTER`).
    ///   - handler: Gets the arguments after the object, in order.
    /// - Returns: The connection; keeping it is not needed for the handler to run, only to disconnect.
    /// - Throws: ``GStreamerError`` (invalid argument) when the object has no such signal.
    @discardableResult
    public func connect(
        _ signal: String, after: Bool = false, _ handler: @escaping @Sendable ([SignalValue]) -> Void
    ) throws(GStreamerError) -> SignalConnection {
        try connectReturning(signal, after: after) { arguments in
            handler(arguments)
            return .void
        }
    }

    /// Connects `handler` to a signal that returns a value (`"autoplug-continue"` returns `.bool`):
    /// what the handler returns goes back to the emitter. A value that does not fit the signal's
    /// return type leaves GLib's default (false, 0, NULL).
    ///
    /// The corresponding C function is `g_signal_connect_closure_by_id`.
    ///
    /// - Parameters:
    ///   - signal: The signal's name.
    ///   - after: True to run after the signal's default handler.
    ///   - handler: Gets the arguments after the object, and returns the signal's value.
    /// - Returns: The connection, to disconnect it.
    /// - Throws: ``GStreamerError`` (invalid argument) when the object has no such signal.
    @discardableResult
    public func connectReturning(
        _ signal: String, after: Bool = false, _ handler: @escaping SignalHandler
    ) throws(GStreamerError) -> SignalConnection {
        let owner = name
        return try withUnsafePointer { object throws(GStreamerError) in
            try Signals.connect(UnsafeMutableRawPointer(object), owner: owner, signal, after: after, handler)
        }
    }

    /// Emits the signal `signal` with `arguments`, returning what the handlers (for an action signal,
    /// the object itself) return: `.void` when the signal returns nothing. Action signals are how an
    /// application drives some elements (appsink's `"pull-sample"` returns a `.sample`; appsrc's
    /// `"push-buffer"` takes a `.buffer` and returns a flow return). Throws when there is no such
    /// signal or the arguments do not fit it.
    ///
    /// The corresponding C function is `g_signal_emitv`.
    ///
    /// - Parameters:
    ///   - signal: The signal's name.
    ///   - arguments: The arguments after the object, in the signal's order.
    /// - Returns: The signal's return value, or ``SignalValue/void``.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no such signal, or the arguments do not
    ///   match its parameters in number or type.
    @discardableResult
    public func emit(_ signal: String, _ arguments: SignalValue...) throws(GStreamerError) -> SignalValue {
        try emit(signal, arguments: arguments)
    }

    /// ``emit(_:_:)`` with the arguments as an array, for code that builds them.
    ///
    /// The corresponding C function is `g_signal_emitv`.
    ///
    /// - Parameters:
    ///   - signal: The signal's name.
    ///   - arguments: The arguments after the object, in the signal's order.
    /// - Returns: The signal's return value, or ``SignalValue/void``.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no such signal, or the arguments do not
    ///   match its parameters in number or type.
    @discardableResult
    public func emit(_ signal: String, arguments: [SignalValue]) throws(GStreamerError) -> SignalValue {
        let owner = name
        return try withUnsafePointer { object throws(GStreamerError) in
            try Signals.emit(UnsafeMutableRawPointer(object), owner: owner, signal, arguments)
        }
    }

    /// True when a handler is connected to the signal (such as `"pad-added"`), by anyone.
    ///
    /// The corresponding C function is `g_signal_has_handler_pending`.
    ///
    /// - Parameter name: The signal's name, with a detail after `::` where it takes one.
    /// - Returns: Whether any handler is connected; false also for an unknown signal.
    public func hasHandlers(forSignal name: String) -> Bool {
        withUnsafePointer { object in Signals.hasHandlers(UnsafeMutableRawPointer(object), name) }
    }
}

extension Element: SignalEmitter {}
extension Pad: SignalEmitter {}
