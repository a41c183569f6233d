import CGStreamer
import CGStreamerShim

extension Element {
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
