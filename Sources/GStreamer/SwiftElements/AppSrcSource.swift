import CGStreamer
import GstPipeSupport
import Synchronization

/// A source that pushes from threads of its own (push mode, like a capturer): a bin around an appsrc
/// (`format=time`, `block=true`, two buffers at most), whose source pad is the bin's. A push waits while
/// the queue is full, so a slow downstream slows the source; the appsrc's streaming thread calls
/// `needData` when the queue runs dry, for sources that make data when asked.
///
/// (Unchecked Sendable: the pointers are references held from init to deinit; the state that changes
/// is behind locks.)
final class AppSrcSource: ElementBody, @unchecked Sendable {
    static let appFactories = ["appsrc"]
    static let isPlainElement = false

    /// The appsrc's settings: timestamps in time, a push waits while two buffers are queued (whatever
    /// their size), segments from pushed samples, no signals (callbacks instead).
    private static let settings: KeyValuePairs<String, String> = [
        "format": "time", "block": "true", "max-bytes": "0", "max-buffers": "2",
        "handle-segment-change": "true", "stream-type": "stream", "emit-signals": "false"
    ]

    private let core: ElementCore
    /// The bin's ghost source pad, for the appsrc's (a reference of ours, as the two below).
    let srcPad: UnsafeMutablePointer<GstPad>?
    private let appsrc: UnsafeMutablePointer<GstElement>
    private let appsrcPad: UnsafeMutablePointer<GstPad>
    /// The caps last given to the appsrc in this run: set again only when they change.
    private let caps = Locked<Caps?>(nil)
    /// Whether need-data is running (a pull-mode source producing on the appsrc's own streaming
    /// thread), and whether a push during it lifted the queue's limit (see `installCallbacks`).
    private let producing = Locked<(active: Bool, raised: Bool, pushes: Int)>((false, false, 0))

    private var source: UnsafeMutablePointer<GstAppSrc> {
        UnsafeMutableRawPointer(appsrc).assumingMemoryBound(to: GstAppSrc.self)
    }

    init(core: ElementCore, description: ElementTypeDescription) {
        self.core = core
        appsrc = ElementPads.addChild(to: core.element, factory: "appsrc", properties: Self.settings)
        appsrcPad = gst_element_get_static_pad(appsrc, "src")!
        srcPad = ElementPads.addGhost(to: core.element, name: "src", target: appsrc)
    }

    deinit {
        gst_object_unref(UnsafeMutableRawPointer(srcPad!))
        gst_object_unref(UnsafeMutableRawPointer(appsrcPad))
        gst_object_unref(UnsafeMutableRawPointer(appsrc))
    }

    func installCallbacks() {
        var callbacks = GstAppSrcCallbacks()
        callbacks.need_data = { _, _, userData in
            let body = ElementPads.owner(ofUserData: userData, as: AppSrcSource.self)
            let core = body.core
            core.startForData()
            let started = core.counters.now
            // need-data runs on the appsrc's own streaming thread, the one that empties its queue:
            // a pull-mode source pushing more than the queue holds (an audio source cutting one
            // produce call into several buffers) would wait there for itself. While it produces,
            // a push that finds the queue full lifts its limit (once), and the limit comes back
            // afterwards: the queue grows by one call's output at most. Setting the limit only
            // when needed keeps the usual one-buffer call cheap (a property set by name on every
            // call cost 1.4 µs a buffer, a third of audionoise's time).
            body.producing.withLock { $0 = (true, false, 0) }
            core.implementation.needData()
            let raised = body.producing.withLock { state in
                defer { state = (false, false, 0) }
                return state.raised
            }
            if raised { gst_app_src_set_max_buffers(body.source, 2) }
            core.counters.called(frameIn: false, since: started)
        }
        gst_app_src_set_callbacks(source, &callbacks, Unmanaged.passUnretained(self).toOpaque(), nil)
        refuseFramesAfterEndOfStream()
    }

    /// Once the appsrc sends end of stream, whatever the reason, `push` refuses frames with
    /// `.endOfStream` instead of waiting for room in the queue. The reason may be downstream: when an
    /// element there fails (or wants no more), the appsrc's task stops and sends end of stream, and its
    /// queue is never drained again; a push waiting there would hold the streaming thread upstream,
    /// and the pad it holds, until the pipeline stops.
    private func refuseFramesAfterEndOfStream() {
        // The appsrc owns the pad, so it outlives the probe: no reference needed.
        gst_pad_add_probe(
            appsrcPad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
            { _, info, userData in
                guard let data = info?.pointee.data,
                    data.assumingMemoryBound(to: GstEvent.self).pointee.type == GST_EVENT_EOS
                else { return GST_PAD_PROBE_OK }
                // Sets the appsrc's end-of-stream flag, which wakes a waiting push (a flush clears it).
                _ = gst_app_src_end_of_stream(userData!.assumingMemoryBound(to: GstAppSrc.self))
                return GST_PAD_PROBE_OK
            }, UnsafeMutableRawPointer(appsrc), nil)
    }

    func push(_ buffer: Buffer, caps: Caps, segmentFrom input: Sample?, segmentOffset: ClockTime) -> FlowResult {
        core.whileAlive { () -> FlowResult in
            let started = core.counters.now
            // appsrc queues and returns OK even once downstream has said end of stream (an encoder
            // that wanted one frame): say so to the caller, so upstream stops too.
            if gst_pad_get_last_flow_return(appsrcPad) == GST_FLOW_EOS { return .endOfStream }
            let result = pushThrough(buffer, caps: caps, segmentFrom: input, offset: segmentOffset)
            core.counters.pushed(result == .ok, since: started)
            return result
        } ?? .flushing
    }

    private func pushThrough(
        _ buffer: Buffer, caps: Caps, segmentFrom input: Sample?, offset: ClockTime
    ) -> FlowResult {
        // need-data comes when the queue is empty, so only a third push in one call can find it full.
        let lift = producing.withLock { state -> Bool in
            guard state.active, !state.raised else { return false }
            state.pushes += 1
            guard state.pushes > 2 else { return false }
            state.raised = true
            return true
        }
        if lift { gst_app_src_set_max_buffers(source, 0) }
        if let input {
            let sample = Sample(buffer: buffer, caps: caps, segmentFrom: input, offset: offset)
            return withExtendedLifetime(sample) { FlowResult(gst_app_src_push_sample(source, sample.pointer)) }
        }
        let changed = self.caps.withLock { current -> Bool in
            if let current, current == caps { return false }
            current = caps
            return true
        }
        if changed { gst_app_src_set_caps(source, caps.pointer) }
        return FlowResult(gst_app_src_push_buffer(source, buffer.newReference()))
    }

    func endOfStream() -> FlowResult {
        core.whileAlive { FlowResult(gst_app_src_end_of_stream(source)) } ?? .flushing
    }

    func runEnded() {
        // The next run starts with no caps sent: they are set again with its first buffer.
        caps.withLock { $0 = nil }
    }
}
