import CGStreamer
import CGStreamerShim
import Synchronization

// A filter written in Swift is one element with two pads of its own, no appsink or appsrc: buffers
// reach `render` on the upstream streaming thread, and what the filter hands on leaves through the
// source pad on the same thread. Nothing waits in a queue between the two, and every event upstream
// sends goes on downstream in its place among the buffers: tags, gaps, custom events, stream-group-done,
// instant rate changes. Caps and segments are the filter's own: its output caps go out with its first
// buffer of that shape, and its segment is the input's (moved by an encoder's offset).

/// What upstream's events said, for the buffers that follow. (Unchecked: GstSegment is a plain C
/// struct copied by value; this lives behind the bridge's Mutex.)
struct FilterInput: @unchecked Sendable {
    var caps: Caps?
    var segment: GstSegment?
}

/// What has gone out through a filter's source pad since it was last activated. (Unchecked: the
/// pending events are owned references, touched only behind the bridge's Mutex.)
struct FilterOutput: @unchecked Sendable {
    var streamStarted = false
    var caps: Caps?
    var segment: GstSegment?
    /// Serialized events that came before the output had caps, in their order (one reference each).
    var pending: [UnsafeMutablePointer<GstEvent>] = []
    /// End of stream went out: nothing more may follow until a flush or a new run.
    var ended = false
    var reportedUnlinked = false
}

extension SwiftElement {
    /// The bridge a filter's or a pulled source's pad belongs to, kept in the pad's `element_private` field.
    static func bridge(_ pad: UnsafeMutablePointer<GstPad>?) -> SwiftElement {
        Unmanaged<SwiftElement>.fromOpaque(pad!.pointee.element_private).takeUnretainedValue()
    }

    static func addPad(to element: UnsafeMutablePointer<GstElement>, name: String) -> UnsafeMutablePointer<GstPad> {
        let template = CGStreamerShim_element_get_pad_template(element, name)!
        let pad = gst_pad_new_from_template(template, name)!
        gst_element_add_pad(element, pad)
        return pad
    }

    /// The filter's pad functions. Each pad holds the bridge in `element_private`, without a reference:
    /// the element owns both, and its pads are removed and deactivated (in dispose) before the bridge
    /// goes (in finalize, or later when someone still holds it, and with it the pads).
    func installFilterFunctions(srcPad: UnsafeMutablePointer<GstPad>, sinkPad: UnsafeMutablePointer<GstPad>) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        srcPad.pointee.element_private = me
        sinkPad.pointee.element_private = me
        gst_pad_set_chain_function_full(
            sinkPad, { pad, _, buffer in
                guard let buffer else { return GST_FLOW_ERROR }
                return SwiftElement.bridge(pad).chain(buffer)
            }, nil, nil)
        gst_pad_set_event_function_full(
            sinkPad, { pad, _, event in
                guard let event else { return 0 }
                return SwiftElement.bridge(pad).sinkEvent(event) ? 1 : 0
            }, nil, nil)
        gst_pad_set_query_function_full(
            sinkPad, { pad, parent, query in
                guard let pad, let query else { return 0 }
                return SwiftElement.bridge(pad).sinkQuery(pad, parent, query)
            }, nil, nil)
        gst_pad_set_query_function_full(
            srcPad, { pad, parent, query in
                guard let pad, let query else { return 0 }
                return SwiftElement.bridge(pad).srcQuery(pad, parent, query)
            }, nil, nil)
        gst_pad_set_event_function_full(
            srcPad, { pad, _, event in
                // Upstream events (seek, QoS, navigation, reconfigure, custom) travel on through the sink pad.
                gst_pad_push_event(SwiftElement.bridge(pad).sinkPad, event)
            }, nil, nil)
    }

    // MARK: In

    /// A buffer from upstream, on its streaming thread. The flow returned is the filter's: after its
    /// output ended, its pushes say end of stream, and it decides what to tell upstream.
    private func chain(_ buffer: UnsafeMutablePointer<GstBuffer>) -> GstFlowReturn {
        let sample = filterInput.withLock { input in
            guard var segment = input.segment else {
                return Sample(taking: gst_sample_new(buffer, input.caps?.pointer, nil, nil))
            }
            return Sample(taking: gst_sample_new(buffer, input.caps?.pointer, &segment, nil))
        }
        gst_buffer_unref(buffer)
        ensureStarted()
        let started = counters.now
        let result = implementation.render(sample)
        counters.called(frameIn: true, since: started)
        return result.gstFlow
    }

    /// Upstream's events on the sink pad: caps and segments are kept for the buffers that follow,
    /// flushes and stream starts go on at once, end of stream after the filter's last output, and the
    /// rest in order with the output.
    private func sinkEvent(_ event: UnsafeMutablePointer<GstEvent>) -> Bool {
        guard let srcPad else {
            gst_event_unref(event)
            return false
        }
        switch event.pointee.type {
        case GST_EVENT_CAPS:
            var caps: UnsafeMutablePointer<GstCaps>?
            gst_event_parse_caps(event, &caps)
            let kept = caps.map { Caps(borrowing: $0) }
            gst_event_unref(event)
            filterInput.withLock { $0.caps = kept }
            return kept != nil
        case GST_EVENT_SEGMENT:
            var segment: UnsafePointer<GstSegment>?
            gst_event_parse_segment(event, &segment)
            let kept = segment?.pointee
            gst_event_unref(event)
            filterInput.withLock { $0.segment = kept }
            return kept != nil
        case GST_EVENT_FLUSH_START:
            // Not under the output lock: a push may be waiting downstream, and this flush frees it.
            implementation.flushStarted()
            return gst_pad_push_event(srcPad, event) != 0
        case GST_EVENT_FLUSH_STOP:
            let forwarded = filterOutput.withLock { output in
                // Downstream drops its segment: the next buffer takes a new one; non-sticky events
                // that waited belong to the flushed data.
                output.segment = nil
                output.ended = false
                output.pending.removeAll { pending in
                    guard pending.pointee.type.rawValue & GST_EVENT_TYPE_STICKY.rawValue == 0 else { return false }
                    gst_event_unref(pending)
                    return true
                }
                return gst_pad_push_event(srcPad, event) != 0
            }
            implementation.flushed()
            return forwarded
        case GST_EVENT_EOS:
            // The filter may hand on what it still holds (an encoder's delayed frames) first.
            implementation.endOfStream()
            _ = endStreamDownstream(with: event)
            return true
        case GST_EVENT_STREAM_START:
            return filterOutput.withLock { output in
                output.streamStarted = true
                return gst_pad_push_event(srcPad, event) != 0
            }
        default:
            guard event.pointee.type.rawValue & GST_EVENT_TYPE_SERIALIZED.rawValue != 0 else { return gst_pad_push_event(srcPad, event) != 0 }
            return filterOutput.withLock { output in
                guard output.caps != nil, output.segment != nil else {
                    output.pending.append(event)
                    return true
                }
                return gst_pad_push_event(srcPad, event) != 0
            }
        }
    }

    // MARK: Out

    /// Pushes `buffer` through the source pad, first sending what downstream must know before it: a
    /// stream start, the caps when they changed, the segment (the input's, moved by `offset`) when it
    /// changed, and the events that waited for them.
    func pushDownstream(_ buffer: Buffer, caps: Caps, segmentFrom input: Sample?, offset: ClockTime) -> FlowResult {
        guard let srcPad else { return .error }
        var segment: GstSegment
        // A pulled source has no sink pad, so no input segment: no lock taken for it on every buffer.
        if let inputSegment = input.flatMap({ gst_sample_get_segment($0.pointer) }) {
            segment = inputSegment.pointee
        } else if !pulled, let current = filterInput.withLock({ $0.segment }) {
            segment = current
        } else {
            segment = GstSegment()
            gst_segment_init(&segment, GST_FORMAT_TIME)
        }
        if offset != 0 {
            segment.start += guint64(offset)
            if segment.stop != guint64.max { segment.stop += guint64(offset) }
            if segment.position != guint64.max { segment.position += guint64(offset) }
        }
        return filterOutput.withLock { output -> FlowResult in
            if output.ended || gst_pad_get_last_flow_return(srcPad) == GST_FLOW_EOS { return .endOfStream }
            if !output.streamStarted {
                let id = gst_pad_create_stream_id(srcPad, element, nil)
                defer { g_free(id) }
                _ = gst_pad_push_event(srcPad, gst_event_new_stream_start(id))
                output.streamStarted = true
            }
            if output.caps.map({ !$0.isSameCaps(as: caps) && $0 != caps }) ?? true {
                guard gst_pad_push_event(srcPad, gst_event_new_caps(caps.pointer)) != 0 else {
                    return srcPad.pointee.object.flags & GST_PAD_FLAG_FLUSHING.rawValue != 0 ? .flushing : .notNegotiated
                }
                output.caps = caps
            }
            if output.segment.map({ previous in withUnsafePointer(to: previous) { gst_segment_is_equal($0, &segment) == 0 } }) ?? true {
                _ = gst_pad_push_event(srcPad, gst_event_new_segment(&segment))
                output.segment = segment
            }
            sendPending(&output, srcPad)
            let flow = gst_pad_push(srcPad, gst_buffer_ref(buffer.pointer))
            if flow == GST_FLOW_NOT_LINKED, gst_pad_is_linked(srcPad) == 0, !output.reportedUnlinked {
                // The source upstream would report it in its own name, and the user would look there.
                output.reportedUnlinked = true
                postError("Internal data stream error.", debug: "\(name)'s src pad is not linked to anything: streaming stopped, reason not-linked")
            }
            return FlowResult(flow)
        }
    }

    private func sendPending(_ output: inout FilterOutput, _ srcPad: UnsafeMutablePointer<GstPad>) {
        for event in output.pending { _ = gst_pad_push_event(srcPad, event) }
        output.pending.removeAll()
    }

    /// Ends the stream downstream, once: what waited goes first, then `event` (upstream's) or a new one.
    func endStreamDownstream(with event: UnsafeMutablePointer<GstEvent>? = nil) -> FlowResult {
        guard let srcPad else {
            if let event { gst_event_unref(event) }
            return .error
        }
        return filterOutput.withLock { output in
            guard !output.ended else {
                if let event { gst_event_unref(event) }
                return .ok
            }
            output.ended = true
            sendPending(&output, srcPad)
            return gst_pad_push_event(srcPad, event ?? gst_event_new_eos()) != 0 ? .ok : .error
        }
    }

    /// Forgets what went out: the pads were deactivated (PAUSED → READY), which drops sticky events.
    func resetFilterStream() {
        filterOutput.withLock { output in
            for event in output.pending { gst_event_unref(event) }
            output = FilterOutput()
        }
        filterInput.withLock { $0 = FilterInput() }
    }
}
