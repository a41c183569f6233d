import CGStreamer
import CGStreamerShim
import GstPipeSupport

// A buffer's timestamps, in nanoseconds like GstClockTime. Setting one on a buffer that others hold
// too gives this wrapper a copy of its own first (see `Buffer.modify`); the memory stays shared.

extension Buffer {
    /// Presentation timestamp in nanoseconds. Setting it on a shared buffer copies it first (see ``Buffer``).
    public var pts: ClockTime? {
        get { read { optionalClockTime($0.pointee.pts) } }
        set { modify { $0.pointee.pts = clockTimeValue(newValue) } }
    }

    /// Decoding timestamp in nanoseconds.
    public var dts: ClockTime? {
        get { read { optionalClockTime($0.pointee.dts) } }
        set { modify { $0.pointee.dts = clockTimeValue(newValue) } }
    }

    /// Duration in nanoseconds.
    public var duration: ClockTime? {
        get { read { optionalClockTime($0.pointee.duration) } }
        set { modify { $0.pointee.duration = clockTimeValue(newValue) } }
    }

    /// This buffer with these timestamps: itself when they already match or it is writable, else a
    /// shallow copy (new metadata, the same memory: no pixels are copied).
    ///
    /// The corresponding C function is `gst_buffer_copy` (not deep).
    ///
    /// - Parameters:
    ///   - pts: The presentation timestamp in nanoseconds, or nil for none.
    ///   - duration: The duration in nanoseconds, or nil for none.
    /// - Returns: A buffer with these timestamps and this buffer's memory.
    public func withTimestamps(pts: ClockTime?, duration: ClockTime?) -> Buffer {
        withTimestamps(pts: pts, duration: duration, discontinuity: nil)
    }

    /// `withTimestamps(pts:duration:)` that also sets or clears the discontinuity mark (nil leaves it):
    /// one lock and one writability check for all three, as a source's every buffer needs.
    package func withTimestamps(pts: ClockTime?, duration: ClockTime?, discontinuity: Bool?) -> Buffer {
        let (rawPTS, rawDuration) = (clockTimeValue(pts), clockTimeValue(duration))
        let discont = GST_BUFFER_FLAG_DISCONT.rawValue
        func matches(_ buffer: UnsafeMutablePointer<GstBuffer>) -> Bool {
            buffer.pointee.pts == rawPTS && buffer.pointee.duration == rawDuration
                && discontinuity.map { ($0 ? discont : 0) == buffer.pointee.mini_object.flags & discont } ?? true
        }
        func change(_ buffer: UnsafeMutablePointer<GstBuffer>) {
            buffer.pointee.pts = rawPTS
            buffer.pointee.duration = rawDuration
            if let discontinuity {
                buffer.pointee.mini_object.flags =
                    discontinuity
                    ? buffer.pointee.mini_object.flags | discont : buffer.pointee.mini_object.flags & ~discont
            }
        }
        let inPlace = read { buffer in
            if matches(buffer) { return true }
            guard CGStreamerShim_buffer_is_writable(buffer) != 0 else { return false }
            change(buffer)
            HandOver.published(buffer)
            return true
        }
        if inPlace { return self }
        let copy = withPointer { gst_buffer_copy($0) }!
        change(copy)
        HandOver.published(copy)
        return Buffer(taking: copy)
    }
}
