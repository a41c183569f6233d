import CGStreamer

/// Nanoseconds, as GstClockTime counts them; `nil` where GStreamer says GST_CLOCK_TIME_NONE.
public typealias ClockTime = UInt64

func optionalClockTime(_ value: GstClockTime) -> ClockTime? {
    value == GstClockTime.max ? nil : ClockTime(value)
}

func clockTimeValue(_ value: ClockTime?) -> GstClockTime {
    value.map { GstClockTime($0) } ?? GstClockTime.max
}

/// `duration` in nanoseconds, saturating (a negative duration is 0).
func nanoseconds(_ duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0, attoseconds >= 0 else { return 0 }
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? .max : whole &+ UInt64(attoseconds / 1_000_000_000)
}

/// `time` as the signed nanoseconds GStreamer's positions and durations take (`gint64`): -1 (none, unknown)
/// for `ClockTime.max`, which is GST_CLOCK_TIME_NONE, and the largest `gint64` for a time beyond it
/// (292 years: later than any stream ends) instead of a trap.
func signedClockTime(_ time: ClockTime) -> gint64 {
    time == ClockTime.max ? -1 : gint64(clamping: time)
}
