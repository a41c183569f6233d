import CGStreamer
import CGStreamerWebRTC
import GStreamer

/// An SDP offer or answer: what two WebRTC peers exchange to agree on media, codecs and transport.
/// webrtcbin makes them (``WebRTCBin/createOffer(options:)``) and takes them
/// (``WebRTCBin/setRemoteDescription(_:)``); the SDP text is what travels between the peers.
///
/// The corresponding C type is `GstWebRTCSessionDescription` (a `GstWebRTCSDPType` and a
/// `GstSDPMessage`).
public struct SessionDescription: Sendable, Equatable, CustomStringConvertible {
    /// What the description is in the offer/answer exchange.
    ///
    /// The corresponding C type is `GstWebRTCSDPType`; the raw values are its nicks.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// An offer, made by the peer that starts the negotiation.
        case offer
        /// A provisional answer.
        case provisionalAnswer = "pranswer"
        /// The final answer to an offer.
        case answer
        /// A rollback of the last offer.
        case rollback
    }

    /// Offer, answer, ....
    public let kind: Kind
    /// The SDP text, as GStreamer writes it (`v=0`, `o=...`, one `m=` section per stream).
    public let sdp: String

    /// A description of `kind` from SDP text, checked by GStreamer's SDP parser.
    ///
    /// The corresponding C function is `gst_sdp_message_new_from_text`.
    ///
    /// - Parameters:
    ///   - kind: Offer or answer.
    ///   - sdp: The SDP text, such as a browser's offer.
    /// - Throws: `GStreamerError` (invalid argument) when the text is not SDP.
    public init(_ kind: Kind, sdp: String) throws(GStreamerError) {
        try GStreamer.initialize()
        let message = try Self.parse(sdp)
        gst_sdp_message_free(message)
        self.kind = kind
        self.sdp = sdp
    }

    /// The description `value` holds, a `GstWebRTCSessionDescription` (a field of webrtcbin's reply,
    /// its `local-description` property); nil when it holds none.
    ///
    /// - Parameter value: A value of type `GstWebRTCSessionDescription`.
    public init?(_ value: Value) {
        let read: (Kind, String)? = value.withUnsafeBoxedPointer { pointer in
            guard value.isA("GstWebRTCSessionDescription"),
                let description = pointer?.assumingMemoryBound(to: GstWebRTCSessionDescription.self).pointee,
                let text = gst_sdp_message_as_text(description.sdp)
            else { return nil }
            defer { g_free(text) }
            let nick = String(cString: gst_webrtc_sdp_type_to_string(description.type))
            return (Kind(rawValue: nick) ?? .offer, String(cString: text))
        }
        guard let read else { return nil }
        (kind, sdp) = read
    }

    /// The description as a `GstWebRTCSessionDescription` value, for webrtcbin's signals.
    ///
    /// The corresponding C function is `gst_webrtc_session_description_new`.
    ///
    /// - Returns: A value of type `GstWebRTCSessionDescription`.
    /// - Throws: `GStreamerError` (invalid argument) when the SDP no longer parses (it did when made).
    public func makeValue() throws(GStreamerError) -> Value {
        let message = try Self.parse(sdp)
        let type: GstWebRTCSDPType =
            switch kind {
            case .offer: GST_WEBRTC_SDP_TYPE_OFFER
            case .provisionalAnswer: GST_WEBRTC_SDP_TYPE_PRANSWER
            case .answer: GST_WEBRTC_SDP_TYPE_ANSWER
            case .rollback: GST_WEBRTC_SDP_TYPE_ROLLBACK
            }
        // The description takes the message; the value gets a copy of the description.
        let description = gst_webrtc_session_description_new(type, message)
        defer { gst_webrtc_session_description_free(description) }
        _ = gst_webrtc_session_description_get_type()
        return try Value(copyingBoxed: UnsafeRawPointer(description!), as: "GstWebRTCSessionDescription")
    }

    /// The kind and the SDP text.
    public var description: String { "\(kind.rawValue):\n\(sdp)" }

    /// Parses SDP text; the caller frees the message.
    private static func parse(_ sdp: String) throws(GStreamerError) -> UnsafeMutablePointer<GstSDPMessage> {
        var message: UnsafeMutablePointer<GstSDPMessage>?
        guard gst_sdp_message_new_from_text(sdp, &message) == GST_SDP_OK, let message else {
            if let message { gst_sdp_message_free(message) }
            throw GStreamerError(
                kind: .invalidArgument, message: "the session description cannot be parsed as SDP")
        }
        // GStreamer's parser accepts almost any text; an SDP message has at least a version line.
        guard sdp.hasPrefix("v=") else {
            gst_sdp_message_free(message)
            throw GStreamerError(
                kind: .invalidArgument, message: "the session description is not SDP: it must start with \"v=\"")
        }
        return message
    }
}
