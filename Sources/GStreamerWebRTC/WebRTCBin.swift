import GStreamer

/// GStreamer's `webrtcbin` element, typed: the offer and answer as `async` calls, ICE candidates in
/// and out, the negotiation, state and pad-added callbacks, statistics, and loopback for the ICE
/// agent. Built on the core's signals with `Value` arguments and `Promise`, as
/// gstreamer-rs's gstreamer-webrtc crate is built on glib's.
///
/// Each `async` call emits the action signal with a promise and suspends until webrtcbin replies on
/// its own thread: no thread of Swift's cooperative pool waits. The callbacks run on webrtcbin's
/// threads.
///
/// ```swift
/// let offerer = try WebRTCBin(pipeline.element(named: "send")!)
/// offerer.onNegotiationNeeded {
///     Task {
///         let offer = try await offerer.createOffer()
///         try await offerer.setLocalDescription(offer)
///         // send offer.sdp to the other peer, which answers
///     }
/// }
/// offerer.onICECandidate { mediaLine, candidate in /* send it to the other peer */ }
/// ```
///
/// The corresponding C type is `GstWebRTCBin`, the element `webrtcbin` (gst-plugins-bad).
public final class WebRTCBin: Sendable {
    /// The webrtcbin element, to add to a pipeline, link and set properties on.
    public let element: Element

    /// A new webrtcbin.
    ///
    /// The corresponding C function is `gst_element_factory_make("webrtcbin", name)`.
    ///
    /// - Parameter name: The element's name; nil lets GStreamer number one.
    /// - Throws: `GStreamerError` (invalid argument, naming the package) when webrtcbin is
    ///   not installed.
    public convenience init(name: String? = nil) throws(GStreamerError) {
        try self.init(try Element(factory: "webrtcbin", name: name))
    }

    /// Wraps an existing webrtcbin, such as one in a launched pipeline.
    ///
    /// - Parameter element: A webrtcbin element.
    /// - Throws: `GStreamerError` (invalid argument) when the element is no webrtcbin.
    public init(_ element: Element) throws(GStreamerError) {
        guard element.factoryName == "webrtcbin" else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "\(element.name) is a \(element.factoryName ?? "element without factory"), not a webrtcbin",
                source: element.name)
        }
        self.element = element
    }

    // MARK: Offer and answer

    /// Makes an offer for the transceivers webrtcbin has (one per linked sink pad or added
    /// transceiver).
    ///
    /// The corresponding C signal is `create-offer`.
    ///
    /// - Parameter options: webrtcbin's offer options, or nil for none.
    /// - Returns: The offer; set it with ``setLocalDescription(_:)`` and send its SDP to the peer.
    /// - Throws: `GStreamerError` when webrtcbin cannot make one (its reason), or the
    ///   promise is interrupted (the task is cancelled, the element shuts down).
    public func createOffer(options: Structure? = nil) async throws(GStreamerError) -> SessionDescription {
        try await makeDescription("create-offer", field: "offer", options: options)
    }

    /// Makes an answer to the remote offer set with ``setRemoteDescription(_:)``.
    ///
    /// The corresponding C signal is `create-answer`.
    ///
    /// - Parameter options: webrtcbin's answer options, or nil for none.
    /// - Returns: The answer; set it with ``setLocalDescription(_:)`` and send its SDP to the peer.
    /// - Throws: `GStreamerError` when webrtcbin cannot make one (no remote offer, say), or
    ///   the promise is interrupted.
    public func createAnswer(options: Structure? = nil) async throws(GStreamerError) -> SessionDescription {
        try await makeDescription("create-answer", field: "answer", options: options)
    }

    /// Sets this peer's own description (its offer or answer); after it, the ICE agent gathers
    /// candidates.
    ///
    /// The corresponding C signal is `set-local-description`.
    ///
    /// - Parameter description: The offer or answer this webrtcbin made.
    /// - Throws: `GStreamerError` when webrtcbin refuses it (its reason), or the promise is
    ///   interrupted.
    public func setLocalDescription(_ description: SessionDescription) async throws(GStreamerError) {
        _ = try await request("set-local-description", .value(try description.makeValue()))
    }

    /// Sets the peer's description (its offer or answer).
    ///
    /// The corresponding C signal is `set-remote-description`.
    ///
    /// - Parameter description: The offer or answer the peer sent.
    /// - Throws: `GStreamerError` when webrtcbin refuses it (its reason), or the promise is
    ///   interrupted.
    public func setRemoteDescription(_ description: SessionDescription) async throws(GStreamerError) {
        _ = try await request("set-remote-description", .value(try description.makeValue()))
    }

    /// This peer's description as it stands, with the candidates gathered so far; nil before one is set.
    ///
    /// The corresponding C property is `local-description`.
    public var localDescription: SessionDescription? {
        (try? element.value(ofProperty: "local-description")).flatMap { SessionDescription($0) }
    }

    /// The peer's description; nil before one is set.
    ///
    /// The corresponding C property is `remote-description`.
    public var remoteDescription: SessionDescription? {
        (try? element.value(ofProperty: "remote-description")).flatMap { SessionDescription($0) }
    }

    // MARK: ICE

    /// Adds a candidate the peer sent (a line `candidate:...` from its `onicecandidate`).
    ///
    /// The corresponding C signal is `add-ice-candidate`.
    ///
    /// - Parameters:
    ///   - candidate: The candidate line, with or without the `a=` prefix.
    ///   - mediaLineIndex: The index of the m-line it belongs to (`sdpMLineIndex`).
    /// - Throws: `GStreamerError` when the signal cannot be emitted (never for a webrtcbin).
    public func addICECandidate(_ candidate: String, mediaLineIndex: UInt) throws(GStreamerError) {
        try element.emit("add-ice-candidate", .uint(mediaLineIndex), .string(candidate))
    }

    /// Lets the ICE agent gather candidates on `address`. libnice otherwise takes every interface but
    /// loopback; once an address is added it gathers on the added addresses alone, so two peers given
    /// 127.0.0.1 connect over loopback only.
    ///
    /// The corresponding C signal is `add-local-ip-address` of webrtcbin's `ice-agent` (a
    /// `GstWebRTCICE`).
    ///
    /// - Parameter address: An IP address of this machine, such as "127.0.0.1".
    /// - Returns: Whether the agent took it.
    /// - Throws: `GStreamerError` (invalid argument) when webrtcbin has no ICE agent.
    @discardableResult
    public func addLocalIPAddress(_ address: String) throws(GStreamerError) -> Bool {
        guard let agent = try element.value(ofProperty: "ice-agent").object else {
            throw GStreamerError(
                kind: .invalidArgument, message: "\(element.name) has no ICE agent", source: element.name)
        }
        return try agent.emit("add-local-ip-address", .string(address)).bool ?? false
    }

    /// How far the ICE agent is in gathering candidates.
    ///
    /// The corresponding C property is `ice-gathering-state`.
    public var iceGatheringState: ICEGatheringState { state("ice-gathering-state") ?? .new }

    /// The state of the ICE connection.
    ///
    /// The corresponding C property is `ice-connection-state`.
    public var iceConnectionState: ICEConnectionState { state("ice-connection-state") ?? .new }

    /// The state of the whole peer connection.
    ///
    /// The corresponding C property is `connection-state`.
    public var connectionState: PeerConnectionState { state("connection-state") ?? .new }

    // MARK: Statistics

    /// The statistics of the connection, one field per RTP stream, transport and candidate (each a
    /// structure with its `type`, `timestamp`, packet and byte counts).
    ///
    /// The corresponding C signal is `get-stats` (with a NULL pad: every stream).
    ///
    /// - Returns: webrtcbin's statistics structure.
    /// - Throws: `GStreamerError` when the promise is interrupted or webrtcbin gives none.
    public func statistics() async throws(GStreamerError) -> Structure {
        guard let reply = try await request("get-stats", .null) else {
            throw GStreamerError(kind: .runtime, message: "\(element.name) gave no statistics", source: element.name)
        }
        return reply
    }

    // MARK: Helpers

    /// Emits `signal` with `arguments` and a new promise, and awaits the promise's reply; a reply with
    /// an "error" field (webrtcbin's way of refusing) is thrown with its message.
    func request(_ signal: String, _ arguments: SignalValue...) async throws(GStreamerError) -> Structure? {
        let promise = Promise()
        try element.emit(signal, arguments: arguments + [.value(Value(promise))])
        let reply = try await promise.reply()
        if let error = reply?.value("error") {
            throw GStreamerError(
                kind: .runtime, message: "\(signal): \(error.errorMessage ?? error.description)", source: element.name)
        }
        return reply
    }

    private func makeDescription(
        _ signal: String, field: String, options: Structure?
    ) async throws(GStreamerError) -> SessionDescription {
        let options: SignalValue = options.map { .value(Value($0)) } ?? .null
        guard let value = try await request(signal, options)?.value(field), let description = SessionDescription(value)
        else {
            throw GStreamerError(kind: .runtime, message: "\(signal): webrtcbin made no \(field)", source: element.name)
        }
        return description
    }

    private func state<State: RawRepresentable<String>>(_ property: String) -> State? {
        (try? element.value(ofProperty: property))?.enumNick.flatMap { State(rawValue: $0) }
    }
}
