import CGStreamer
import CGStreamerWebRTC
import GStreamer

/// A WebRTC data channel of a webrtcbin: text and binary messages both ways between the peers, over
/// SCTP in the same DTLS connection as the media. The peer that offers usually opens it (a browser's
/// `pc.createDataChannel('chat')`), and webrtcbin hands it over with ``WebRTCBin/onDataChannel(_:)``;
/// webrtcbin may open one itself with ``WebRTCBin/createDataChannel(label:)``.
///
/// The callbacks run on webrtcbin's SCTP threads; ``send(_:)`` may be called from any thread.
///
/// The corresponding C type is `GstWebRTCDataChannel`.
public final class DataChannel: Sendable {
    /// One message, as the peer sent it: text (a JavaScript string) or binary (an `ArrayBuffer`).
    public enum Message: Sendable, Equatable, CustomStringConvertible {
        /// A text message (UTF-8 on the wire).
        case text(String)
        /// A binary message.
        case binary([UInt8])

        /// The text, or "N bytes", for logs.
        public var description: String {
            switch self {
            case .text(let text): "\"\(text)\""
            case .binary(let bytes): "\(bytes.count) bytes"
            }
        }
    }

    /// Where a data channel stands.
    ///
    /// The corresponding C type is `GstWebRTCDataChannelState`; the raw values are its nicks.
    public enum State: String, Sendable, Equatable, CaseIterable {
        /// Not open yet: sending fails.
        case connecting
        /// Open: messages go both ways.
        case open
        /// Being closed.
        case closing
        /// Closed for good.
        case closed
    }

    /// The GstWebRTCDataChannel.
    public let object: Object

    /// Wraps a GstWebRTCDataChannel (the argument of webrtcbin's `on-data-channel`).
    ///
    /// - Parameter object: The data channel.
    /// - Throws: `GStreamerError` (invalid argument) when the object is no data channel.
    public init(_ object: Object) throws(GStreamerError) {
        let type = gst_webrtc_data_channel_get_type()
        let isChannel = object.withUnsafePointer { pointer in
            let instance = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GTypeInstance.self)
            return g_type_check_instance_is_a(instance, type)
        }
        guard isChannel != 0 else {
            throw GStreamerError(kind: .invalidArgument, message: "\(object.typeName) is not a GstWebRTCDataChannel")
        }
        self.object = object
    }

    /// The label the opening peer gave it (`createDataChannel('chat')`).
    ///
    /// The corresponding C property is `label`.
    public var label: String { (try? object.value(ofProperty: "label"))?.string ?? "" }

    /// Where the channel stands.
    ///
    /// The corresponding C property is `ready-state`.
    public var state: State {
        (try? object.value(ofProperty: "ready-state"))?.enumNick.flatMap(State.init(rawValue:)) ?? .closed
    }

    /// Sends `message` to the peer.
    ///
    /// The corresponding C functions are `gst_webrtc_data_channel_send_string_full` and
    /// `gst_webrtc_data_channel_send_data_full`.
    ///
    /// - Parameter message: Text or bytes.
    /// - Throws: `GStreamerError` (runtime, with webrtcbin's reason) when the channel is not open or
    ///   the message cannot be queued.
    public func send(_ message: Message) throws(GStreamerError) {
        var error: UnsafeMutablePointer<GError>?
        let sent = object.withUnsafePointer { pointer -> gboolean in
            // An opaque struct in 1.22's headers.
            let channel = OpaquePointer(pointer)
            switch message {
            case .text(let text):
                return gst_webrtc_data_channel_send_string_full(channel, text, &error)
            case .binary(let bytes):
                let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
                defer { g_bytes_unref(data) }
                return gst_webrtc_data_channel_send_data_full(channel, data, &error)
            }
        }
        guard sent == 0 else { return }
        let reason = error.map { String(cString: $0.pointee.message) } ?? "the channel refused it"
        if let error { g_error_free(error) }
        throw GStreamerError(kind: .runtime, message: "cannot send on data channel \"\(label)\": \(reason)")
    }

    /// Closes the channel (both ways).
    ///
    /// The corresponding C function is `gst_webrtc_data_channel_close`.
    public func close() {
        object.withUnsafePointer { pointer in
            gst_webrtc_data_channel_close(OpaquePointer(pointer))
        }
    }

    /// Calls `handler` with each message from the peer, on webrtcbin's thread that received it.
    ///
    /// The corresponding C signals are `on-message-string` and `on-message-data`.
    ///
    /// - Parameter handler: Gets each message.
    /// - Returns: The two connections.
    @discardableResult
    public func onMessage(_ handler: @escaping @Sendable (Message) -> Void) -> [SignalConnection] {
        // The channel's own signals: connecting cannot fail.
        let text = try! object.connect("on-message-string") { arguments in
            handler(.text(arguments.first?.string ?? ""))
        }
        let data = try! object.connect("on-message-data") { arguments in
            let bytes = arguments.first?.asValue?.withUnsafeBoxedPointer { pointer -> [UInt8] in
                guard let pointer else { return [] }
                var size: gsize = 0
                let bytes = OpaquePointer(pointer)
                guard let start = g_bytes_get_data(bytes, &size), size > 0 else { return [] }
                return Array(UnsafeRawBufferPointer(start: start, count: Int(size)))
            }
            handler(.binary(bytes ?? []))
        }
        return [text, data]
    }

    /// Calls `handler` once the channel is open (messages may be sent from then on).
    ///
    /// The corresponding C signal is `on-open`.
    ///
    /// - Parameter handler: Called on webrtcbin's thread as the channel opens.
    /// - Returns: The connection, to disconnect it.
    @discardableResult
    public func onOpen(_ handler: @escaping @Sendable () -> Void) -> SignalConnection {
        try! object.connect("on-open") { _ in handler() }
    }

    /// Calls `handler` once the channel has closed (the peer closed it, or the connection ended).
    ///
    /// The corresponding C signal is `on-close`.
    ///
    /// - Parameter handler: Called on webrtcbin's thread as the channel closes.
    /// - Returns: The connection, to disconnect it.
    @discardableResult
    public func onClose(_ handler: @escaping @Sendable () -> Void) -> SignalConnection {
        try! object.connect("on-close") { _ in handler() }
    }
}

extension WebRTCBin {
    /// Calls `handler` with each data channel the peer opens, on webrtcbin's thread.
    ///
    /// The corresponding C signal is `on-data-channel`.
    ///
    /// - Parameter handler: Gets the channel; it may already be open.
    /// - Returns: The connection.
    @discardableResult
    public func onDataChannel(_ handler: @escaping @Sendable (DataChannel) -> Void) -> SignalConnection {
        try! element.connect("on-data-channel") { arguments in
            guard let object = arguments.first?.object, let channel = try? DataChannel(object) else { return }
            handler(channel)
        }
    }

    /// Opens a data channel to the peer: before the offer, so that the offer has an
    /// `m=application` section for it.
    ///
    /// The corresponding C signal is `create-data-channel`.
    ///
    /// - Parameter label: The channel's label, which the peer sees.
    /// - Returns: The channel, nil when webrtcbin refuses (no SCTP plugin, or too late to add one).
    public func createDataChannel(label: String) -> DataChannel? {
        guard let object = try? element.emit("create-data-channel", .string(label), .null).object else { return nil }
        return try? DataChannel(object)
    }
}
