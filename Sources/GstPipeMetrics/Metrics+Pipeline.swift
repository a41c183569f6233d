import Foundation
import GStreamer
import GstPipeSupport
import Synchronization

extension Metrics {
    /// One output of a watched pipeline: where its raw frames enter, where its encoded frames leave
    /// the encoder, and where it ends. Its `name` is its label in the metrics (`output="rtsp0"`):
    /// short, fixed for the run, and holding no secret (not a URI).
    public struct Output: Sendable {
        /// The label: the output's scheme or extension and its index (`rtsp0`, `mp4_1`), or an element's name.
        public var name: String
        /// Frames in (`gstpipe_output_frames_in_total`): buffers entering this element's sink pads.
        public var entry: Element
        /// Frames out (`gstpipe_output_frames_out_total`): buffers leaving this element's source pads
        /// (the encoder), or nil to count those reaching `sink`.
        public var encoder: Element?
        /// Bytes (`gstpipe_output_bytes_total`): buffers entering this element's sink pads; and there the
        /// time from the input (`gstpipe_output_latency_seconds`), unless the output has a muxer.
        public var sink: Element
        /// Whether a muxer stands between `encoder` and `sink`: the time from the input is then taken
        /// where encoded frames leave the encoder, since a muxer holds frames to group them and what it
        /// sends on carries no frame's time.
        public var muxes: Bool
        /// Whether viewers watch it (`rtsp://`, `webrtc://`): it then has a `gstpipe_output_viewers` gauge.
        public var servesViewers: Bool

        /// An output to watch.
        ///
        /// - Parameters:
        ///   - name: Its label in the metrics.
        ///   - entry: Where its raw frames enter (the sink itself for a sink with nothing before it).
        ///   - encoder: Where its encoded frames leave, if it encodes.
        ///   - sink: Where it ends (filesink, appsink, udpsink, ...).
        ///   - muxes: Whether a muxer stands between the encoder and the sink.
        ///   - servesViewers: Whether viewers watch it.
        public init(
            name: String, entry: Element, encoder: Element? = nil, sink: Element, muxes: Bool = false,
            servesViewers: Bool = false
        ) {
            (self.name, self.entry, self.encoder, self.sink) = (name, entry, encoder, sink)
            (self.muxes, self.servesViewers) = (muxes, servesViewers)
        }
    }

    /// Starts counting what flows through `pipeline`: frames in and out of each Swift element (their own
    /// statistics, read at each scrape), of the input and of each output, the bytes and the latency of
    /// each output, the frames elements say they dropped, and its bus errors (an `error` event each).
    /// Call it before the pipeline plays; a second call watches the new pipeline instead.
    ///
    /// - Parameters:
    ///   - pipeline: The pipeline.
    ///   - input: The pad the input's frames pass; nil for the source pads of the pipeline's own
    ///     sources (its elements without sink pads).
    ///   - outputs: The outputs; nil for each of the pipeline's own sinks (its elements without
    ///     source pads), named by element.
    ///   - silenceLimit: How long the input may send nothing before ``health`` says it is not healthy.
    public func watch(
        _ pipeline: Pipeline, input: Pad? = nil, outputs: [Output]? = nil, silenceLimit: Duration = .seconds(10)
    ) {
        unwatch()
        let children = pipeline.children
        let inputPads =
            input.map { [$0] }
            ?? children.filter { !$0.pads.contains { $0.direction == .sink } }.flatMap(\.sourcePads)
        let outputs =
            outputs
            ?? children.filter { element in
                !element.pads.contains { $0.direction == .source } && element.pads.contains { $0.direction == .sink }
            }.map { Output(name: $0.name, entry: $0, sink: $0) }
        let watch = PipelineWatch(
            pipeline: pipeline, metrics: self, inputPads: inputPads, outputs: outputs, silenceLimit: silenceLimit)
        for output in outputs where output.servesViewers { servesViewers(output.name) }
        state.withLock { $0.watch = watch }
    }

    /// Stops counting the watched pipeline's flow (the counters keep their values).
    public func unwatch() {
        let watch = state.withLock { state -> PipelineWatch? in
            defer { state.watch = nil }
            return state.watch
        }
        watch?.stop()
    }
}

/// The input's frames and when the last one passed.
final class InputWatch: Sendable {
    let frames = Atomic<Int>(0)
    /// Set by the first frame.
    let started = Atomic<Bool>(false)
    /// Monotonic nanoseconds of the last frame; 0 before the first.
    private let lastFrame = Atomic<UInt64>(0)

    func sawFrameNow() { lastFrame.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed) }

    var secondsSinceFrame: Double? {
        let last = lastFrame.load(ordering: .relaxed)
        guard last > 0 else { return nil }
        return Double(DispatchTime.now().uptimeNanoseconds &- last) / 1e9
    }
}

/// One output's counters, updated on its streaming threads.
final class OutputWatch: Sendable {
    /// Upper bounds (seconds) of the latency histogram's buckets: a live encode and send takes tens of
    /// milliseconds; a muxer that writes fragments holds frames for a second or more.
    static let latencyBounds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    let name: String
    let framesIn = Atomic<Int>(0)
    let framesOut = Atomic<Int>(0)
    let bytes = Atomic<Int>(0)
    let latency = Locked(Histogram(bounds: OutputWatch.latencyBounds))

    init(name: String) { self.name = name }

    /// Counts what passes `pad` of `element`: frames out when `countsFrames`, bytes when `countsBytes`,
    /// and when `timesFrames` the time from the input of each buffer: the element's running time now
    /// less the buffer's running time (for a live input, when it was captured). A buffer ahead of its
    /// time (a file's, which the sink will wait for) counts as 0; one that passes before the pipeline
    /// plays (prerolling) is not timed.
    func probe(
        _ pad: Pad, of element: Element, countsFrames: Bool, countsBytes: Bool, timesFrames: Bool
    ) -> PadProbe? {
        let segment = Locked<Segment?>(nil)
        return pad.addProbe([.buffer, .bufferList, .eventDownstream]) { [self] info in
            if let new = info.event?.segment {
                segment.withLock { $0 = new }
                return .ok
            }
            if let count = info.bufferListLength {
                if countsFrames { framesOut.add(count, ordering: .relaxed) }
                return .ok
            }
            guard let buffer = info.buffer else { return .ok }
            if countsFrames { framesOut.add(1, ordering: .relaxed) }
            if countsBytes { bytes.add(buffer.size, ordering: .relaxed) }
            guard timesFrames, let pts = buffer.pts, let now = element.currentRunningTime else { return .ok }
            var time = pts
            if let segment = segment.withLock({ $0 }), segment.rate != 0 {
                time =
                    pts > segment.start
                    ? segment.base + ClockTime(Double(pts - segment.start) / abs(segment.rate)) : segment.base
            }
            let seconds = now > time ? Double(now - time) / 1e9 : 0
            latency.withLock { $0.observe(seconds) }
            return .ok
        }
    }
}

/// The probes and the bus reader of one watched pipeline.
final class PipelineWatch: Sendable {
    let input: InputWatch
    let outputs: [OutputWatch]
    let silenceLimit: Duration
    /// The Swift elements, by name, whose statistics a scrape reads.
    let swiftElements: [(name: String, element: SwiftElement)]
    private let probes: Locked<[PadProbe]>
    private let reader: Task<Void, Never>

    init(pipeline: Pipeline, metrics: Metrics, inputPads: [Pad], outputs: [Metrics.Output], silenceLimit: Duration) {
        self.silenceLimit = silenceLimit
        // gst_bin_iterate_recurse goes from the last element added: reversed, the order written.
        swiftElements = pipeline.allElements.reversed().compactMap { element in
            element.swiftElement.map { (element.name, $0) }
        }
        var probes: [PadProbe] = []
        let input = InputWatch()
        self.input = input
        for pad in inputPads {
            let probe = pad.addProbe([.buffer, .bufferList, .eventDownstream]) { info in
                if info.event?.typeName == "eos" { metrics.inputEnded() }
                guard info.buffer != nil || info.bufferListLength != nil else { return .ok }
                input.frames.add(info.bufferListLength ?? 1, ordering: .relaxed)
                input.sawFrameNow()
                if !input.started.exchange(true, ordering: .relaxed) { metrics.inputDelivers() }
                return .ok
            }
            if let probe { probes.append(probe) }
        }
        var watches: [OutputWatch] = []
        for output in outputs {
            let watch = OutputWatch(name: output.name)
            watches.append(watch)
            for pad in output.entry.pads where pad.direction == .sink {
                pad.addProbe([.buffer, .bufferList]) { info in
                    watch.framesIn.add(info.bufferListLength ?? 1, ordering: .relaxed)
                    return .ok
                }.map { probes.append($0) }
            }
            let timedAtEncoder = output.muxes && output.encoder != nil
            if let encoder = output.encoder {
                for pad in encoder.pads where pad.direction == .source {
                    watch.probe(pad, of: encoder, countsFrames: true, countsBytes: false, timesFrames: timedAtEncoder)
                        .map { probes.append($0) }
                }
            }
            for pad in output.sink.pads where pad.direction == .sink {
                watch.probe(
                    pad, of: output.sink, countsFrames: output.encoder == nil, countsBytes: true,
                    timesFrames: !timedAtEncoder
                ).map { probes.append($0) }
            }
        }
        self.outputs = watches
        self.probes = Locked(probes)
        // Subscribed here, before the pipeline plays: every message from now on.
        let messages = pipeline.messages
        reader = Task {
            for await message in messages {
                switch message {
                case .qos(let source?, let qos):
                    if let dropped = qos.dropped { metrics.dropped(dropped, by: source) }
                case .error(let error):
                    metrics.error(error.message, element: error.source)
                default:
                    continue
                }
            }
        }
    }

    func stop() {
        reader.cancel()
        probes.withLock { probes in
            probes.forEach { $0.remove() }
            probes.removeAll()
        }
    }
}
