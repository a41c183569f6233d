import CGStreamer

/// A buffer with the caps and segment it was received with, as an appsink hands it out.
public final class Sample: @unchecked Sendable {
    // GstSample is reference counted and immutable; this wrapper owns one reference.
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        gst_sample_unref(pointer)
    }

    /// A sample of `buffer` with `caps` and the segment of `segmentFrom` (or a default time segment).
    ///
    /// With an `offset`, the segment is moved later by that much (start, stop and position), so that
    /// timestamps moved by the same offset keep their running and stream times. An encoder does this
    /// to give B-frames' decoding timestamps, which come before the first presentation timestamp,
    /// room above zero (as GstVideoEncoder does for x264enc).
    ///
    /// The corresponding C function is `gst_sample_new`.
    ///
    /// - Parameters:
    ///   - buffer: The sample's buffer; the sample takes its own reference.
    ///   - caps: The buffer's caps, or nil.
    ///   - other: The sample whose segment to copy, or nil for a default time segment.
    ///   - offset: Nanoseconds to move the copied segment later.
    public convenience init(buffer: Buffer, caps: Caps?, segmentFrom other: Sample? = nil, offset: ClockTime = 0) {
        guard let source = other.flatMap({ gst_sample_get_segment($0.pointer) }) else {
            self.init(taking: buffer.withPointer { gst_sample_new($0, caps?.pointer, nil, nil) })
            return
        }
        var segment = source.pointee
        segment.moveLater(by: offset)
        self.init(taking: buffer.withPointer { gst_sample_new($0, caps?.pointer, &segment, nil) })
    }

    /// The sample's buffer.
    ///
    /// The corresponding C function is `gst_sample_get_buffer`.
    public var buffer: Buffer? {
        gst_sample_get_buffer(pointer).map { Buffer(borrowing: $0) }
    }

    /// The caps the buffer came with.
    ///
    /// The corresponding C function is `gst_sample_get_caps`.
    public var caps: Caps? {
        gst_sample_get_caps(pointer).map { Caps(borrowing: $0) }
    }

    /// The segment's start, rate and base, in nanoseconds for time segments.
    ///
    /// The corresponding C function is `gst_sample_get_segment`.
    public var segment: Segment? {
        gst_sample_get_segment(pointer).map { Segment($0.pointee) }
    }
}

/// The part of a stream being played: a GstSegment in time format.
public struct Segment: Sendable, Equatable {
    /// The playback rate: 1 for normal speed, negative for reverse.
    public var rate: Double
    /// The first timestamp of the segment, in nanoseconds; buffers before it are clipped.
    public var start: ClockTime
    /// The last timestamp, in nanoseconds, or nil for open-ended.
    public var stop: ClockTime?
    /// The running time, in nanoseconds, that the segment's start maps to (the time of earlier segments).
    public var base: ClockTime
    /// The stream time, in nanoseconds, of the segment's start (what a position query reports there).
    public var time: ClockTime
    /// The last position reached in the segment, in nanoseconds, when known.
    public var position: ClockTime?

    init(_ segment: GstSegment) {
        rate = segment.rate
        start = ClockTime(segment.start)
        stop = optionalClockTime(segment.stop)
        base = ClockTime(segment.base)
        time = ClockTime(segment.time)
        position = optionalClockTime(segment.position)
    }
}

extension GstSegment {
    /// Moves the segment later by `offset` nanoseconds (start, and stop and position when set), so that
    /// timestamps moved by as much keep their running and stream times.
    mutating func moveLater(by offset: ClockTime) {
        guard offset != 0 else { return }
        start += guint64(offset)
        if stop != guint64.max { stop += guint64(offset) }
        if position != guint64.max { position += guint64(offset) }
    }
}
