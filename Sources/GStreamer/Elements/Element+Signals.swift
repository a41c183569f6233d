import CGStreamer
import CGStreamerShim

extension Element {
    /// Connects `handler` to the signal `signal` (`"pad-added"`, `"need-data"`, `"notify::caps"`):
    /// it gets the signal's arguments after the element, as typed values (pad-added: `.pad`,
    /// need-data: `.uint`). Runs on the thread that emits the signal, often a streaming thread; the
    /// handler is kept until the connection is disconnected or the element is gone. Throws when the
    /// element has no such signal.
    ///
    /// The corresponding C functions are `g_closure_new_simple` (with a marshaller converting each
    /// GValue) and `g_signal_connect_closure_by_id`.
    ///
    /// - Parameters:
    ///   - signal: The signal's name, with a detail after `::` where it takes one.
    ///   - after: True to run after the signal's default handler (`G_CONNECT_AFTER`).
    ///   - handler: Gets the arguments after the element, in order.
    /// - Returns: The connection; keeping it is not needed for the handler to run, only to disconnect.
    /// - Throws: ``GStreamerError`` (invalid argument) when the element has no such signal.
    @discardableResult
    public func connect(
        _ signal: String, after: Bool = false, _ handler: @escaping @Sendable ([SignalValue]) -> Void
    ) throws(GStreamerError) -> SignalConnection {
        try Signals.connect(UnsafeMutableRawPointer(pointer), owner: name, signal, after: after, returningNothing: handler)
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
    ///   - handler: Gets the arguments after the element, and returns the signal's value.
    /// - Returns: The connection, to disconnect it.
    /// - Throws: ``GStreamerError`` (invalid argument) when the element has no such signal.
    @discardableResult
    public func connectReturning(
        _ signal: String, after: Bool = false, _ handler: @escaping SignalHandler
    ) throws(GStreamerError) -> SignalConnection {
        try Signals.connect(UnsafeMutableRawPointer(pointer), owner: name, signal, after: after, handler)
    }

    /// Emits the signal `signal` with `arguments`, returning what the handlers (for an action signal,
    /// the element itself) return: `.void` when the signal returns nothing. Action signals are how an
    /// application drives some elements (appsink's `"pull-sample"` returns a `.sample`; appsrc's
    /// `"push-buffer"` takes a `.buffer` and returns a flow return). Throws when there is no such
    /// signal or the arguments do not fit it.
    ///
    /// The corresponding C function is `g_signal_emitv`.
    ///
    /// - Parameters:
    ///   - signal: The signal's name.
    ///   - arguments: The arguments after the element, in the signal's order.
    /// - Returns: The signal's return value, or ``SignalValue/void``.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no such signal, or the arguments do not
    ///   match its parameters in number or type.
    @discardableResult
    public func emit(_ signal: String, _ arguments: SignalValue...) throws(GStreamerError) -> SignalValue {
        try Signals.emit(UnsafeMutableRawPointer(pointer), owner: name, signal, arguments)
    }

    /// Calls `handler` with each pad the element adds (a demuxer's or decodebin's streams as they
    /// appear), on the thread that adds it.
    ///
    /// The corresponding C function is `g_signal_connect_closure_by_id` for "pad-added".
    ///
    /// - Parameter handler: Gets the new pad, often on a streaming thread; link it there.
    /// - Returns: The connection, to disconnect it.
    @discardableResult
    public func onPadAdded(_ handler: @escaping @Sendable (Pad) -> Void) -> SignalConnection {
        // GstElement's own signal: connecting cannot fail.
        try! connect("pad-added") { arguments in
            if let pad = arguments.first?.pad { handler(pad) }
        }
    }

    /// Calls `handler` with each pad the element removes.
    ///
    /// The corresponding C function is `g_signal_connect_closure_by_id` for "pad-removed".
    ///
    /// - Parameter handler: Gets the pad being removed.
    /// - Returns: The connection, to disconnect it.
    @discardableResult
    public func onPadRemoved(_ handler: @escaping @Sendable (Pad) -> Void) -> SignalConnection {
        try! connect("pad-removed") { arguments in
            if let pad = arguments.first?.pad { handler(pad) }
        }
    }

    /// Calls `handler` with the new value of `property` each time it changes, on the thread that
    /// changes it. Throws when there is no such property.
    ///
    /// The corresponding C function is `g_signal_connect_closure_by_id` for "notify::property".
    ///
    /// - Parameters:
    ///   - property: The property's name.
    ///   - handler: Gets the property's new value.
    /// - Returns: The connection, to disconnect it.
    /// - Throws: ``GStreamerError`` (invalid argument) when the element has no such property.
    @discardableResult
    public func onNotify(
        _ property: String, _ handler: @escaping @Sendable (PropertyValue) -> Void
    ) throws(GStreamerError) -> SignalConnection {
        guard CGStreamerShim_object_find_property(pointer, property) != nil else {
            throw GStreamerError(
                kind: .invalidArgument, message: "no property \"\(property)\" in element \"\(name)\"", source: name)
        }
        // The handler holds the element without a reference, or the element would keep itself alive;
        // GLib calls it only while the element exists.
        let address = UInt(bitPattern: pointer)
        return try connect("notify::\(property)") { _ in
            let wrapper = Element.wrap(UnsafeMutablePointer(bitPattern: address)!, owned: false)
            if let value = try? wrapper.get(property) { handler(value) }
        }
    }

    /// True when a handler is connected to the signal (such as `"pad-added"`), by anyone.
    ///
    /// The corresponding C function is `g_signal_has_handler_pending`.
    ///
    /// - Parameter name: The signal's name, with a detail after `::` where it takes one.
    /// - Returns: Whether any handler is connected; false also for an unknown signal.
    public func hasHandlers(forSignal name: String) -> Bool {
        var id: guint = 0
        var detail: GQuark = 0
        guard g_signal_parse_name(name, CGStreamerShim_object_type(pointer), &id, &detail, 0) != 0 else { return false }
        return g_signal_has_handler_pending(UnsafeMutableRawPointer(pointer), id, detail, 0) != 0
    }
}

extension Bin {
    /// Calls `handler` with each element added to the bin (not to bins inside it), on the thread that
    /// adds it.
    ///
    /// The corresponding C function is `g_signal_connect_closure_by_id` for "element-added".
    ///
    /// - Parameter handler: Gets the element just added.
    /// - Returns: The connection, to disconnect it.
    @discardableResult
    public func onElementAdded(_ handler: @escaping @Sendable (Element) -> Void) -> SignalConnection {
        try! connect("element-added") { arguments in
            if let element = arguments.first?.element { handler(element) }
        }
    }
}

extension Pad {
    /// Connects `handler` to the pad's signal `signal` (`"notify::caps"`, `"linked"`, `"unlinked"`).
    ///
    /// The corresponding C function is `g_signal_connect_closure_by_id`.
    ///
    /// - Parameters:
    ///   - signal: The signal's name, with a detail after `::` where it takes one.
    ///   - after: True to run after the signal's default handler.
    ///   - handler: Gets the arguments after the pad, on the thread that emits the signal.
    /// - Returns: The connection, to disconnect it.
    /// - Throws: ``GStreamerError`` (invalid argument) when the pad has no such signal.
    @discardableResult
    public func connect(
        _ signal: String, after: Bool = false, _ handler: @escaping @Sendable ([SignalValue]) -> Void
    ) throws(GStreamerError) -> SignalConnection {
        try Signals.connect(UnsafeMutableRawPointer(pointer), owner: name, signal, after: after, returningNothing: handler)
    }

    /// Emits the pad's signal `signal` with `arguments`.
    ///
    /// The corresponding C function is `g_signal_emitv`.
    ///
    /// - Parameters:
    ///   - signal: The signal's name.
    ///   - arguments: The arguments after the pad, in the signal's order.
    /// - Returns: The signal's return value, or ``SignalValue/void``.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no such signal, or the arguments do not
    ///   fit it.
    @discardableResult
    public func emit(_ signal: String, _ arguments: SignalValue...) throws(GStreamerError) -> SignalValue {
        try Signals.emit(UnsafeMutableRawPointer(pointer), owner: name, signal, arguments)
    }
}
