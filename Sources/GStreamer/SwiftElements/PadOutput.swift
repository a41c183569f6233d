import CGStreamer
import GstPipeSupport
import Synchronization

/// What leaves through a source pad of the element's own (a filter's, a pulled source's), in order:
/// before the first buffer the stream start, the caps and the segment, each again when it changes,
/// and the serialized events that waited for them; end of stream once. Held while pushing, so buffers
/// and events leave in one order even when a filter pushes from a thread of its own.
///
/// An element behind an appsrc has none of this: the appsrc does it.
///
/// (Not Sendable by itself, for the pad pointer: it lives inside the kind's object, which is.)
struct PadOutput: ~Copyable {
    // Not private: Swift 6.3 fails to compile (a broken module) when another file lays out a
    // ~Copyable struct whose stored property has a private type.
    /// What has gone out since the pad was last activated. (Unchecked: the pending events are owned
    /// references, touched only behind the Mutex.)
    struct State: @unchecked Sendable {
        var streamStarted = false
        var caps: Caps?
        var segment: GstSegment?
        /// The sequence number the segment went out with: upstream's, so a seek and the segments and
        /// end of stream it caused can be matched downstream (demuxers and sinks do).
        var segmentSeqnum: guint32?
        /// Serialized events that came before the output had caps, in their order (one reference each).
        var pending: [UnsafeMutablePointer<GstEvent>] = []
        /// End of stream went out: nothing more may follow until a flush or a new run.
        var ended = false
        var reportedUnlinked = false

        mutating func sendPending(_ pad: UnsafeMutablePointer<GstPad>) {
            for event in pending { _ = gst_pad_push_event(pad, event) }
            pending.removeAll()
        }
    }

    private let core: ElementCore
    /// The element's own source pad (its reference is the kind's).
    private let pad: UnsafeMutablePointer<GstPad>
    private let state = Locked(State())

    init(core: ElementCore, pad: UnsafeMutablePointer<GstPad>) {
        self.core = core
        self.pad = pad
    }

    /// The segment a buffer goes out in: `input`'s when it has one, else `fallback()`, else a new time
    /// segment; moved later by `offset` (see `Sample.init(buffer:caps:segmentFrom:offset:)`).
    static func segment(for input: Sample?, offset: ClockTime, fallback: () -> GstSegment?) -> GstSegment {
        var segment: GstSegment
        if let inputSegment = input.flatMap({ gst_sample_get_segment($0.pointer) }) {
            segment = inputSegment.pointee
        } else if let current = fallback() {
            segment = current
        } else {
            segment = GstSegment()
            gst_segment_init(&segment, GST_FORMAT_TIME)
        }
        segment.moveLater(by: offset)
        return segment
    }

    /// Pushes `buffer` through the pad, first sending what downstream must know before it: a stream
    /// start, the caps when they changed, `segment` when it or `seqnum` changed (the segment event then
    /// carries `seqnum`, upstream's segment's, when given), and the events that waited.
    func push(_ buffer: Buffer, caps: Caps, segment: GstSegment, seqnum: guint32? = nil) -> FlowResult {
        var segment = segment
        return state.withLock { output -> FlowResult in
            if output.ended || gst_pad_get_last_flow_return(pad) == GST_FLOW_EOS { return .endOfStream }
            if !output.streamStarted {
                let id = gst_pad_create_stream_id(pad, core.element, nil)
                defer { g_free(id) }
                _ = gst_pad_push_event(pad, gst_event_new_stream_start(id))
                output.streamStarted = true
            }
            if output.caps.map({ !$0.isSameCaps(as: caps) && $0 != caps }) ?? true {
                guard gst_pad_push_event(pad, gst_event_new_caps(caps.pointer)) != 0 else {
                    return pad.pointee.object.flags & GST_PAD_FLAG_FLUSHING.rawValue != 0 ? .flushing : .notNegotiated
                }
                output.caps = caps
            }
            let segmentChanged = output.segment.map { previous in
                withUnsafePointer(to: previous) { gst_segment_is_equal($0, &segment) == 0 }
            }
            if segmentChanged ?? true || (seqnum != nil && seqnum != output.segmentSeqnum) {
                let event = gst_event_new_segment(&segment)!
                if let seqnum { gst_event_set_seqnum(event, seqnum) }
                _ = gst_pad_push_event(pad, event)
                output.segment = segment
                output.segmentSeqnum = seqnum
            }
            output.sendPending(pad)
            let flow = gst_pad_push(pad, buffer.newReference())
            if flow == GST_FLOW_NOT_LINKED, gst_pad_is_linked(pad) == 0, !output.reportedUnlinked {
                // The source upstream would report it in its own name, and the user would look there.
                output.reportedUnlinked = true
                core.postError(
                    "Internal data stream error.",
                    debug: "\(core.name)'s src pad is not linked to anything: streaming stopped, reason not-linked")
            }
            return FlowResult(flow)
        }
    }

    /// Ends the stream downstream, once: what waited goes first, then `event` (upstream's) or a new one.
    func end(with event: UnsafeMutablePointer<GstEvent>? = nil) -> FlowResult {
        state.withLock { output in
            guard !output.ended else {
                if let event { gst_event_unref(event) }
                return .ok
            }
            output.ended = true
            output.sendPending(pad)
            return gst_pad_push_event(pad, event ?? gst_event_new_eos()) != 0 ? .ok : .error
        }
    }

    /// Sends upstream's stream start on at once.
    func startStream(with event: UnsafeMutablePointer<GstEvent>) -> Bool {
        state.withLock { output in
            output.streamStarted = true
            return gst_pad_push_event(pad, event) != 0
        }
    }

    /// Sends a serialized event on in its place among the buffers: at once when the output has caps
    /// and a segment, else after them (before the next buffer).
    func sendInOrder(_ event: UnsafeMutablePointer<GstEvent>) -> Bool {
        state.withLock { output in
            guard output.caps != nil, output.segment != nil else {
                output.pending.append(event)
                return true
            }
            return gst_pad_push_event(pad, event) != 0
        }
    }

    /// Sends a flush stop on: downstream drops its segment, so the next buffer takes a new one; events
    /// that waited and are not sticky belong to the flushed data; a stream ended may go on.
    func flushStop(with event: UnsafeMutablePointer<GstEvent>) -> Bool {
        state.withLock { output in
            output.segment = nil
            output.segmentSeqnum = nil
            output.ended = false
            output.pending.removeAll { pending in
                guard pending.pointee.type.rawValue & GST_EVENT_TYPE_STICKY.rawValue == 0 else { return false }
                gst_event_unref(pending)
                return true
            }
            return gst_pad_push_event(pad, event) != 0
        }
    }

    /// Whether end of stream went out.
    var hasEnded: Bool { state.withLock { $0.ended } }

    /// Whether a push found the pad unlinked and said so on the bus.
    var reportedUnlinked: Bool { state.withLock { $0.reportedUnlinked } }

    /// Forgets what went out: the pad was deactivated (PAUSED → READY), which drops sticky events.
    func reset() {
        state.withLock { output in
            for event in output.pending { gst_event_unref(event) }
            output = State()
        }
    }
}
