import CGStreamer

/// A timestamp against another clock than the pipeline's, carried by a buffer: the time a camera
/// captured the frame by NTP, PTP or the system's clock (`timestamp/x-ntp`, `timestamp/x-unix`).
///
/// The corresponding C type is `GstReferenceTimestampMeta`.
public struct ReferenceTimestamp: Sendable, Equatable {
    /// Which clock the timestamp is on, as caps: `timestamp/x-ntp, host=pool.ntp.org, port=123`.
    public var reference: Caps
    /// The time on that clock, in nanoseconds.
    public var timestamp: ClockTime
    /// How long the buffer lasts on that clock; nil when unknown.
    public var duration: ClockTime?

    /// A reference timestamp.
    ///
    /// - Parameters:
    ///   - reference: Which clock, as caps (`timestamp/x-unix`).
    ///   - timestamp: The time on it, in nanoseconds.
    ///   - duration: The duration on it; nil when unknown.
    public init(reference: Caps, timestamp: ClockTime, duration: ClockTime? = nil) {
        self.reference = reference
        self.timestamp = timestamp
        self.duration = duration
    }
}

extension Buffer {
    /// Adds a reference timestamp (on a copy of the buffer's metadata when others hold it too, as the
    /// other setters do). A buffer may carry several, one per reference clock.
    ///
    /// The corresponding C function is `gst_buffer_add_reference_timestamp_meta`.
    ///
    /// - Parameter stamp: The timestamp and its clock.
    public func addReferenceTimestamp(_ stamp: ReferenceTimestamp) {
        modify { buffer in
            let duration = stamp.duration.map(GstClockTime.init) ?? GstClockTime.max
            _ = gst_buffer_add_reference_timestamp_meta(
                buffer, stamp.reference.pointer, GstClockTime(stamp.timestamp), duration)
        }
    }

    /// The reference timestamps the buffer carries, in the order they were added.
    ///
    /// The corresponding C function is `gst_buffer_iterate_meta_filtered` with
    /// `gst_reference_timestamp_meta_api_get_type`.
    public var referenceTimestamps: [ReferenceTimestamp] {
        read { buffer in
            var stamps: [ReferenceTimestamp] = []
            var state: gpointer?
            let api = gst_reference_timestamp_meta_api_get_type()
            while let meta = gst_buffer_iterate_meta_filtered(buffer, &state, api) {
                let stamp = UnsafeMutableRawPointer(meta).assumingMemoryBound(to: GstReferenceTimestampMeta.self)
                    .pointee
                guard let reference = stamp.reference else { continue }
                stamps.append(
                    ReferenceTimestamp(
                        reference: Caps(borrowing: reference), timestamp: ClockTime(stamp.timestamp),
                        duration: stamp.duration == GstClockTime.max ? nil : ClockTime(stamp.duration)))
            }
            return stamps
        }
    }
}
