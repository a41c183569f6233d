import CGStreamer
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A source made on request (pull mode): one element with a source pad of its own and no appsrc.
/// While the pad is active (PAUSED and PLAYING) it runs a task, a streaming thread that calls
/// `needData` in a loop, and what the source pushes during the call leaves through the pad on that
/// same thread. Through an appsrc each buffer went through a need-data call, a queue, a wake-up of
/// the appsrc's own thread and basesrc's create: about 2.5 µs a buffer, more than making 10 ms of
/// noise takes. Stream start, caps and the segment go out before the first buffer, as a filter's do
/// (PadOutput); timestamps are the source's (a sample count, for audio).
///
/// Like an appsrc in stream mode (what sources had before), such a source is not live and not
/// seekable: it refuses seeks, and answers a latency query with no latency of its own.
///
/// (Unchecked Sendable: the pad is a reference held from init to deinit; the state that changes is
/// atomic or behind locks.)
final class PadSource: ElementBody, @unchecked Sendable {
    static let appFactories: [String] = []
    static let isPlainElement = true

    private let core: ElementCore
    /// The element's own source pad (a reference of ours).
    private let pad: UnsafeMutablePointer<GstPad>
    var srcPad: UnsafeMutablePointer<GstPad>? { pad }
    private let output: PadOutput
    /// How the last push went, and how many went out: the task reads both after each `needData`.
    private let round = SourceRound()
    /// The task's thread (`currentThreadID`) while it is in `needData`, else 0.
    private let taskThread = Atomic<UInt>(0)

    init(core: ElementCore, description: ElementTypeDescription) {
        self.core = core
        // GstBin learns that an element is a source from this flag, which appsrc gives a bin by being
        // its child.
        core.element.pointee.object.flags |= GST_ELEMENT_FLAG_SOURCE.rawValue
        pad = ElementPads.add(to: core.element, name: "src")
        output = PadOutput(core: core, pad: pad)
    }

    deinit {
        gst_object_unref(UnsafeMutableRawPointer(pad))
    }

    /// The pad's functions. The pad holds this object in `element_private`, without a reference, and
    /// reaches it only while the element is held: GStreamer's reference for a pad function, the task's
    /// own for each of its turns.
    func installCallbacks() {
        ElementPads.setOwner(self, of: pad)
        gst_pad_set_activatemode_function_full(
            pad,
            { pad, parent, mode, active in
                guard let pad, mode == GST_PAD_MODE_PUSH else { return 0 }
                // Stopping the task needs nothing of the element's: a pad outlived by it can still stop.
                guard active != 0 else { return gst_pad_stop_task(pad) }
                guard let source = ElementPads.owner(of: pad, parent: parent, as: PadSource.self) else { return 0 }
                return source.activate(pad) ? 1 : 0
            }, nil, nil)
        gst_pad_set_event_function_full(
            pad,
            { pad, parent, event in
                guard let event else { return 0 }
                // The default handler would say yes to a seek it drops.
                guard event.pointee.type != GST_EVENT_SEEK else {
                    gst_event_unref(event)
                    return 0
                }
                return gst_pad_event_default(pad, parent, event)
            }, nil, nil)
        gst_pad_set_query_function_full(
            pad,
            { pad, parent, query in
                guard let query else { return 0 }
                switch query.pointee.type {
                case GST_QUERY_LATENCY:
                    // Not live: buffers are made as fast as downstream takes them, with no wait of their own.
                    gst_query_set_latency(query, 0, 0, GstClockTime.max)
                    return 1
                case GST_QUERY_SEEKING:
                    var format = GST_FORMAT_UNDEFINED
                    gst_query_parse_seeking(query, &format, nil, nil, nil)
                    gst_query_set_seeking(query, format, 0, -1, -1)
                    return 1
                default:
                    return gst_pad_query_default(pad, parent, query)
                }
            }, nil, nil)
    }

    /// Starts the pad's task (READY → PAUSED). Deactivation (PAUSED → READY) stops it and waits for its
    /// thread; the pad is flushing by then, so a push waiting downstream has returned.
    private func activate(_ pad: UnsafeMutablePointer<GstPad>) -> Bool {
        round.reset()
        return gst_pad_start_task(
            pad,
            { userData in
                let pad = userData!.assumingMemoryBound(to: GstPad.self)
                // A task function gets no parent from GStreamer: each turn holds the element itself.
                guard let element = gst_pad_get_parent_element(pad) else {
                    gst_pad_pause_task(pad)
                    return
                }
                defer { gst_object_unref(UnsafeMutableRawPointer(element)) }
                let parent = UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstObject.self)
                ElementPads.owner(of: pad, parent: parent, as: PadSource.self)?.produceOnTask(pad)
            }, UnsafeMutableRawPointer(pad), nil) != 0
    }

    /// One turn of the task: the source makes what it makes in one `needData`; the task pauses once
    /// the stream ended, was flushed or failed, as basesrc's does.
    private func produceOnTask(_ pad: UnsafeMutablePointer<GstPad>) {
        if output.hasEnded {
            gst_pad_pause_task(pad)
            return
        }
        core.startForData()
        let started = core.counters.now
        let before = round.state.pushes
        taskThread.store(currentThreadID, ordering: .relaxed)
        core.implementation.needData()
        taskThread.store(0, ordering: .relaxed)
        core.counters.called(frameIn: false, since: started)
        let (flow, pushes) = round.state
        switch flow {
        case .ok:
            // A call that pushed nothing (a source that pushes from a thread of its own, or has
            // nothing yet) is asked again a millisecond later rather than in a spin.
            if pushes == before && !output.hasEnded { usleep(1000) }
        case .flushing:
            gst_pad_pause_task(pad)
        case .endOfStream:
            // Downstream wants no more (or the source ended): it still gets end of stream, once.
            _ = output.end()
            gst_pad_pause_task(pad)
        case .notLinked, .notNegotiated, .error:
            if !(flow == .notLinked && output.reportedUnlinked) {
                core.postError("Internal data stream error.", debug: "\(core.name): streaming stopped, reason \(flow)")
            }
            _ = output.end()
            gst_pad_pause_task(pad)
        }
    }

    func push(_ buffer: Buffer, caps: Caps, segmentFrom input: Sample?, segmentOffset: ClockTime) -> FlowResult {
        // On the source's own task the element is alive for sure (the task is stopped before it goes):
        // no weak reference to take, which locks GLib's table of them, for every buffer.
        if taskThread.load(ordering: .relaxed) == currentThreadID {
            return pushWhileAlive(buffer, caps: caps, segmentFrom: input, segmentOffset: segmentOffset)
        }
        return core.whileAlive {
            pushWhileAlive(buffer, caps: caps, segmentFrom: input, segmentOffset: segmentOffset)
        } ?? .flushing
    }

    private func pushWhileAlive(
        _ buffer: Buffer, caps: Caps, segmentFrom input: Sample?, segmentOffset: ClockTime
    ) -> FlowResult {
        let started = core.counters.now
        // No sink pad, so no segment from upstream: no lock taken for one on every buffer.
        let segment = PadOutput.segment(for: input, offset: segmentOffset) { nil }
        let result = output.push(buffer, caps: caps, segment: segment)
        core.pool.keepSpare(buffer)
        round.pushed(result)
        core.counters.pushed(result == .ok, since: started)
        return result
    }

    func endOfStream() -> FlowResult {
        core.whileAlive { output.end() } ?? .flushing
    }

    func padsDeactivated() {
        output.reset()
    }

    /// The application's end of stream (Ctrl-C in gstpipe) goes out of the pad after the buffer being
    /// pushed, if any; the task then pauses at its next turn, as on the source's own end. False when
    /// the pad refused it (flushing: not active, or a flush going on).
    func takeEndOfStream(_ event: UnsafeMutablePointer<GstEvent>) -> Bool? {
        output.end(with: event) == .ok
    }
}

/// The calling thread, cheaply: pthread_self reads a register, where g_thread_self looks GLib's
/// thread data up (a cost seen on every buffer of a pulled source).
var currentThreadID: UInt {
    #if canImport(Glibc)
    UInt(pthread_self())
    #else
    UInt(bitPattern: pthread_self())
    #endif
}

/// How the last push of a pulled source went, and how many went out, in one atomic word (the count
/// above the low byte, the GstFlowReturn in it): its task reads both after each `needData`, and a
/// push updates both, with no lock taken for every buffer.
final class SourceRound: Sendable {
    private let word = Atomic<Int>(0)

    var state: (flow: FlowResult, pushes: Int) {
        let value = word.load(ordering: .acquiring)
        return (FlowResult(GstFlowReturn(rawValue: Int32(Int8(truncatingIfNeeded: value)))), value >> 8)
    }

    /// No push yet, flow OK (a new run).
    func reset() { word.store(0, ordering: .releasing) }

    /// One more push, which returned `flow`.
    func pushed(_ flow: FlowResult) {
        let code = Int(UInt8(truncatingIfNeeded: flow.gstFlow.rawValue))
        var value = word.load(ordering: .relaxed)
        while true {
            let next = ((value >> 8) + 1) << 8 | code
            let (exchanged, original) = word.compareExchange(
                expected: value, desired: next, ordering: .acquiringAndReleasing)
            if exchanged { return }
            value = original
        }
    }
}
