/// What a QoS message reports: an element dropped data, or rendered it late.
///
/// The corresponding C functions are `gst_message_parse_qos`, `gst_message_parse_qos_values` and
/// `gst_message_parse_qos_stats`.
public struct QualityOfService: Sendable, Equatable, CustomStringConvertible {
    /// True when the message comes from a live element (data dropped because it came too late).
    public var live: Bool
    /// The running time of the data concerned; nil when unknown.
    public var runningTime: ClockTime?
    /// The stream time of the data concerned; nil when unknown.
    public var streamTime: ClockTime?
    /// The timestamp of the data concerned; nil when unknown.
    public var timestamp: ClockTime?
    /// The duration of the data concerned; nil when unknown.
    public var duration: ClockTime?
    /// How late the data was, in nanoseconds (negative: early).
    public var jitter: Int64
    /// The long-term rate of processing: below 1, the element is faster than real time.
    public var proportion: Double
    /// The quality level of the element (1_000_000 is full quality).
    public var quality: Int
    /// Data processed so far, in the unit `processedFormat` names, when known.
    public var processed: UInt64?
    /// Data dropped so far, in the unit `processedFormat` names, when known.
    public var dropped: UInt64?
    /// The unit of `processed` and `dropped`: "buffers", "time", "default" (samples), ...
    public var processedFormat: String

    /// The report for logs: jitter, proportion, quality, and the data processed and dropped.
    public var description: String {
        "jitter \(jitter) ns, proportion \(proportion), quality \(quality), "
            + "processed \(processed.map(String.init) ?? "?"), dropped \(dropped.map(String.init) ?? "?") "
            + processedFormat
    }
}
