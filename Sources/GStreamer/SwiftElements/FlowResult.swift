import CGStreamer

/// The result of handing data on, as GStreamer's GstFlowReturn says it.
public enum FlowResult: Sendable, Equatable {
    /// The data went on (`GST_FLOW_OK`).
    case ok
    /// The element is being stopped or flushed (a seek): drop the data, it is not an error.
    case flushing
    /// Downstream is at end of stream.
    case endOfStream
    /// Downstream does not accept the caps (`GST_FLOW_NOT_NEGOTIATED`): an error, posted by the element that
    /// found it.
    case notNegotiated
    /// Downstream is not linked.
    case notLinked
    /// A fatal error (`GST_FLOW_ERROR` or worse): an error message is on the bus, and the stream stops.
    case error

    init(_ flow: GstFlowReturn) {
        switch flow {
        case GST_FLOW_OK: self = .ok
        case GST_FLOW_FLUSHING: self = .flushing
        case GST_FLOW_EOS: self = .endOfStream
        case GST_FLOW_NOT_NEGOTIATED: self = .notNegotiated
        case GST_FLOW_NOT_LINKED: self = .notLinked
        default: self = flow.rawValue >= 0 ? .ok : .error
        }
    }

    var gstFlow: GstFlowReturn {
        switch self {
        case .ok: GST_FLOW_OK
        case .flushing: GST_FLOW_FLUSHING
        case .endOfStream: GST_FLOW_EOS
        case .notNegotiated: GST_FLOW_NOT_NEGOTIATED
        case .notLinked: GST_FLOW_NOT_LINKED
        case .error: GST_FLOW_ERROR
        }
    }
}
