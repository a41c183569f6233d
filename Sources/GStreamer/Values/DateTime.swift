import CGStreamer

/// A date and time as GStreamer tags carry it (GstDateTime, or GDate for a plain calendar date): only
/// the year is certain; each later field may be missing ("2009", "2009-06", "2009-06-21T14:30").
public struct DateTime: Sendable, Hashable, CustomStringConvertible {
    /// The year, such as 2024.
    public var year: Int
    /// 1...12, when known.
    public var month: Int?
    /// 1...31, when known.
    public var day: Int?
    /// 0...23, when the time of day is known.
    public var hour: Int?
    /// 0...59, when the time of day is known.
    public var minute: Int?
    /// Seconds with their fraction.
    public var second: Double?
    /// Hours east of UTC (nil for a date without a time of day).
    public var utcOffset: Double?

    /// A date and time as precise as the fields given.
    ///
    /// - Parameters:
    ///   - year: The year, such as 2024.
    ///   - month: 1...12, or nil.
    ///   - day: 1...31, or nil (only with a month).
    ///   - hour: 0...23, or nil.
    ///   - minute: 0...59, or nil (only with an hour).
    ///   - second: Seconds with their fraction, or nil.
    ///   - utcOffset: Hours east of UTC, or nil for a date without a time of day.
    public init(
        year: Int, month: Int? = nil, day: Int? = nil, hour: Int? = nil, minute: Int? = nil, second: Double? = nil,
        utcOffset: Double? = nil
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.utcOffset = utcOffset
    }

    /// Parses an ISO 8601 date and time, as precise as it is ("2009", "2009-06-21T14:30:05Z").
    ///
    /// The corresponding C function is `gst_date_time_new_from_iso8601_string`.
    ///
    /// - Parameter string: The ISO 8601 text; nil when it does not parse.
    public init?(iso8601 string: String) {
        guard (try? GStreamer.initialize()) != nil, let value = gst_date_time_new_from_iso8601_string(string) else {
            return nil
        }
        defer { gst_date_time_unref(value) }
        self.init(value)
    }

    init(_ value: OpaquePointer) {
        year = Int(gst_date_time_get_year(value))
        month = gst_date_time_has_month(value) != 0 ? Int(gst_date_time_get_month(value)) : nil
        day = gst_date_time_has_day(value) != 0 ? Int(gst_date_time_get_day(value)) : nil
        let hasTime = gst_date_time_has_time(value) != 0
        hour = hasTime ? Int(gst_date_time_get_hour(value)) : nil
        minute = hasTime ? Int(gst_date_time_get_minute(value)) : nil
        second =
            gst_date_time_has_second(value) != 0
            ? Double(gst_date_time_get_second(value)) + Double(gst_date_time_get_microsecond(value)) / 1_000_000 : nil
        utcOffset = hasTime ? Double(gst_date_time_get_time_zone_offset(value)) : nil
    }

    /// A new GstDateTime (one reference), nil when the fields do not make one.
    /// What GstDateTime cannot hold in this value (gst_date_time_new refuses it, with a critical warning),
    /// or nil when it can.
    var gstDateTimeProblem: String? {
        func outside(_ value: Int?, _ range: ClosedRange<Int>) -> Bool { value.map { !range.contains($0) } ?? false }
        // Not `description`, which asks this.
        let fields =
            "year \(year), month \(month.map(String.init) ?? "none"), day \(day.map(String.init) ?? "none"), "
            + "hour \(hour.map(String.init) ?? "none"), minute \(minute.map(String.init) ?? "none")"
        if !(1...9999).contains(year) { return "the year \(year) is outside 1...9999" }
        if outside(month, 1...12) || outside(day, 1...31) || outside(hour, 0...23) || outside(minute, 0...59) {
            return "\(fields): a month, day, hour or minute is out of range"
        }
        if let second, !(second >= 0 && second < 60) { return "\(fields): the seconds are outside 0..<60" }
        if let utcOffset, !(utcOffset >= -12 && utcOffset <= 14) {
            return "\(fields): the UTC offset is outside -12...14 hours"
        }
        if (day != nil && month == nil) || (hour == nil) != (minute == nil) || (hour != nil && day == nil)
            || (second != nil && minute == nil)
        {
            return "\(fields): give the fields from the year down without a gap (an hour with its minute)"
        }
        return nil
    }

    func makeGstDateTime() -> OpaquePointer? {
        guard gstDateTimeProblem == nil else { return nil }
        return gst_date_time_new(
            Float(utcOffset ?? 0), gint(year), gint(month ?? -1), gint(day ?? -1), gint(hour ?? -1), gint(minute ?? -1),
            second ?? -1)
    }

    /// ISO 8601, as precise as the value is: "2009-06-21", "2009-06-21T14:30:05Z".
    ///
    /// The corresponding C function is `gst_date_time_to_iso8601_string`.
    public var description: String {
        guard let value = makeGstDateTime() else { return String(year) }
        defer { gst_date_time_unref(value) }
        return String(takingGString: gst_date_time_to_iso8601_string(value)) ?? String(year)
    }
}
