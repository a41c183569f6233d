import CGStreamer
import CGStreamerShim
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A source made on request (pull mode) is one element with a source pad of its own and no appsrc:
// while the pad is active (PAUSED and PLAYING) it runs a task, a streaming thread that calls
// `needData` in a loop, and what the source pushes during the call leaves through the pad on that
// same thread. Through an appsrc each buffer went through a need-data call, a queue, a wake-up of
// the appsrc's own thread and basesrc's create: about 2.5 µs a buffer, more than making 10 ms of
// noise takes. Stream start, caps and the segment go out before the first buffer, as a filter's do
// (pushDownstream in SwiftElement+Filter.swift); timestamps are the source's (a sample count, for audio).
//
// Like an appsrc in stream mode (what sources had before), such a source is not live and not
// seekable: it refuses seeks, and answers a latency query with no latency of its own.

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
            let (exchanged, original) = word.compareExchange(expected: value, desired: next, ordering: .acquiringAndReleasing)
            if exchanged { return }
            value = original
        }
    }
}

extension SwiftElement {
    /// The pulled source's pad functions. The pad holds the bridge in `element_private`, without a
    /// reference: the element owns both, and the pad's task is stopped (READY) before either goes.
    func installSourceFunctions(srcPad: UnsafeMutablePointer<GstPad>) {
        srcPad.pointee.element_private = Unmanaged.passUnretained(self).toOpaque()
        gst_pad_set_activatemode_function_full(
            srcPad, { pad, _, mode, active in
                guard let pad, mode == GST_PAD_MODE_PUSH else { return 0 }
                return SwiftElement.bridge(pad).activateSource(pad, active: active != 0) ? 1 : 0
            }, nil, nil)
        gst_pad_set_event_function_full(
            srcPad, { pad, parent, event in
                guard let event else { return 0 }
                // The default handler would say yes to a seek it drops.
                guard event.pointee.type != GST_EVENT_SEEK else {
                    gst_event_unref(event)
                    return 0
                }
                return gst_pad_event_default(pad, parent, event)
            }, nil, nil)
        gst_pad_set_query_function_full(
            srcPad, { pad, parent, query in
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

    /// Starts the pad's task (READY → PAUSED) or stops it and waits for its thread (PAUSED → READY;
    /// the pad is flushing by then, so a push waiting downstream has returned).
    private func activateSource(_ pad: UnsafeMutablePointer<GstPad>, active: Bool) -> Bool {
        guard active else { return gst_pad_stop_task(pad) != 0 }
        sourceRound.reset()
        return gst_pad_start_task(
            pad, { userData in
                let pad = userData!.assumingMemoryBound(to: GstPad.self)
                SwiftElement.bridge(pad).produceOnTask(pad)
            }, UnsafeMutableRawPointer(pad), nil) != 0
    }

    /// One turn of the task: the source makes what it makes in one `needData`; the task pauses once
    /// the stream ended, was flushed or failed, as basesrc's does.
    private func produceOnTask(_ pad: UnsafeMutablePointer<GstPad>) {
        if filterOutput.withLock({ $0.ended }) {
            gst_pad_pause_task(pad)
            return
        }
        ensureStarted()
        let started = counters.now
        let before = sourceRound.state.pushes
        sourceTaskThread.store(currentThreadID, ordering: .relaxed)
        implementation.needData()
        sourceTaskThread.store(0, ordering: .relaxed)
        counters.called(frameIn: false, since: started)
        let (flow, pushes) = sourceRound.state
        switch flow {
        case .ok:
            // A call that pushed nothing (a source that pushes from a thread of its own, or has
            // nothing yet) is asked again a millisecond later rather than in a spin.
            if pushes == before && !filterOutput.withLock({ $0.ended }) { usleep(1000) }
        case .flushing:
            gst_pad_pause_task(pad)
        case .endOfStream:
            // Downstream wants no more (or the source ended): it still gets end of stream, once.
            _ = endStreamDownstream()
            gst_pad_pause_task(pad)
        case .notLinked, .notNegotiated, .error:
            let reported = filterOutput.withLock { $0.reportedUnlinked }
            if !(flow == .notLinked && reported) {
                postError("Internal data stream error.", debug: "\(name): streaming stopped, reason \(flow)")
            }
            _ = endStreamDownstream()
            gst_pad_pause_task(pad)
        }
    }
}
