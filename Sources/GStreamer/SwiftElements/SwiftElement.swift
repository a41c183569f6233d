import CGStreamer
import CGStreamerShim
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The result of handing data on, as GStreamer's GstFlowReturn says it.
public enum FlowResult: Sendable, Equatable {
    /// The data went on (`GST_FLOW_OK`).
    case ok
    /// The element is being stopped or flushed (a seek): drop the data, it is not an error.
    case flushing
    /// Downstream is at end of stream.
    case endOfStream
    /// Downstream does not accept the caps (`GST_FLOW_NOT_NEGOTIATED`): an error, posted by the element that
    /// found it.
    case notNegotiated
    /// Downstream is not linked.
    case notLinked
    /// A fatal error (`GST_FLOW_ERROR` or worse): an error message is on the bus, and the stream stops.
    case error

    init(_ flow: GstFlowReturn) {
        switch flow {
        case GST_FLOW_OK: self = .ok
        case GST_FLOW_FLUSHING: self = .flushing
        case GST_FLOW_EOS: self = .endOfStream
        case GST_FLOW_NOT_NEGOTIATED: self = .notNegotiated
        case GST_FLOW_NOT_LINKED: self = .notLinked
        default: self = flow.rawValue >= 0 ? .ok : .error
        }
    }

    var gstFlow: GstFlowReturn {
        switch self {
        case .ok: GST_FLOW_OK
        case .flushing: GST_FLOW_FLUSHING
        case .endOfStream: GST_FLOW_EOS
        case .notNegotiated: GST_FLOW_NOT_NEGOTIATED
        case .notLinked: GST_FLOW_NOT_LINKED
        case .error: GST_FLOW_ERROR
        }
    }
}

/// The Swift half of one element instance made by `ElementType.register`. GStreamer calls these on
/// its own threads: lifecycle calls on the thread changing state, `render` and `needData` on
/// streaming threads. The lifecycle calls come once per transition, in order, never concurrently.
public protocol ElementImplementation: AnyObject, Sendable {
    /// NULL → READY. Throwing fails the state change with the error's description on the bus.
    ///
    /// - Throws: Anything; the state change to READY then fails, with the error's description in an error
    ///   message naming the element.
    func initialize() throws
    /// PAUSED → PLAYING, or the first data, whichever comes first.
    func start()
    /// PLAYING → PAUSED, or PAUSED → READY after a start by data; once per start.
    func stop()
    /// READY → NULL, once per successful initialize.
    func dispose()
    /// A sample from upstream (sinks and filters), on the streaming thread.
    ///
    /// - Parameter sample: The buffer with its caps and segment.
    /// - Returns: ``FlowResult/ok`` to go on; ``FlowResult/flushing`` or ``FlowResult/endOfStream`` (passed
    ///   back from a push) stop upstream quietly; ``FlowResult/error`` stops the pipeline (post an error first).
    func render(_ sample: Sample) -> FlowResult
    /// Upstream ended (sinks and filters), after the last `render`. A filter's end of stream is then
    /// passed downstream by the element.
    func endOfStream()
    /// The element's appsrc wants more data (sources), on its streaming thread.
    func needData()
    /// A filter's caps on one side for `caps` on the other: the caps its sink pad accepts for what
    /// downstream accepts (`towardsSink`), or what its source pad offers for upstream's caps.
    ///
    /// - Parameters:
    ///   - caps: Caps on one side: downstream's when `towardsSink`, else upstream's.
    ///   - towardsSink: True to ask for the sink pad's caps, false for the source pad's.
    /// - Returns: The caps on the other side, within its pad template.
    func transformCaps(_ caps: Caps, towardsSink: Bool) -> Caps
    /// A flush (a seek) went through the element, or it went from PAUSED down to READY (filters): data
    /// held from before is stale. Called while no `render` runs.
    func flushed()
    /// A flush (a seek) started (sinks and filters): data held is stale, and a `render` waiting for
    /// room must return now. Called on the thread that flushes, possibly while `render` runs.
    func flushStarted()
    /// How long the element holds data back before its output (filters), such as an encoder's
    /// lookahead: added to upstream's latency when downstream asks, so live pipelines wait for it.
    /// Asked on any thread, possibly while `render` waits downstream: must not wait for `render`.
    var latency: ClockTime { get }
}

extension ElementImplementation {
    /// The default: does nothing.
    public func start() {}
    /// The default: does nothing.
    public func stop() {}
    /// The default: does nothing.
    public func dispose() {}
    /// The default: drops the sample.
    ///
    /// - Parameter sample: The sample, ignored.
    /// - Returns: ``FlowResult/ok``.
    public func render(_ sample: Sample) -> FlowResult { .ok }
    /// The default: does nothing.
    public func endOfStream() {}
    /// The default: does nothing (a source that pushes from its own thread needs no call).
    public func needData() {}
    /// The default: the same caps on both sides (a filter that keeps the format).
    ///
    /// - Parameters:
    ///   - caps: Caps on one side.
    ///   - towardsSink: Which side is asked for; ignored.
    /// - Returns: `caps`.
    public func transformCaps(_ caps: Caps, towardsSink: Bool) -> Caps { caps }
    /// The default: does nothing.
    public func flushed() {}
    /// The default: does nothing.
    public func flushStarted() {}
    /// The default: 0, the element holds nothing back.
    public var latency: ClockTime { 0 }
}

/// One element instance written in Swift: a source (a bin holding an appsrc), a sink (a bin holding
/// an appsink, with converters in front for audio) or a filter (a plain element with pads of its own,
/// see SwiftElement+Filter.swift), which presents itself to the pipeline as one ordinary element.
///
/// The element owns this object (released in its finalize). GStreamer calls into it from the element,
/// its pads or its children while they exist. The object may outlive the element (`Element.swiftElement`
/// hands it out, a source's consumer may be kept by a thread of the user's): so it holds its own
/// references to the children and pads it uses, and only a weak one to the element, which the public
/// calls check (a push after the element is gone returns `.flushing`). Mutable state is behind
/// `Mutex`es; the delegate is set once during instance init, before GStreamer can call in.
public final class SwiftElement: @unchecked Sendable {
    /// The element. Valid while GStreamer calls in; from any other thread, reach it through `alive`.
    let element: UnsafeMutablePointer<GstElement>
    /// The element, weakly: nil once it is being disposed.
    private let alive: WeakObject
    // The children and pads below: one reference each, held by this object and released in deinit.
    let appsrc: UnsafeMutablePointer<GstElement>?
    let appsink: UnsafeMutablePointer<GstElement>?
    let srcPad: UnsafeMutablePointer<GstPad>?
    let sinkPad: UnsafeMutablePointer<GstPad>?
    /// The element's kind.
    public let kind: SwiftElementKind
    /// A source made on request, with a source pad and a streaming thread of its own (no appsrc).
    let pulled: Bool
    /// The element's property values.
    public let properties: ElementProperties
    private var delegate: (any ElementImplementation)!

    /// The Swift half of the element, as `ElementType.register` made it.
    public var implementation: any ElementImplementation { delegate }

    private struct Lifecycle {
        var initialized = false
        var started = false
        /// False between a stop by PLAYING → PAUSED and the next PAUSED → PLAYING: a render already
        /// in flight must not start the element again while it pauses.
        var dataMayStart = true
        /// A stop is under way: buffers must not wait to start the element again.
        var stopping = false
    }
    private let lifecycle = Mutex(Lifecycle())
    /// Held while the user's lifecycle code runs, which `lifecycle` never is: a buffer checks and
    /// claims the start under `lifecycle` (briefly), and never waits for a stop that may be waiting
    /// for it.
    private let transitions = Mutex(())
    /// Started and not stopping: the streaming threads' check, without a lock.
    private let running = Atomic<Bool>(false)
    /// A filter's input: what upstream's events said, read by each buffer (streaming thread only).
    let filterInput = Mutex(FilterInput())
    /// A filter's output: what went out through its source pad. Held while pushing, so buffers and
    /// events leave in one order even when a filter pushes from a thread of its own.
    let filterOutput = Mutex(FilterOutput())
    /// What a filter's sink pad accepts, within its template (`restrictSinkCaps`).
    let filterRestriction = Mutex<Caps?>(nil)

    private struct Output {
        var caps: Caps?
        var pool: UnsafeMutablePointer<GstBufferPool>?
        /// What the pool makes: video frames of `poolInfo`, or plain buffers of `poolSize` bytes.
        var poolInfo: VideoInfo?
        var poolSize: Int?
        /// `poolInfo != nil`, read by every buffer without copying a GstVideoInfo (hundreds of bytes).
        var isVideoPool = false
        /// The last plain buffers of the pool pushed downstream, oldest first, with a reference of ours
        /// each: made again once downstream is done with them. More than one, since a sink keeps the
        /// last buffer it rendered until the next arrives (basesink's last-sample).
        var spares: [UnsafeMutablePointer<GstBuffer>] = []
        static let maximumSpares = 3

        /// Lets go of the pool and the spare buffers.
        mutating func dropPool() {
            spares.forEach { gst_buffer_unref($0) }
            spares.removeAll()
            if let pool {
                gst_buffer_pool_set_active(pool, 0)
                gst_object_unref(UnsafeMutableRawPointer(pool))
            }
            pool = nil
            poolInfo = nil
            poolSize = nil
            isVideoPool = false
        }
    }
    private let output = Mutex(Output())
    let counters = SwiftElementCounters()
    /// Whether need-data is running (a pull-mode source producing on the appsrc's own streaming
    /// thread), and whether a push during it lifted the queue's limit (see the need-data callback).
    let producing = Mutex<(active: Bool, raised: Bool, pushes: Int)>((false, false, 0))
    /// How the last push of a pulled source went, and how many went out: its task reads both after
    /// each `needData`.
    let sourceRound = SourceRound()
    /// The pulled source's task thread (`currentThreadID`) while it is in `needData`, else 0.
    let sourceTaskThread = Atomic<UInt>(0)
    /// The appsrc's source pad (sources), which the appsrc owns for as long as it exists.
    private let appsrcPad: UnsafeMutablePointer<GstPad>?

    /// Frames in and out so far, and the time spent in Swift code.
    package var statistics: SwiftElementStatistics { counters.statistics }

    init(element: UnsafeMutablePointer<GstElement>, type: ElementTypeBox) {
        self.element = element
        alive = WeakObject(UnsafeMutableRawPointer(element))
        self.kind = type.description.kind
        self.pulled = type.description.kind == .source && type.description.pulled
        self.properties = ElementProperties(specs: type.description.properties)
        let bin = UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstBin.self)

        if kind == .source && !pulled {
            let source = gst_element_factory_make("appsrc", "appsrc")!
            for (property, value) in [
                ("format", "time"), ("block", "true"), ("max-bytes", "0"), ("max-buffers", "2"),
                ("handle-segment-change", "true"), ("stream-type", "stream"), ("emit-signals", "false"),
            ] {
                CGStreamerShim_object_set_from_string(source, property, value)
            }
            gst_bin_add(bin, source)
            appsrc = UnsafeMutableRawPointer(gst_object_ref(UnsafeMutableRawPointer(source)))!
                .assumingMemoryBound(to: GstElement.self)
            appsrcPad = gst_element_get_static_pad(source, "src")
        } else {
            appsrc = nil
            appsrcPad = nil
        }
        if kind == .sink {
            let sink = gst_element_factory_make("appsink", "appsink")!
            for (property, value) in [
                ("sync", "true"), ("async", "true"), ("enable-last-sample", "false"),
                ("max-buffers", "1"), ("emit-signals", "false"), ("wait-on-eos", "true"),
            ] {
                CGStreamerShim_object_set_from_string(sink, property, value)
            }
            if let template = gst_caps_from_string(type.description.sinkCaps) {
                gst_app_sink_set_caps(UnsafeMutableRawPointer(sink).assumingMemoryBound(to: GstAppSink.self), template)
                gst_caps_unref(template)
            }
            gst_bin_add(bin, sink)
            appsink = UnsafeMutableRawPointer(gst_object_ref(UnsafeMutableRawPointer(sink)))!
                .assumingMemoryBound(to: GstElement.self)
        } else {
            appsink = nil
        }
        if kind == .filter {
            // A filter has no children: its own pads take buffers and events on the upstream streaming
            // thread and push the output on the same thread, in order (see SwiftElement+Filter.swift). The bin
            // must not look like a sink (the pipeline would wait for its EOS and preroll) nor a source.
            element.pointee.object.flags &= ~(GST_ELEMENT_FLAG_SINK.rawValue | GST_ELEMENT_FLAG_SOURCE.rawValue)
        }

        // A sink's converters sit in front of its appsink: the ghost pad leads to the first of them.
        var sinkEntry = appsink
        if kind == .sink, let appsink {
            for name in type.description.sinkConverters.reversed() {
                guard let converter = gst_element_factory_make(name, nil) else { continue }
                gst_bin_add(bin, converter)
                gst_element_link(converter, sinkEntry ?? appsink)
                sinkEntry = converter
            }
        }
        if kind == .filter {
            srcPad = SwiftElement.addPad(to: element, name: "src")
            sinkPad = SwiftElement.addPad(to: element, name: "sink")
        } else if pulled {
            // A pulled source pushes from its own pad's task (see SwiftElement+PulledSource.swift). GstBin learns
            // that an element is a source from this flag, which appsrc gives a bin by being its child.
            element.pointee.object.flags |= GST_ELEMENT_FLAG_SOURCE.rawValue
            srcPad = SwiftElement.addPad(to: element, name: "src")
            sinkPad = nil
        } else {
            srcPad = appsrc.map { SwiftElement.addGhostPad(to: element, name: "src", target: $0) }
            sinkPad = sinkEntry.map { SwiftElement.addGhostPad(to: element, name: "sink", target: $0) }
        }

        for pad in [srcPad, sinkPad].compactMap({ $0 }) { gst_object_ref(UnsafeMutableRawPointer(pad)) }

        delegate = type.makeDelegate(self)
        installCallbacks()
    }

    private static func addGhostPad(
        to element: UnsafeMutablePointer<GstElement>, name: String, target: UnsafeMutablePointer<GstElement>
    ) -> UnsafeMutablePointer<GstPad> {
        let targetPad = gst_element_get_static_pad(target, name)!
        defer { gst_object_unref(UnsafeMutableRawPointer(targetPad)) }
        let template = CGStreamerShim_element_get_pad_template(element, name)
        let ghost = gst_ghost_pad_new_from_template(name, targetPad, template)!
        gst_element_add_pad(element, ghost)
        return ghost
    }

    // MARK: For the delegate

    /// The element's name, such as "gray0"; empty once the element is gone.
    ///
    /// The corresponding C function is `gst_object_get_name`.
    public var name: String {
        whileAlive {
            guard let name = gst_object_get_name(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstObject.self))
            else { return "" }
            defer { g_free(name) }
            return String(cString: name)
        } ?? ""
    }

    /// Pushes a buffer downstream with `caps`, keeping the segment of `input` (a filter's input
    /// sample) so timestamps keep their meaning after seeks. A filter pushes through its source pad,
    /// on the calling thread, and waits as long as downstream does; a source through its appsrc,
    /// waiting while the appsrc's small queue is full. Either way a slow downstream slows the caller.
    /// `segmentOffset` moves that segment later, for timestamps moved by as much (see
    /// `Sample.init(buffer:caps:segmentFrom:offset:)`). Once the element is gone, returns `.flushing`
    /// (the data is dropped, as in a stopped pipeline).
    ///
    /// The corresponding C functions are `gst_pad_push` (filters) and `gst_app_src_push_buffer`.
    ///
    /// - Parameters:
    ///   - buffer: The data, with its timestamps (nanoseconds); the element takes its own reference.
    ///   - caps: The buffer's caps; sent downstream only when they change.
    ///   - input: The input sample whose segment the output keeps, or nil for a source's own segment.
    ///   - segmentOffset: Nanoseconds to move `input`'s segment later.
    /// - Returns: Downstream's answer: ``FlowResult/ok``, ``FlowResult/flushing`` while stopping or seeking,
    ///   ``FlowResult/endOfStream`` when downstream wants no more, or an error.
    public func push(
        _ buffer: Buffer, caps: Caps, segmentFrom input: Sample? = nil, segmentOffset: ClockTime = 0
    ) -> FlowResult {
        // On a pulled source's own task the element is alive for sure (the task is stopped before it
        // goes): no weak reference to take, which locks GLib's table of them, for every buffer.
        if pulled && sourceTaskThread.load(ordering: .relaxed) == currentThreadID {
            return pushWhileAlive(buffer, caps: caps, segmentFrom: input, segmentOffset: segmentOffset)
        }
        return whileAlive { pushWhileAlive(buffer, caps: caps, segmentFrom: input, segmentOffset: segmentOffset) } ?? .flushing
    }

    private func pushWhileAlive(
        _ buffer: Buffer, caps: Caps, segmentFrom input: Sample?, segmentOffset: ClockTime
    ) -> FlowResult {
        let started = counters.now
        let result: FlowResult
        if kind == .filter {
            result = pushDownstream(buffer, caps: caps, segmentFrom: input, offset: segmentOffset)
            keepSpare(buffer)
        } else if pulled {
            result = pushDownstream(buffer, caps: caps, segmentFrom: input, offset: segmentOffset)
            keepSpare(buffer)
            sourceRound.pushed(result)
        } else {
            guard let appsrc else { return .error }
            // appsrc queues and returns OK even once downstream has said end of stream (an encoder
            // that wanted one frame): say so to the caller, so upstream stops too.
            if downstreamEnded(appsrc) { return .endOfStream }
            result = pushThrough(appsrc, buffer, caps: caps, segmentFrom: input, offset: segmentOffset)
        }
        counters.pushed(result == .ok, since: started)
        return result
    }

    private func downstreamEnded(_ appsrc: UnsafeMutablePointer<GstElement>) -> Bool {
        guard let appsrcPad else { return false }
        return gst_pad_get_last_flow_return(appsrcPad) == GST_FLOW_EOS
    }

    private func pushThrough(
        _ appsrc: UnsafeMutablePointer<GstElement>, _ buffer: Buffer, caps: Caps, segmentFrom input: Sample?,
        offset: ClockTime
    ) -> FlowResult {
        let source = UnsafeMutableRawPointer(appsrc).assumingMemoryBound(to: GstAppSrc.self)
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
        let changed = output.withLock { output -> Bool in
            if let current = output.caps, current == caps { return false }
            output.caps = caps
            return true
        }
        if changed { gst_app_src_set_caps(source, caps.pointer) }
        return FlowResult(gst_app_src_push_buffer(source, gst_buffer_ref(buffer.pointer)))
    }

    /// Ends the stream downstream once the queued buffers are out.
    ///
    /// The corresponding C function is `gst_app_src_end_of_stream`.
    ///
    /// - Returns: ``FlowResult/ok`` when the end of stream was queued or sent, else why not (such as
    ///   ``FlowResult/flushing`` while stopping).
    @discardableResult
    public func endOfStream() -> FlowResult {
        whileAlive { () -> FlowResult in
            if kind == .filter || pulled { return endStreamDownstream() }
            guard let appsrc else { return .error }
            return FlowResult(gst_app_src_end_of_stream(UnsafeMutableRawPointer(appsrc).assumingMemoryBound(to: GstAppSrc.self)))
        } ?? .flushing
    }

    /// What downstream of the source pad accepts, within `filter`, in downstream's order of preference.
    ///
    /// The corresponding C function is `gst_pad_peer_query_caps`.
    ///
    /// - Parameter filter: The caps the element could produce.
    /// - Returns: The part of `filter` downstream accepts (empty when none); `filter` itself when the element
    ///   has no source pad.
    public func downstreamCaps(filter: Caps) -> Caps {
        guard let srcPad else { return filter }
        return Caps(taking: gst_pad_peer_query_caps(srcPad, filter.pointer))
    }

    /// A writable buffer for one frame of layout `info`, from a GstVideoBufferPool the element owns
    /// (buffers carry a GstVideoMeta with the pool's strides).
    /// The pool is made on first use and again when `info` changes. It has no maximum: frames held
    /// downstream never make this wait.
    ///
    /// The corresponding C function is `gst_buffer_pool_acquire_buffer`.
    ///
    /// - Parameter info: The frame's format, size and layout.
    /// - Returns: A writable buffer of `info.size` bytes, its contents undefined.
    /// - Throws: ``GStreamerError`` (core) when the pool cannot be set up for `info`, or is shutting down
    ///   (the element is stopping).
    public func makeVideoBuffer(_ info: VideoInfo) throws(GStreamerError) -> Buffer {
        try pooledBuffer(size: info.size, video: info)
    }

    /// A writable buffer of `size` bytes from a buffer pool the element owns: buffers come back to the
    /// pool once downstream is done with them, which costs less than allocating each one (an audio
    /// source's 10 ms buffers). Its timestamps, flags and metadata are unset, as a new buffer's.
    ///
    /// The corresponding C function is `gst_buffer_pool_acquire_buffer`.
    ///
    /// - Parameter size: The buffer's size in bytes; a new pool is made when it changes.
    /// - Returns: A buffer nobody else holds, so writable.
    /// - Throws: `GStreamerError` when no pool can be set up for that size, or the pool is shutting down.
    public func makeBuffer(size: Int) throws(GStreamerError) -> Buffer {
        guard size > 0 else { return try Buffer(size: size) }
        return try pooledBuffer(size: size, video: nil)
    }

    /// A buffer from the element's pool of video frames of `video` or, with `video` nil, of plain
    /// buffers of `size` bytes; the pool is made again when that changes.
    private func pooledBuffer(size: Int, video: VideoInfo?) throws(GStreamerError) -> Buffer {
        // The buffer is taken under the lock, so no other thread can drop the pool meanwhile (and no
        // reference is taken and dropped per buffer). The pools have no maximum: acquiring never waits.
        let buffer = try output.withLock { output throws(GStreamerError) -> UnsafeMutablePointer<GstBuffer> in
            // Sizes first: comparing the (large) video layouts only when they may match.
            if let pool = output.pool, output.poolSize == size,
                video == nil ? !output.isVideoPool : output.poolInfo == video
            {
                // A spare buffer downstream let go of: no trip through the pool's queue and reset
                // (a sixth of a small audio buffer's cost).
                if let index = output.spares.firstIndex(where: { CGStreamerShim_buffer_recycle($0, gsize(size)) != 0 }) {
                    return output.spares.remove(at: index)
                }
                return try acquire(from: pool)
            }
            output.dropPool()
            let pool: UnsafeMutablePointer<GstBufferPool>
            let config: UnsafeMutablePointer<GstStructure>
            let description: String
            if let info = video {
                pool = gst_video_buffer_pool_new()!
                config = gst_buffer_pool_get_config(pool)
                let caps = info.caps
                withExtendedLifetime(caps) { gst_buffer_pool_config_set_params(config, caps.pointer, guint(info.size), 2, 0) }
                gst_buffer_pool_config_add_option(config, "GstBufferPoolOptionVideoMeta")
                description = "\(caps)"
            } else {
                pool = gst_buffer_pool_new()!
                config = gst_buffer_pool_get_config(pool)
                gst_buffer_pool_config_set_params(config, nil, guint(size), 2, 0)
                description = "buffers of \(size) bytes"
            }
            guard gst_buffer_pool_set_config(pool, config) != 0, gst_buffer_pool_set_active(pool, 1) != 0 else {
                gst_object_unref(UnsafeMutableRawPointer(pool))
                throw GStreamerError(kind: .core, message: "could not set up a buffer pool for \(description)", source: name)
            }
            output.pool = pool
            output.poolInfo = video
            output.poolSize = size
            output.isVideoPool = video != nil
            return try acquire(from: pool)
        }
        return Buffer(taking: buffer)
    }

    /// Keeps `buffer`, just pushed, as a spare when it is one of the pool's plain buffers, for
    /// `makeBuffer` to use again once downstream is done with it (in a pipeline that drops each buffer
    /// soon, the same few buffers go round).
    private func keepSpare(_ buffer: Buffer) {
        guard let pool = buffer.pointer.pointee.pool else { return }
        // Addresses, not pointers, go into the lock's closure (pointers are not Sendable).
        let (poolAddress, bufferAddress) = (UInt(bitPattern: pool), UInt(bitPattern: buffer.pointer))
        output.withLock { output in
            guard let spare = UnsafeMutablePointer<GstBuffer>(bitPattern: bufferAddress),
                output.pool.map({ UInt(bitPattern: $0) }) == poolAddress, !output.isVideoPool, !output.spares.contains(spare)
            else { return }
            if output.spares.count == Output.maximumSpares { gst_buffer_unref(output.spares.removeFirst()) }
            output.spares.append(gst_buffer_ref(spare))
        }
    }

    private func acquire(from pool: UnsafeMutablePointer<GstBufferPool>) throws(GStreamerError) -> UnsafeMutablePointer<GstBuffer> {
        var buffer: UnsafeMutablePointer<GstBuffer>?
        guard gst_buffer_pool_acquire_buffer(pool, &buffer, nil) == GST_FLOW_OK, let buffer else {
            throw GStreamerError(kind: .core, message: "the buffer pool is shutting down", source: name)
        }
        return buffer
    }

    /// Passes the built-in `sync` property of sinks on to the appsink.
    func propertyChanged(id: Int) {
        guard kind == .sink, let appsink, properties.specs[id - 1].name == "sync" else { return }
        CGStreamerShim_object_set_from_string(appsink, "sync", properties.bool("sync") ? "true" : "false")
    }

    /// Restricts what the sink pad accepts (the appsink's caps) to `caps`, within the pad template.
    ///
    /// The corresponding C function is `gst_app_sink_set_caps` (sinks).
    ///
    /// - Parameter caps: What the sink pad may accept from now on; upstream renegotiates to fit.
    public func restrictSinkCaps(_ caps: Caps) {
        if kind == .filter { filterRestriction.withLock { $0 = caps } }
        guard let appsink else { return }
        gst_app_sink_set_caps(UnsafeMutableRawPointer(appsink).assumingMemoryBound(to: GstAppSink.self), caps.pointer)
    }

    private var sinkRestriction: Caps? {
        if kind == .filter { return filterRestriction.withLock { $0 } }
        guard let appsink,
            let caps = gst_app_sink_get_caps(UnsafeMutableRawPointer(appsink).assumingMemoryBound(to: GstAppSink.self))
        else { return nil }
        return Caps(taking: caps)
    }

    /// Posts an error message from this element on the bus (the pipeline then stops with it).
    ///
    /// The corresponding C function is `gst_element_message_full` with `GST_MESSAGE_ERROR`
    /// (`GST_ELEMENT_ERROR`).
    ///
    /// - Parameters:
    ///   - text: The message for the user.
    ///   - debug: Details for developers, or nil.
    public func postError(_ text: String, debug: String? = nil) {
        _ = whileAlive { CGStreamerShim_element_post_error(element, 0, text, debug) }
    }

    /// Says on the bus that the element's `latency` changed: the pipeline (GstBin, in GStreamer 1.22)
    /// then asks its sinks again and tells them the new latency.
    ///
    /// The corresponding C function is `gst_message_new_latency`.
    public func postLatencyChanged() {
        _ = whileAlive {
            let object = UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstObject.self)
            return gst_element_post_message(element, gst_message_new_latency(object))
        }
    }

    /// Posts a warning message from this element on the bus.
    ///
    /// The corresponding C function is `gst_element_message_full` with `GST_MESSAGE_WARNING`.
    ///
    /// - Parameters:
    ///   - text: The message for the user.
    ///   - debug: Details for developers, or nil.
    public func postWarning(_ text: String, debug: String? = nil) {
        _ = whileAlive { CGStreamerShim_element_post_warning(element, text, debug) }
    }

    // MARK: Lifecycle

    /// Starts the element if it is initialized and not started (`byData`: for a buffer, which may
    /// not start it again while it pauses).
    func ensureStarted(byData: Bool = true) {
        if byData && running.load(ordering: .acquiring) { return }
        while true {
            if byData && lifecycle.withLock({ !$0.dataMayStart || $0.stopping }) { return }
            // A buffer takes the transition lock only when it is free: what holds it may be a stop
            // waiting for this very thread. Another start in progress is waited out.
            let done: Bool? =
                byData ? transitions.withLockIfAvailable { _ in startIfClaimed(byData: true) } : transitions.withLock { _ in
                    startIfClaimed(byData: false)
                }
            if done != nil { return }
            usleep(100)
        }
    }

    private func startIfClaimed(byData: Bool) -> Bool {
        let claimed = lifecycle.withLock { state -> Bool in
            if !byData { state.dataMayStart = true }
            guard state.initialized && !state.started && state.dataMayStart else { return false }
            state.started = true
            return true
        }
        if claimed {
            delegate.start()
            running.store(true, ordering: .releasing)
        }
        return claimed
    }

    private func stopIfStarted(pausing: Bool = false) {
        lifecycle.withLock { state in
            if pausing { state.dataMayStart = false }
            state.stopping = true
        }
        defer { lifecycle.withLock { $0.stopping = false } }
        transitions.withLock { _ in
            let claimed = lifecycle.withLock { state -> Bool in
                guard state.started else { return false }
                state.started = false
                return true
            }
            guard claimed else { return }
            running.store(false, ordering: .releasing)
            delegate.stop()
        }
    }

    func changeState(_ transition: GstStateChange) -> GstStateChangeReturn {
        let from = transition.rawValue >> 3
        let to = transition.rawValue & 0x7
        let (null, ready, paused, playing) = (
            GST_STATE_NULL.rawValue, GST_STATE_READY.rawValue, GST_STATE_PAUSED.rawValue, GST_STATE_PLAYING.rawValue
        )

        switch (from, to) {
        case (null, ready):
            let failure: String? = transitions.withLock { _ in
                do {
                    try delegate.initialize()
                    lifecycle.withLock { $0.initialized = true }
                    return nil
                } catch {
                    return "\(error)"
                }
            }
            if let failure {
                CGStreamerShim_element_post_error(element, 1, failure, nil)
                return GST_STATE_CHANGE_FAILURE
            }
        case (playing, paused):
            stopIfStarted(pausing: true)
        default:
            break
        }

        let result = CGStreamerShim_bin_parent_change_state(element, transition)
        if result == GST_STATE_CHANGE_FAILURE { return result }

        switch (from, to) {
        case (paused, playing):
            ensureStarted(byData: false)
        case (paused, ready):
            // The pads are inactive now: no render runs, and a push waiting downstream has returned.
            if pulled { resetFilterStream() }
            if kind == .filter {
                resetFilterStream()
                // Down to READY a run ends: what the filter holds is stale, as after a flush.
                delegate.flushed()
            }
            stopIfStarted()
            output.withLock { output in
                output.caps = nil
                output.dropPool()
            }
        case (ready, null):
            transitions.withLock { _ in
                let initialized = lifecycle.withLock { state in
                    defer { state.dataMayStart = true; state.initialized = false }
                    return state.initialized
                }
                if initialized { delegate.dispose() }
            }
        default:
            break
        }
        return result
    }

    deinit {
        output.withLock { $0.dropPool() }
        let held: [UnsafeMutableRawPointer?] = [
            srcPad.map { UnsafeMutableRawPointer($0) }, sinkPad.map { UnsafeMutableRawPointer($0) },
            appsrcPad.map { UnsafeMutableRawPointer($0) }, appsrc.map { UnsafeMutableRawPointer($0) },
            appsink.map { UnsafeMutableRawPointer($0) },
        ]
        for object in held.compactMap({ $0 }) { gst_object_unref(object) }
    }

    /// Runs `body` while the element exists, holding a reference to it meanwhile; nil once it is gone.
    private func whileAlive<T>(_ body: () -> T) -> T? {
        alive.withObject { _ in body() }
    }

    // MARK: Callbacks from the appsrc, the appsink and the ghost pads

    private static func from(_ userData: UnsafeMutableRawPointer?) -> SwiftElement {
        Unmanaged<SwiftElement>.fromOpaque(userData!).takeUnretainedValue()
    }

    private func installCallbacks() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        if let appsrc {
            var callbacks = GstAppSrcCallbacks()
            callbacks.need_data = { appsrc, _, userData in
                let bridge = SwiftElement.from(userData)
                bridge.ensureStarted()
                let started = bridge.counters.now
                // need-data runs on the appsrc's own streaming thread, the one that empties its queue:
                // a pull-mode source pushing more than the queue holds (an audio source cutting one
                // produce call into several buffers) would wait there for itself. While it produces,
                // a push that finds the queue full lifts its limit (once), and the limit comes back
                // afterwards: the queue grows by one call's output at most. Setting the limit only
                // when needed keeps the usual one-buffer call cheap (a property set by name on every
                // call cost 1.4 µs a buffer, a third of audionoise's time).
                bridge.producing.withLock { $0 = (true, false, 0) }
                bridge.delegate.needData()
                let raised = bridge.producing.withLock { state in defer { state = (false, false, 0) }; return state.raised }
                if raised, let appsrc { gst_app_src_set_max_buffers(appsrc, 2) }
                bridge.counters.called(frameIn: false, since: started)
            }
            gst_app_src_set_callbacks(
                UnsafeMutableRawPointer(appsrc).assumingMemoryBound(to: GstAppSrc.self), &callbacks, me, nil)
            Self.refuseFramesAfterEndOfStream(appsrc)
        }
        if let appsink {
            var callbacks = GstAppSinkCallbacks()
            callbacks.new_sample = { sink, userData in
                let bridge = SwiftElement.from(userData)
                guard let pulled = gst_app_sink_pull_sample(sink) else { return GST_FLOW_FLUSHING }
                bridge.ensureStarted()
                let started = bridge.counters.now
                let result = bridge.delegate.render(Sample(taking: pulled))
                bridge.counters.called(frameIn: true, since: started)
                return result.gstFlow
            }
            callbacks.eos = { _, userData in
                let bridge = SwiftElement.from(userData)
                bridge.delegate.endOfStream()
            }
            gst_app_sink_set_callbacks(
                UnsafeMutableRawPointer(appsink).assumingMemoryBound(to: GstAppSink.self), &callbacks, me, nil)
        }
        if kind == .sink, let appsink {
            // A sink's render may be waiting (a pull sink whose queue is full): a flush must reach it.
            let appsinkPad = gst_element_get_static_pad(appsink, "sink")!
            defer { gst_object_unref(UnsafeMutableRawPointer(appsinkPad)) }
            gst_pad_add_probe(
                appsinkPad, GST_PAD_PROBE_TYPE_EVENT_FLUSH,
                { _, info, userData in
                    guard let data = info?.pointee.data else { return GST_PAD_PROBE_OK }
                    let bridge = SwiftElement.from(userData)
                    switch data.assumingMemoryBound(to: GstEvent.self).pointee.type {
                    case GST_EVENT_FLUSH_START: bridge.delegate.flushStarted()
                    case GST_EVENT_FLUSH_STOP: bridge.delegate.flushed()
                    default: break
                    }
                    return GST_PAD_PROBE_OK
                }, me, nil)
        }
        if pulled, let srcPad { installSourceFunctions(srcPad: srcPad) }
        guard kind == .filter, let srcPad, let sinkPad else { return }
        installFilterFunctions(srcPad: srcPad, sinkPad: sinkPad)
    }

    /// Once the appsrc sends end of stream, whatever the reason, `push` refuses frames with
    /// `.endOfStream` instead of waiting for room in the queue. The reason may be downstream: when an
    /// element there fails (or wants no more), the appsrc's task stops and sends end of stream, and its
    /// queue is never drained again; a push waiting there would hold the streaming thread upstream,
    /// and the pad it holds, until the pipeline stops.
    private static func refuseFramesAfterEndOfStream(_ appsrc: UnsafeMutablePointer<GstElement>) {
        let pad = gst_element_get_static_pad(appsrc, "src")!
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        // The appsrc owns the pad, so it outlives the probe: no reference needed.
        gst_pad_add_probe(
            pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
            { _, info, userData in
                guard let data = info?.pointee.data, data.assumingMemoryBound(to: GstEvent.self).pointee.type == GST_EVENT_EOS
                else { return GST_PAD_PROBE_OK }
                // Sets the appsrc's end-of-stream flag, which wakes a waiting push (a flush clears it).
                _ = gst_app_src_end_of_stream(userData!.assumingMemoryBound(to: GstAppSrc.self))
                return GST_PAD_PROBE_OK
            }, UnsafeMutableRawPointer(appsrc), nil)
    }

    private func templateCaps(_ pad: UnsafeMutablePointer<GstPad>) -> Caps {
        Caps(taking: gst_pad_get_pad_template_caps(pad))
    }

    /// Caps the filter's `pad` can handle, asking the pad on the other side's peer.
    private func filterCaps(for pad: UnsafeMutablePointer<GstPad>, filter: UnsafeMutablePointer<GstCaps>?) -> Caps {
        let isSink = pad == sinkPad
        let otherPad = isSink ? srcPad! : sinkPad!
        let otherTemplate = templateCaps(otherPad)
        let peer = withExtendedLifetime(otherTemplate) {
            Caps(taking: gst_pad_peer_query_caps(otherPad, otherTemplate.pointer))
        }
        var result = delegate.transformCaps(peer, towardsSink: isSink).intersect(templateCaps(pad))
        if isSink, let restriction = sinkRestriction { result = result.intersect(restriction) }
        if let filter {
            result = Caps(taking: gst_caps_intersect_full(filter, result.pointer, GST_CAPS_INTERSECT_FIRST))
        }
        return result
    }

    /// Answers a caps query on `pad` with what it can take or give, within the query's filter.
    private func answerCapsQuery(_ query: UnsafeMutablePointer<GstQuery>, for pad: UnsafeMutablePointer<GstPad>) -> gboolean {
        var filter: UnsafeMutablePointer<GstCaps>?
        gst_query_parse_caps(query, &filter)
        let result = filterCaps(for: pad, filter: filter)
        withExtendedLifetime(result) { gst_query_set_caps_result(query, result.pointer) }
        return 1
    }

    func sinkQuery(
        _ pad: UnsafeMutablePointer<GstPad>, _ parent: UnsafeMutablePointer<GstObject>?,
        _ query: UnsafeMutablePointer<GstQuery>
    ) -> gboolean {
        switch query.pointee.type {
        case GST_QUERY_CAPS:
            return answerCapsQuery(query, for: pad)
        case GST_QUERY_ACCEPT_CAPS:
            var caps: UnsafeMutablePointer<GstCaps>?
            gst_query_parse_accept_caps(query, &caps)
            guard let caps else { return 0 }
            let allowed = filterCaps(for: pad, filter: nil)
            let accepted = withExtendedLifetime(allowed) { gst_caps_can_intersect(caps, allowed.pointer) }
            gst_query_set_accept_caps_result(query, accepted)
            return 1
        default:
            return gst_pad_query_default(pad, parent, query)
        }
    }

    func srcQuery(
        _ pad: UnsafeMutablePointer<GstPad>, _ parent: UnsafeMutablePointer<GstObject>?,
        _ query: UnsafeMutablePointer<GstQuery>
    ) -> gboolean {
        switch query.pointee.type {
        case GST_QUERY_CAPS:
            return answerCapsQuery(query, for: pad)
        case GST_QUERY_LATENCY:
            guard gst_pad_peer_query(sinkPad, query) != 0 else { return 0 }
            let added = GstClockTime(delegate.latency)
            guard added > 0 else { return 1 }
            var live: gboolean = 0
            var minimum: GstClockTime = 0
            var maximum: GstClockTime = 0
            gst_query_parse_latency(query, &live, &minimum, &maximum)
            gst_query_set_latency(query, live, minimum + added, maximum == GstClockTime.max ? maximum : maximum + added)
            return 1
        case GST_QUERY_POSITION, GST_QUERY_DURATION, GST_QUERY_SEEKING, GST_QUERY_CONVERT,
            GST_QUERY_SEGMENT, GST_QUERY_URI, GST_QUERY_FORMATS, GST_QUERY_BUFFERING:
            // Answered by upstream, as for any filter.
            return gst_pad_peer_query(sinkPad, query)
        default:
            return gst_pad_query_default(pad, parent, query)
        }
    }
}
