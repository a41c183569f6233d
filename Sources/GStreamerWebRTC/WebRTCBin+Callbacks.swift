import GStreamer

// webrtcbin's signals and state changes as typed callbacks. Each runs on a thread of webrtcbin's
// (never on Swift's cooperative pool); a handler that needs to await starts a Task. Each returns the
// connection, to disconnect it.

extension WebRTCBin {
    /// Calls `handler` when webrtcbin needs a (new) offer: once its sink pads are linked and the
    /// pipeline starts, and whenever the transceivers change.
    ///
    /// The corresponding C signal is `on-negotiation-needed`.
    ///
    /// - Parameter handler: Starts the negotiation (usually a Task calling ``createOffer(options:)``).
    /// - Returns: The connection.
    @discardableResult
    public func onNegotiationNeeded(_ handler: @escaping @Sendable () -> Void) -> SignalConnection {
        // webrtcbin's own signal: connecting cannot fail.
        try! element.connect("on-negotiation-needed") { _ in handler() }
    }

    /// Calls `handler` with each local ICE candidate as it is gathered, to send to the peer.
    ///
    /// The corresponding C signal is `on-ice-candidate`.
    ///
    /// - Parameter handler: Gets the m-line index and the candidate line (`candidate:...`).
    /// - Returns: The connection.
    @discardableResult
    public func onICECandidate(
        _ handler: @escaping @Sendable (_ mediaLineIndex: UInt, _ candidate: String) -> Void
    ) -> SignalConnection {
        try! element.connect("on-ice-candidate") { arguments in
            guard arguments.count == 2, let line = arguments[0].uint, let candidate = arguments[1].string else {
                return
            }
            handler(line, candidate)
        }
    }

    /// Calls `handler` with each pad webrtcbin adds: a source pad per incoming stream, carrying RTP
    /// to depayload and decode.
    ///
    /// The corresponding C signal is `pad-added`.
    ///
    /// - Parameter handler: Gets the new pad, on a streaming thread; link it there.
    /// - Returns: The connection.
    @discardableResult
    public func onPadAdded(_ handler: @escaping @Sendable (Pad) -> Void) -> SignalConnection {
        element.onPadAdded(handler)
    }

    /// Calls `handler` with each new ICE gathering state.
    ///
    /// The corresponding C signal is `notify::ice-gathering-state`.
    ///
    /// - Parameter handler: Gets the new state.
    /// - Returns: The connection.
    @discardableResult
    public func onICEGatheringStateChanged(
        _ handler: @escaping @Sendable (ICEGatheringState) -> Void
    ) -> SignalConnection {
        onStateChanged("ice-gathering-state", handler)
    }

    /// Calls `handler` with each new ICE connection state.
    ///
    /// The corresponding C signal is `notify::ice-connection-state`.
    ///
    /// - Parameter handler: Gets the new state.
    /// - Returns: The connection.
    @discardableResult
    public func onICEConnectionStateChanged(
        _ handler: @escaping @Sendable (ICEConnectionState) -> Void
    ) -> SignalConnection {
        onStateChanged("ice-connection-state", handler)
    }

    /// Calls `handler` with each new state of the peer connection.
    ///
    /// The corresponding C signal is `notify::connection-state`.
    ///
    /// - Parameter handler: Gets the new state.
    /// - Returns: The connection.
    @discardableResult
    public func onConnectionStateChanged(
        _ handler: @escaping @Sendable (PeerConnectionState) -> Void
    ) -> SignalConnection {
        onStateChanged("connection-state", handler)
    }

    private func onStateChanged<State: RawRepresentable<String> & Sendable>(
        _ property: String, _ handler: @escaping @Sendable (State) -> Void
    ) -> SignalConnection {
        // A property webrtcbin has: onNotify cannot fail. It reads the new value without holding the
        // element, so the connection does not keep webrtcbin alive.
        try! element.onNotify(property) { value in
            if let nick = value.stringValue, let state = State(rawValue: nick) { handler(state) }
        }
    }
}
