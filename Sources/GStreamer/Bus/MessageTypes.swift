import CGStreamer

/// A set of message kinds, to filter what ``Bus/timedPop(timeout:filter:)`` returns. Each member is
/// one of GStreamer's GstMessageType bits; ``extended`` stands for every extended kind (device-added,
/// property-notify, stream-collection, ...), which share that one bit.
///
/// The corresponding C type is `GstMessageType` used as a mask.
public struct MessageTypes: OptionSet, Sendable, Hashable {
    /// GStreamer's mask bits.
    public let rawValue: UInt32

    /// The kinds whose GstMessageType bits are set in `rawValue`.
    ///
    /// - Parameter rawValue: A GstMessageType mask.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    init(_ type: GstMessageType) { rawValue = UInt32(truncatingIfNeeded: type.rawValue) }

    var gstMask: GstMessageType { GstMessageType(rawValue: .init(truncatingIfNeeded: rawValue)) }

    /// End of stream (`GST_MESSAGE_EOS`).
    public static let endOfStream = MessageTypes(GST_MESSAGE_EOS)
    /// An error (`GST_MESSAGE_ERROR`).
    public static let error = MessageTypes(GST_MESSAGE_ERROR)
    /// A warning (`GST_MESSAGE_WARNING`).
    public static let warning = MessageTypes(GST_MESSAGE_WARNING)
    /// An info message (`GST_MESSAGE_INFO`).
    public static let info = MessageTypes(GST_MESSAGE_INFO)
    /// Tags found in the stream (`GST_MESSAGE_TAG`).
    public static let tag = MessageTypes(GST_MESSAGE_TAG)
    /// Buffering percentages (`GST_MESSAGE_BUFFERING`).
    public static let buffering = MessageTypes(GST_MESSAGE_BUFFERING)
    /// State changes (`GST_MESSAGE_STATE_CHANGED`).
    public static let stateChanged = MessageTypes(GST_MESSAGE_STATE_CHANGED)
    /// The clock went away (`GST_MESSAGE_CLOCK_LOST`).
    public static let clockLost = MessageTypes(GST_MESSAGE_CLOCK_LOST)
    /// A new clock was selected (`GST_MESSAGE_NEW_CLOCK`).
    public static let newClock = MessageTypes(GST_MESSAGE_NEW_CLOCK)
    /// Streaming threads entering and leaving (`GST_MESSAGE_STREAM_STATUS`).
    public static let streamStatus = MessageTypes(GST_MESSAGE_STREAM_STATUS)
    /// Messages the application posted (`GST_MESSAGE_APPLICATION`).
    public static let application = MessageTypes(GST_MESSAGE_APPLICATION)
    /// Element-specific messages (`GST_MESSAGE_ELEMENT`).
    public static let element = MessageTypes(GST_MESSAGE_ELEMENT)
    /// A segment seek finished (`GST_MESSAGE_SEGMENT_DONE`).
    public static let segmentDone = MessageTypes(GST_MESSAGE_SEGMENT_DONE)
    /// The duration changed (`GST_MESSAGE_DURATION_CHANGED`).
    public static let durationChanged = MessageTypes(GST_MESSAGE_DURATION_CHANGED)
    /// An element's latency changed (`GST_MESSAGE_LATENCY`).
    public static let latency = MessageTypes(GST_MESSAGE_LATENCY)
    /// An asynchronous state change completed (`GST_MESSAGE_ASYNC_DONE`).
    public static let asyncDone = MessageTypes(GST_MESSAGE_ASYNC_DONE)
    /// Quality of service (`GST_MESSAGE_QOS`).
    public static let qos = MessageTypes(GST_MESSAGE_QOS)
    /// A new stream started (`GST_MESSAGE_STREAM_START`).
    public static let streamStart = MessageTypes(GST_MESSAGE_STREAM_START)
    /// An element asks for a context (`GST_MESSAGE_NEED_CONTEXT`).
    public static let needContext = MessageTypes(GST_MESSAGE_NEED_CONTEXT)
    /// Every extended kind: device-added and -removed, property-notify, stream-collection,
    /// streams-selected, redirect (`GST_MESSAGE_EXTENDED`).
    public static let extended = MessageTypes(GST_MESSAGE_EXTENDED)
    /// Every kind (`GST_MESSAGE_ANY`).
    public static let any = MessageTypes(rawValue: .max)
}
