import CGStreamer
import GstPipeSupport
import Synchronization

/// A filter: one element with two pads of its own, no appsink or appsrc. Buffers reach `render` on
/// the upstream streaming thread, and what the filter hands on leaves through the source pad on the
/// same thread. Nothing waits in a queue between the two, and every event upstream sends goes on
/// downstream in its place among the buffers: tags, gaps, custom events, stream-group-done, instant
/// rate changes. Caps and segments are the filter's own: its output caps go out with its first buffer
/// of that shape, and its segment is the input's (moved by an encoder's offset). Queries and upstream
/// events cross the element as they would cross any filter (PadFilter+Forwarding.swift).
///
/// (Unchecked Sendable: the pads are references held from init to deinit; the state that changes is
/// behind locks.)
final class PadFilter: ElementBody, @unchecked Sendable {
    /// A filter uses neither factory; it asks for the whole app plugin, as every Swift element did
    /// while filters were built on both, so that an installation without it is told at registration
    /// (MissingAppPluginTests) rather than by whichever element happens to need it first.
    static let appFactories = ["appsrc", "appsink"]
    static let isPlainElement = true

    /// What upstream's events said, for the buffers that follow. (Unchecked: GstSegment is a plain C
    /// struct copied by value; this lives behind a Mutex.)
    struct Input: @unchecked Sendable {
        var caps: Caps?
        var segment: GstSegment?
        /// The segment event's sequence number, which the output's segment keeps.
        var segmentSeqnum: guint32?
    }

    let core: ElementCore
    // One reference each, held from init to deinit.
    let sinkPad: UnsafeMutablePointer<GstPad>
    let ownSrcPad: UnsafeMutablePointer<GstPad>
    var srcPad: UnsafeMutablePointer<GstPad>? { ownSrcPad }
    /// What upstream's events said, read by each buffer (streaming thread only).
    private let input = Locked(Input())
    let output: PadOutput
    /// What the sink pad accepts, within its template (`restrictSinkCaps`).
    let restriction = Locked<Caps?>(nil)

    init(core: ElementCore, description: ElementTypeDescription) {
        self.core = core
        // The element must not look like a sink (the pipeline would wait for its EOS and preroll) nor
        // a source.
        core.element.pointee.object.flags &= ~(GST_ELEMENT_FLAG_SINK.rawValue | GST_ELEMENT_FLAG_SOURCE.rawValue)
        ownSrcPad = ElementPads.add(to: core.element, name: "src")
        sinkPad = ElementPads.add(to: core.element, name: "sink")
        output = PadOutput(core: core, pad: ownSrcPad)
    }

    deinit {
        gst_object_unref(UnsafeMutableRawPointer(ownSrcPad))
        gst_object_unref(UnsafeMutableRawPointer(sinkPad))
    }

    /// The pads' functions. Each pad holds this object in `element_private`, without a reference, and
    /// reaches it only through the element GStreamer holds for the call (`ElementPads.owner`): a pad
    /// outlived by its element answers as a flushing pad.
    func installCallbacks() {
        ElementPads.setOwner(self, of: ownSrcPad)
        ElementPads.setOwner(self, of: sinkPad)
        gst_pad_set_chain_function_full(
            sinkPad,
            { pad, parent, buffer in
                guard let buffer else { return GST_FLOW_ERROR }
                guard let filter = ElementPads.owner(of: pad, parent: parent, as: PadFilter.self) else {
                    gst_buffer_unref(buffer)
                    return GST_FLOW_FLUSHING
                }
                return filter.chain(buffer)
            }, nil, nil)
        gst_pad_set_event_function_full(
            sinkPad,
            { pad, parent, event in
                guard let event else { return 0 }
                guard let filter = ElementPads.owner(of: pad, parent: parent, as: PadFilter.self) else {
                    gst_event_unref(event)
                    return 0
                }
                return filter.sinkEvent(event) ? 1 : 0
            }, nil, nil)
        installForwarding()
    }

    // MARK: In

    /// A buffer from upstream, on its streaming thread. The flow returned is the filter's: after its
    /// output ended, its pushes say end of stream, and it decides what to tell upstream.
    private func chain(_ buffer: UnsafeMutablePointer<GstBuffer>) -> GstFlowReturn {
        let sample = input.withLock { input in
            guard var segment = input.segment else {
                return Sample(taking: gst_sample_new(buffer, input.caps?.pointer, nil, nil))
            }
            return Sample(taking: gst_sample_new(buffer, input.caps?.pointer, &segment, nil))
        }
        gst_buffer_unref(buffer)
        core.startForData()
        let started = core.counters.now
        let result = core.implementation.render(sample)
        core.counters.called(frameIn: true, since: started)
        return result.gstFlow
    }

    /// Upstream's events on the sink pad: caps and segments are kept for the buffers that follow,
    /// flushes and stream starts go on at once, end of stream after the filter's last output, and the
    /// rest in order with the output.
    private func sinkEvent(_ event: UnsafeMutablePointer<GstEvent>) -> Bool {
        switch event.pointee.type {
        case GST_EVENT_CAPS:
            var caps: UnsafeMutablePointer<GstCaps>?
            gst_event_parse_caps(event, &caps)
            let kept = caps.map { Caps(borrowing: $0) }
            gst_event_unref(event)
            input.withLock { $0.caps = kept }
            return kept != nil
        case GST_EVENT_SEGMENT:
            var segment: UnsafePointer<GstSegment>?
            gst_event_parse_segment(event, &segment)
            let kept = segment?.pointee
            let seqnum = gst_event_get_seqnum(event)
            gst_event_unref(event)
            input.withLock { input in
                input.segment = kept
                input.segmentSeqnum = seqnum
            }
            return kept != nil
        case GST_EVENT_FLUSH_START:
            // Not under the output's lock: a push may be waiting downstream, and this flush frees it.
            core.implementation.flushStarted()
            return gst_pad_push_event(ownSrcPad, event) != 0
        case GST_EVENT_FLUSH_STOP:
            let forwarded = output.flushStop(with: event)
            core.implementation.flushed()
            return forwarded
        case GST_EVENT_EOS:
            // The filter may hand on what it still holds (an encoder's delayed frames) first.
            core.implementation.endOfStream()
            _ = output.end(with: event)
            return true
        case GST_EVENT_STREAM_START:
            return output.startStream(with: event)
        default:
            guard event.pointee.type.rawValue & GST_EVENT_TYPE_SERIALIZED.rawValue != 0 else {
                return gst_pad_push_event(ownSrcPad, event) != 0
            }
            return output.sendInOrder(event)
        }
    }

    // MARK: Out

    func push(_ buffer: Buffer, caps: Caps, segmentFrom input: Sample?, segmentOffset: ClockTime) -> FlowResult {
        core.whileAlive { () -> FlowResult in
            let started = core.counters.now
            let segment = PadOutput.segment(for: input, offset: segmentOffset) { self.input.withLock { $0.segment } }
            let seqnum = self.input.withLock { $0.segmentSeqnum }
            let result = output.push(buffer, caps: caps, segment: segment, seqnum: seqnum)
            core.pool.keepSpare(buffer)
            core.counters.pushed(result == .ok, since: started)
            return result
        } ?? .flushing
    }

    func endOfStream() -> FlowResult {
        core.whileAlive { output.end() } ?? .flushing
    }

    func restrictSinkCaps(_ caps: Caps) {
        restriction.withLock { $0 = caps }
    }

    func padsDeactivated() {
        output.reset()
        input.withLock { $0 = Input() }
        // Down to READY a run ends: what the filter holds is stale, as after a flush.
        core.implementation.flushed()
    }
}
