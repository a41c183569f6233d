import CGStreamer
import Synchronization

/// A pad of an element. Owns one reference.
public final class Pad: @unchecked Sendable {
    // GstPad is reference counted and thread-safe; this wrapper only reads from it.
    let pointer: UnsafeMutablePointer<GstPad>

    init(_ pointer: UnsafeMutablePointer<GstPad>, owned: Bool) {
        self.pointer = owned ? pointer : UnsafeMutableRawPointer(gst_object_ref(UnsafeMutableRawPointer(pointer)))!
            .assumingMemoryBound(to: GstPad.self)
    }

    deinit {
        gst_object_unref(UnsafeMutableRawPointer(pointer))
    }

    /// The pad's name, such as "src".
    public var name: String {
        guard let name = gst_object_get_name(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstObject.self))
        else { return "" }
        defer { g_free(name) }
        return String(cString: name)
    }

    /// The caps negotiated on the pad, once data flows.
    ///
    /// The corresponding C function is `gst_pad_get_current_caps`.
    public var currentCaps: Caps? {
        gst_pad_get_current_caps(pointer).map { Caps(taking: $0) }
    }

    /// The caps the pad's peer accepts, within `filter`.
    ///
    /// The corresponding C function is `gst_pad_peer_query_caps`.
    public func peerCaps(filter: Caps? = nil) -> Caps {
        Caps(taking: gst_pad_peer_query_caps(pointer, filter?.pointer))
    }
}

extension Pad {
    /// The stream time (position in the media) of a timestamp on this pad, by the segment the pad
    /// last received; nil when the pad has no time segment or the timestamp is outside it.
    ///
    /// The corresponding C functions are `gst_pad_get_sticky_event` and `gst_segment_to_stream_time`.
    public func streamTime(of timestamp: ClockTime) -> ClockTime? {
        guard let event = gst_pad_get_sticky_event(pointer, GST_EVENT_SEGMENT, 0) else { return nil }
        defer { gst_event_unref(event) }
        var segment: UnsafePointer<GstSegment>?
        gst_event_parse_segment(event, &segment)
        guard let segment, segment.pointee.format == GST_FORMAT_TIME else { return nil }
        let time = gst_segment_to_stream_time(segment, GST_FORMAT_TIME, guint64(timestamp))
        return time == GstClockTime.max ? nil : ClockTime(time)
    }

    /// Sends end of stream into the pad, as if its upstream had ended.
    ///
    /// The corresponding C function is `gst_pad_send_event` with `gst_event_new_eos`.
    @discardableResult
    public func sendEndOfStream() -> Bool {
        gst_pad_send_event(pointer, gst_event_new_eos()) != 0
    }

    /// Counts the buffers that pass through the pad from now on, for as long as the pad exists.
    ///
    /// The corresponding C function is `gst_pad_add_probe`.
    public func countBuffers() -> BufferCounter {
        let counter = BufferCounter()
        gst_pad_add_probe(
            pointer, GstPadProbeType(GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue),
            { _, info, userData in
                guard let info, let userData else { return GST_PAD_PROBE_OK }
                var buffers = 1
                if info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue != 0, let list = info.pointee.data {
                    buffers = Int(gst_buffer_list_length(OpaquePointer(list)))
                }
                var timestamp: ClockTime?
                var duration: ClockTime?
                if info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0, let data = info.pointee.data {
                    let buffer = data.assumingMemoryBound(to: GstBuffer.self).pointee
                    if buffer.pts != GstClockTime.max { timestamp = ClockTime(buffer.pts) }
                    if buffer.duration != GstClockTime.max { duration = ClockTime(buffer.duration) }
                }
                Unmanaged<BufferCounter>.fromOpaque(userData).takeUnretainedValue()
                    .add(buffers, timestamp: timestamp, duration: duration)
                return GST_PAD_PROBE_OK
            }, Unmanaged.passRetained(counter).toOpaque(),
            { userData in
                guard let userData else { return }
                Unmanaged<BufferCounter>.fromOpaque(userData).release()
            })
        return counter
    }
}

extension Pad {
    /// Notes when end of stream reaches the pad from now on: it has then passed all data before it.
    ///
    /// The corresponding C function is `gst_pad_add_probe`.
    public func watchEndOfStream() -> EndOfStreamWatch {
        let watch = EndOfStreamWatch()
        gst_pad_add_probe(
            pointer, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
            { _, info, userData in
                guard let info, let userData, let event = info.pointee.data else { return GST_PAD_PROBE_OK }
                if event.assumingMemoryBound(to: GstEvent.self).pointee.type == GST_EVENT_EOS {
                    Unmanaged<EndOfStreamWatch>.fromOpaque(userData).takeUnretainedValue().arrive()
                }
                return GST_PAD_PROBE_OK
            }, Unmanaged.passRetained(watch).toOpaque(),
            { userData in
                guard let userData else { return }
                Unmanaged<EndOfStreamWatch>.fromOpaque(userData).release()
            })
        return watch
    }
}

/// Whether end of stream has reached a pad (`Pad.watchEndOfStream()`), safe to read from any thread.
public final class EndOfStreamWatch: Sendable {
    private let arrived = Atomic(false)

    public var hasArrived: Bool { arrived.load(ordering: .acquiring) }

    func arrive() {
        arrived.store(true, ordering: .releasing)
    }

    /// Waits until end of stream arrives or `timeout` passes; true when it arrived.
    public func wait(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !hasArrived && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return hasArrived
    }
}

/// The number of buffers that passed a pad (`Pad.countBuffers()`), safe to read from any thread.
public final class BufferCounter: Sendable {
    private let storage = Atomic<Int>(0)
    private let lastTimestampStorage = Atomic<UInt64>(.max)
    private let lastEndStorage = Atomic<UInt64>(.max)

    /// Buffers counted so far.
    public var count: Int { storage.load(ordering: .relaxed) }

    /// The presentation timestamp of the last buffer that had one.
    public var lastTimestamp: ClockTime? {
        let value = lastTimestampStorage.load(ordering: .relaxed)
        return value == .max ? nil : value
    }

    /// Where the last buffer with a timestamp ends: its timestamp plus its duration, when it has one.
    public var lastEnd: ClockTime? {
        let value = lastEndStorage.load(ordering: .relaxed)
        return value == .max ? nil : value
    }

    func add(_ buffers: Int, timestamp: ClockTime?, duration: ClockTime?) {
        storage.add(buffers, ordering: .relaxed)
        if let timestamp {
            lastTimestampStorage.store(timestamp, ordering: .relaxed)
            lastEndStorage.store(timestamp + (duration ?? 0), ordering: .relaxed)
        }
    }
}

extension Pad {
    /// Ends the stream at `timestamp`: the first buffer at or after it is dropped and end of stream
    /// goes downstream instead (for a source pad), so the stream stops where another one did.
    ///
    /// The corresponding C function is `gst_pad_add_probe`.
    public func endStream(atTimestamp timestamp: ClockTime) {
        final class Cut: Sendable {
            let timestamp: ClockTime
            let done = Atomic(false)
            init(_ timestamp: ClockTime) { self.timestamp = timestamp }
        }
        gst_pad_add_probe(
            pointer, GST_PAD_PROBE_TYPE_BUFFER,
            { pad, info, userData in
                guard let pad, let info, let userData, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
                let cut = Unmanaged<Cut>.fromOpaque(userData).takeUnretainedValue()
                let pts = data.assumingMemoryBound(to: GstBuffer.self).pointee.pts
                guard pts != GstClockTime.max, ClockTime(pts) >= cut.timestamp else { return GST_PAD_PROBE_OK }
                if !cut.done.exchange(true, ordering: .acquiringAndReleasing) {
                    _ = gst_pad_push_event(pad, gst_event_new_eos())
                }
                return GST_PAD_PROBE_DROP
            }, Unmanaged.passRetained(Cut(timestamp)).toOpaque(),
            { userData in
                guard let userData else { return }
                Unmanaged<AnyObject>.fromOpaque(userData).release()
            })
    }
}
