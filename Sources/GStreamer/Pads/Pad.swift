import CGStreamer
import CGStreamerShim
import GstPipeSupport
import Synchronization

/// A pad of an element. Owns one reference.
public final class Pad: @unchecked Sendable {
    // GstPad is reference counted and thread-safe; this wrapper only reads from it.
    let pointer: UnsafeMutablePointer<GstPad>

    init(_ pointer: UnsafeMutablePointer<GstPad>, owned: Bool) {
        self.pointer =
            owned
            ? pointer
            : UnsafeMutableRawPointer(gst_object_ref(UnsafeMutableRawPointer(pointer)))!
                .assumingMemoryBound(to: GstPad.self)
    }

    deinit {
        gst_object_unref(UnsafeMutableRawPointer(pointer))
    }

    /// The pad's name, such as "src".
    ///
    /// The corresponding C function is `gst_object_get_name`.
    public var name: String {
        let object = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstObject.self)
        return String(takingGString: gst_object_get_name(object)) ?? ""
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
    ///
    /// - Parameter filter: Caps to intersect with, or nil for everything the peer accepts.
    /// - Returns: The caps, in the peer's order of preference; ANY when the pad is not linked.
    public func peerCaps(filter: Caps? = nil) -> Caps {
        Caps(taking: gst_pad_peer_query_caps(pointer, filter?.pointer))
    }
}

extension Pad {
    /// The stream time (position in the media) of a timestamp on this pad, by the segment the pad
    /// last received; nil when the pad has no time segment or the timestamp is outside it.
    ///
    /// The corresponding C functions are `gst_pad_get_sticky_event` and `gst_segment_to_stream_time`.
    ///
    /// - Parameter timestamp: A buffer timestamp on this pad, in nanoseconds.
    /// - Returns: The stream time in nanoseconds, or nil.
    public func streamTime(of timestamp: ClockTime) -> ClockTime? {
        bySegment(timestamp, gst_segment_to_stream_time)
    }

    /// The running time (the clock's time since the pipeline played, less pauses) of a timestamp on this
    /// pad, by the segment the pad last received; nil when the pad has no time segment or the timestamp
    /// is outside it.
    ///
    /// The corresponding C functions are `gst_pad_get_sticky_event` and `gst_segment_to_running_time`.
    ///
    /// - Parameter timestamp: A buffer timestamp on this pad, in nanoseconds.
    /// - Returns: The running time in nanoseconds, or nil.
    public func runningTime(of timestamp: ClockTime) -> ClockTime? {
        bySegment(timestamp, gst_segment_to_running_time)
    }

    /// `timestamp` converted by `convert` with the time segment the pad last received; nil without one,
    /// or when `convert` finds the timestamp outside it.
    private func bySegment(
        _ timestamp: ClockTime, _ convert: (UnsafePointer<GstSegment>?, GstFormat, guint64) -> guint64
    ) -> ClockTime? {
        guard let event = gst_pad_get_sticky_event(pointer, GST_EVENT_SEGMENT, 0) else { return nil }
        defer { gst_event_unref(event) }
        var segment: UnsafePointer<GstSegment>?
        gst_event_parse_segment(event, &segment)
        guard let segment, segment.pointee.format == GST_FORMAT_TIME else { return nil }
        let time = convert(segment, GST_FORMAT_TIME, guint64(timestamp))
        return time == GstClockTime.max ? nil : ClockTime(time)
    }

    /// Whether the pad refuses data: deactivated (its element stopping), or between a flush's start and
    /// stop.
    ///
    /// The corresponding C macro is `GST_PAD_IS_FLUSHING`.
    public var isFlushing: Bool {
        g_mutex_lock(&pointer.pointee.object.lock)
        defer { g_mutex_unlock(&pointer.pointee.object.lock) }
        return pointer.pointee.object.flags & GST_PAD_FLAG_FLUSHING.rawValue != 0
    }

    /// Sends end of stream into the pad, as if its upstream had ended.
    ///
    /// The corresponding C function is `gst_pad_send_event` with `gst_event_new_eos`.
    ///
    /// - Returns: Whether the pad's element handled the event.
    @discardableResult
    public func sendEndOfStream() -> Bool {
        gst_pad_send_event(pointer, gst_event_new_eos()) != 0
    }

    /// Rewrites every raw video buffer that passes the pad into tightly packed planes, rows without
    /// padding, with a GstVideoMeta that says so; buffers already packed pass untouched.
    ///
    /// GStreamer's default layout pads rows to 4 bytes, so a 294-pixel-wide I420 frame has 296-byte
    /// luma rows. y4menc in GStreamer 1.22 writes buffers as they come, so its files are unreadable
    /// for such widths unless the frames reach it packed.
    package func packVideoBuffers() {
        CGStreamerShim_pad_pack_video_buffers(pointer)
    }

    /// Calls `handler` for what passes the pad (`mask`: buffers, events), on the streaming thread,
    /// for as long as the pad exists. The handler keeps its captures alive until then.
    ///
    /// The corresponding C function is `gst_pad_add_probe`.
    func addProbe(
        _ mask: GstPadProbeType,
        _ handler: @escaping @Sendable (UnsafeMutablePointer<GstPad>, GstPadProbeInfo) -> GstPadProbeReturn
    ) {
        final class Box: Sendable {
            let handler: @Sendable (UnsafeMutablePointer<GstPad>, GstPadProbeInfo) -> GstPadProbeReturn
            init(_ handler: @escaping @Sendable (UnsafeMutablePointer<GstPad>, GstPadProbeInfo) -> GstPadProbeReturn) {
                self.handler = handler
            }
        }
        // Made here, used on a streaming thread; gst_pad_add_probe orders the two under the pad's lock.
        let box = Unmanaged.passRetained(Box(handler)).toOpaque()
        HandOver.published(box)
        gst_pad_add_probe(
            pointer, mask,
            { pad, info, userData in
                guard let pad, let info, let userData else { return GST_PAD_PROBE_OK }
                HandOver.received(userData)
                return Unmanaged<Box>.fromOpaque(userData).takeUnretainedValue().handler(pad, info.pointee)
            }, box,
            { userData in
                guard let userData else { return }
                Unmanaged<Box>.fromOpaque(userData).release()
            })
    }

    /// Counts the buffers that pass through the pad from now on, for as long as the pad exists.
    /// The counting runs in a probe on the streaming thread; read the counter from any thread.
    ///
    /// The corresponding C function is `gst_pad_add_probe`.
    ///
    /// - Returns: The counter, updated as buffers pass (a buffer list counts as its buffers).
    package func countBuffers() -> BufferCounter {
        let counter = BufferCounter()
        addProbe(GstPadProbeType(GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue)) {
            _, info in
            guard let data = info.data else { return GST_PAD_PROBE_OK }
            if info.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue != 0 {
                counter.add(Int(gst_buffer_list_length(OpaquePointer(data))), timestamp: nil, duration: nil)
            } else {
                // Its timestamps may have been written by a Swift wrapper on the thread that pushed it.
                HandOver.received(data)
                let buffer = data.assumingMemoryBound(to: GstBuffer.self).pointee
                counter.add(
                    1, timestamp: buffer.pts == GstClockTime.max ? nil : ClockTime(buffer.pts),
                    duration: buffer.duration == GstClockTime.max ? nil : ClockTime(buffer.duration))
            }
            return GST_PAD_PROBE_OK
        }
        return counter
    }

    /// Notes when end of stream reaches the pad from now on: all data before it has passed.
    ///
    /// The corresponding C function is `gst_pad_add_probe`.
    ///
    /// - Returns: The watch, which notes the first end of stream event to pass.
    package func watchEndOfStream() -> EndOfStreamWatch {
        let watch = EndOfStreamWatch()
        addProbe(GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) { _, info in
            if let event = info.data, event.assumingMemoryBound(to: GstEvent.self).pointee.type == GST_EVENT_EOS {
                watch.arrive()
            }
            return GST_PAD_PROBE_OK
        }
        return watch
    }

    /// Ends the stream at `timestamp`: the first buffer at or after it is dropped and end of stream
    /// goes downstream instead (for a source pad), so the stream stops where another one did.
    ///
    /// The corresponding C function is `gst_pad_add_probe`.
    ///
    /// - Parameter timestamp: The presentation timestamp, in nanoseconds, at which the stream ends.
    package func endStream(atTimestamp timestamp: ClockTime) {
        let ended = Atomic(false)
        addProbe(GST_PAD_PROBE_TYPE_BUFFER) { pad, info in
            guard let data = info.data else { return GST_PAD_PROBE_OK }
            HandOver.received(data)
            let pts = data.assumingMemoryBound(to: GstBuffer.self).pointee.pts
            guard pts != GstClockTime.max, ClockTime(pts) >= timestamp else { return GST_PAD_PROBE_OK }
            if !ended.exchange(true, ordering: .acquiringAndReleasing) {
                _ = gst_pad_push_event(pad, gst_event_new_eos())
            }
            return GST_PAD_PROBE_DROP
        }
    }
}
