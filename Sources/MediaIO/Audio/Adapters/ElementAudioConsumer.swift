import GstPipeSupport
import Synchronization

/// The consumer an audio source or filter is handed: samples go out through the element's appsrc,
/// cut into buffers of the requested size and timed by a sample count.
final class ElementAudioConsumer: AudioFrameConsumer {
    // Weak: a source may keep its consumer on a thread of its own after the element is gone; what it
    // hands over then is dropped (`.flushing`), as in a stopped pipeline.
    private weak let element: SwiftElement?

    private struct State {
        var info: AudioInfo?
        var caps: Caps?
        var samplesPerBuffer: Int?
        /// Interleaved bytes not yet sent: less than one buffer's worth.
        var pending: [UInt8] = []
        /// The time of the count's first sample, and the samples sent since.
        var base: ClockTime = 0
        var sent = 0
        var discontinuity = false
        /// A filter's input sample while its `render` runs: the segment of the output.
        var input: Sample?
        var lastFlow: FlowResult = .ok
        /// Calls that handed samples in, and buffers that went out: a pull-mode round must send one.
        var taken = 0
        var pushed = 0
        var ended = false
    }
    private let state = Locked(State())

    init(element: SwiftElement) {
        self.element = element
    }

    var format: AudioInfo? { state.withLock { $0.info } }

    /// Forgets what a previous run left: pending samples and the count (a new run starts at 0).
    func reset() {
        state.withLock { state in
            state.pending.removeAll()
            state.base = 0
            state.sent = 0
            state.discontinuity = false
            state.ended = false
        }
    }

    /// Runs a filter's render with `input` as the sample its output belongs to; returns how the last
    /// push went.
    func rendering(_ input: Sample, _ body: () throws -> Void) rethrows -> FlowResult {
        state.withLock {
            $0.input = input
            $0.lastFlow = .ok
        }
        defer { state.withLock { $0.input = nil } }
        try body()
        return state.withLock { $0.lastFlow }
    }

    func negotiate(_ request: AudioFormatRequest) -> AudioInfo? {
        guard let wanted = try? Caps(request.capsString) else { return nil }
        let allowed = element?.downstreamCaps(filter: wanted) ?? wanted
        guard !allowed.isEmpty else { return nil }
        var preferences: [String: PropertyValue] = [:]
        if let rate = request.rate ?? request.preferredRate { preferences["rate"] = .int(rate) }
        if let channels = request.channels ?? request.preferredChannels { preferences["channels"] = .int(channels) }
        guard let fixed = try? allowed.fixated(preferring: preferences) else { return nil }
        guard let info = (try? AudioInfo(caps: fixed)) ?? Self.positionedInfo(fixed) else { return nil }
        state.withLock { state in
            state.info = info
            state.caps = info.caps
            state.samplesPerBuffer = request.samplesPerBuffer
        }
        return info
    }

    /// Fixed caps of more than two channels without a channel mask (a caps filter's
    /// `channels=6`), which GstAudioInfo refuses: GStreamer's usual positions for the count.
    private static func positionedInfo(_ caps: Caps) -> AudioInfo? {
        guard let name = caps.string("format"), let format = AudioSampleFormat(gstreamerName: name),
            let rate = caps.int("rate"), let channels = caps.int("channels")
        else { return nil }
        let layout: AudioLayout = caps.string("layout") == "non-interleaved" ? .nonInterleaved : .interleaved
        return try? AudioInfo(format: format, rate: rate, channels: channels, layout: layout)
    }

    func consumeSamples<T: AudioSample>(_ samples: UnsafeBufferPointer<T>, timestamp: ClockTime?) -> FlowResult {
        guard let info = format else {
            reportError("samples pushed before a format was negotiated: call consumer.negotiate(_:) first")
            return .notNegotiated
        }
        guard T.sampleFormat == info.format else {
            reportError(
                "\(T.self) samples pushed into a \(info.format.gstreamerName) stream: push \(info.format.swiftTypeName)"
            )
            return .notNegotiated
        }
        return consumeRawData(UnsafeRawBufferPointer(samples), format: info, timestamp: timestamp)
    }

    func consumeRawData(_ bytes: UnsafeRawBufferPointer, format: AudioInfo, timestamp: ClockTime?) -> FlowResult {
        // The element is gone: drop the samples before any work, as a stopped pipeline would.
        guard element != nil else { return .flushing }
        guard format.layout == .interleaved || format.channels == 1 else {
            reportError("raw audio is pushed interleaved: give an interleaved format (or push AudioFrames)")
            return .notNegotiated
        }
        guard bytes.count % format.bytesPerFrame == 0 else {
            reportError(
                "\(bytes.count) bytes are no whole number of \(format.channels)-channel \(format.format.gstreamerName) "
                    + "instants (\(format.bytesPerFrame) bytes each)")
            return .error
        }
        var flow = FlowResult.ok
        if format != self.format {
            flow = flushPending()
            guard changeFormat(to: format) else { return .notNegotiated }
        }
        if let timestamp { flow = rebase(at: timestamp, flow: flow) }
        guard flow == .ok else { return flow }
        // Each sample is copied once: straight into its buffer, or into `pending` when it does not
        // fill one (and from there into the next buffer).
        let chunks: Result<[Buffer], GStreamerError> = state.withLock { state in
            state.taken += 1
            let chunkBytes = (state.samplesPerBuffer ?? 0) > 0 ? state.samplesPerBuffer! * format.bytesPerFrame : nil
            var input = bytes[...]
            var buffers: [Buffer] = []
            while true {
                // Without a buffer size, everything there is goes out as one buffer.
                let available = state.pending.count + input.count
                let size = chunkBytes ?? available
                guard size > 0, available >= size else { break }
                let fromInput = size - state.pending.count
                do {
                    let buffer = try Buffer(size: size)
                    try buffer.withMutableBytes { target in
                        state.pending.withUnsafeBytes { target.copyMemory(from: $0) }
                        UnsafeMutableRawBufferPointer(rebasing: target[state.pending.count...])
                            .copyMemory(from: UnsafeRawBufferPointer(rebasing: input.prefix(fromInput)))
                    }
                    buffers.append(buffer)
                } catch {
                    return .failure(GStreamerError(kind: .core, message: "\(error)"))
                }
                state.pending.removeAll(keepingCapacity: true)
                input = input.dropFirst(fromInput)
                if chunkBytes == nil { break }
            }
            state.pending.append(contentsOf: input)
            return .success(buffers)
        }
        switch chunks {
        case .failure(let error):
            reportError(error.message)
            return .error
        case .success(let buffers):
            for buffer in buffers {
                flow = send(buffer, info: format)
                guard flow == .ok else { break }
            }
            return flow
        }
    }

    /// A timestamp more than a millisecond from the count's: what is pending goes out on the old
    /// count, and the count starts again there, flagged as a discontinuity.
    private func rebase(at timestamp: ClockTime, flow: FlowResult) -> FlowResult {
        let expected: ClockTime? = state.withLock { state in
            guard let info = state.info else { return nil }
            let pendingSamples = state.pending.count / info.bytesPerFrame
            return state.base + info.duration(ofSamples: state.sent + pendingSamples)
        }
        guard let expected, (timestamp > expected ? timestamp - expected : expected - timestamp) > 1_000_000 else {
            return flow
        }
        let flushed = flushPending()
        state.withLock { state in
            state.base = timestamp
            state.sent = 0
            state.discontinuity = true
        }
        return flow == .ok ? flushed : flow
    }

    private func changeFormat(to format: AudioInfo) -> Bool {
        let caps = format.caps
        if state.withLock({ $0.info }) != nil, (element?.downstreamCaps(filter: caps).isEmpty ?? false) {
            reportError("downstream takes no \(format): put audioconvert ! audioresample after the element")
            return false
        }
        state.withLock { state in
            // The count goes on in time: the new format's samples start where the old ones ended.
            if let old = state.info {
                state.base += old.duration(ofSamples: state.sent)
                state.sent = 0
            }
            state.info = format
            state.caps = caps
        }
        return true
    }

    /// Sends what is pending as one (short) buffer.
    private func flushPending() -> FlowResult {
        let (bytes, info) = state.withLock { state -> ([UInt8], AudioInfo?) in
            defer { state.pending.removeAll(keepingCapacity: true) }
            return (state.pending, state.info)
        }
        guard let info, !bytes.isEmpty else { return .ok }
        do {
            return send(try bytes.withUnsafeBytes { try Buffer(copying: $0) }, info: info)
        } catch {
            reportError("\(error)")
            return .error
        }
    }

    /// Times `buffer` by the sample count and pushes it.
    private func send(_ buffer: Buffer, info: AudioInfo) -> FlowResult {
        let samples = buffer.size / info.bytesPerFrame
        let (timestamp, end, discontinuity, caps) = state.withLock { state in
            let start = state.base + info.duration(ofSamples: state.sent)
            state.sent += samples
            defer { state.discontinuity = false }
            return (
                start, state.base + info.duration(ofSamples: state.sent), state.discontinuity, state.caps ?? info.caps
            )
        }
        buffer.pts = timestamp
        buffer.duration = end - timestamp
        buffer.setDiscontinuity(discontinuity)
        return push(buffer, caps: caps)
    }

    func consume(_ frame: AudioFrame) -> FlowResult {
        guard let element else { return .flushing }
        let (input, caps) = state.withLock { state -> (Sample?, Caps) in
            if state.info != frame.info {
                state.info = frame.info
                state.caps = frame.info.caps
            }
            if state.input == nil {
                // A source's own frame: the count moves on past it.
                let expected = state.base + frame.info.duration(ofSamples: state.sent)
                if expected != frame.timestamp {
                    state.base = frame.timestamp
                    state.sent = 0
                }
                state.sent += frame.sampleCount
            }
            return (state.input, state.caps!)
        }
        let buffer = frame.buffer.withTimestamps(
            pts: frame.timestamp, duration: frame.duration, discontinuity: frame.isDiscontinuity)
        let result = element.push(buffer, caps: caps, segmentFrom: input)
        state.withLock { state in
            state.lastFlow = result
            state.taken += 1
            // A source's own frame is a buffer out for `produceRound`; a filter's output is not counted.
            if input == nil { state.pushed += 1 }
        }
        return result
    }

    private func push(_ buffer: Buffer, caps: Caps) -> FlowResult {
        let input = state.withLock { $0.input }
        let result = element?.push(buffer, caps: caps, segmentFrom: input) ?? .flushing
        state.withLock {
            $0.lastFlow = result
            $0.pushed += 1
        }
        return result
    }

    /// Pull mode: calls `produce` until a buffer went out. The appsrc asks again only after a push,
    /// so a call that left its samples pending (less than a buffer) would leave the stream waiting
    /// for ever. A call that hands in nothing at all (a push-mode source) ends the round.
    func produceRound(_ produce: () -> Void) {
        while true {
            let before = state.withLock { ($0.taken, $0.pushed) }
            produce()
            let after = state.withLock { ($0.taken, $0.pushed, $0.ended, $0.lastFlow) }
            if after.1 != before.1 || after.0 == before.0 || after.2 || after.3 != .ok { return }
        }
    }

    func makeFrame(sampleCount: Int, format: AudioInfo?, timestamp: ClockTime?) throws -> AudioFrame {
        // The format and the count's time in one lock (a source makes a frame for every buffer).
        let (current, countTime) = state.withLock { state -> (AudioInfo?, ClockTime) in
            guard let info = format ?? state.info else { return (nil, 0) }
            return (info, state.base + (format == nil || state.info == info ? info.duration(ofSamples: state.sent) : 0))
        }
        guard let info = current else {
            throw MediaIOError("no format yet: negotiate one before making frames")
        }
        guard let element else { throw MediaIOError("the element is gone: no frames can be made for it") }
        let buffer = try element.makeBuffer(size: sampleCount * info.bytesPerFrame)
        if info.layout == .nonInterleaved && info.channels > 1 { buffer.addAudioMeta(info, samples: sampleCount) }
        let start = timestamp ?? countTime
        let end = start + info.duration(ofSamples: sampleCount)
        return AudioFrame(
            newBuffer: buffer, info: info, sampleCount: sampleCount, timestamp: start, duration: end - start)
    }

    func endOfStream() {
        _ = flushPending()
        state.withLock { $0.ended = true }
        element?.endOfStream()
    }

    func reportError(_ message: String) {
        element?.postError(message)
    }
}
