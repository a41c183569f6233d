import Synchronization

/// Turns appsink samples into audio frames, remembering the shape of the current caps.
final class AudioFrameReader: Sendable {
    private let cached = Mutex<(caps: Caps, info: AudioInfo)?>(nil)

    func frame(from sample: Sample) throws -> AudioFrame {
        guard let buffer = sample.buffer, let caps = sample.caps else {
            throw MediaIOError("a sample without buffer or caps arrived")
        }
        let info = try cached.withLock { cached throws -> AudioInfo in
            if let cached, cached.caps.isSameCaps(as: caps) || cached.caps == caps { return cached.info }
            let info = try AudioInfo(caps: caps)
            cached = (caps, info)
            return info
        }
        return AudioFrame(buffer: buffer, info: info)
    }
}

extension AudioSourceAdapter: MediaIOAdapter { var wrapped: AnyObject { source } }
extension AudioSinkAdapter: MediaIOAdapter { var wrapped: AnyObject { sink } }
extension AudioFilterAdapter: MediaIOAdapter { var wrapped: AnyObject { filter } }

/// Drives an AudioSource from an appsrc element.
final class AudioSourceAdapter<Source: AudioSource>: ElementImplementation {
    let source: Source
    let consumer: ElementAudioConsumer

    init(source: Source, bridge: SwiftElement) {
        self.source = source
        self.consumer = ElementAudioConsumer(bridge: bridge)
    }

    func initialize() throws {
        consumer.reset()
        guard source.shouldInitialize(consumer: consumer) else {
            throw MediaIOError("\(Source.self).shouldInitialize(consumer:) returned false")
        }
    }
    func start() { source.shouldStart() }
    func stop() { source.shouldStop() }
    func dispose() { source.shouldDispose() }
    func needData() { consumer.produceRound { source.produceAudio() } }
}

/// Renders appsink samples on an AudioSink.
final class AudioSinkAdapter<Sink: AudioSink>: ElementImplementation {
    let sink: Sink
    // The element's bridge owns this adapter: holding it strongly would keep both alive forever. Weak,
    // not unowned: an adapter kept after its element is gone (`bridge.implementation`) does nothing.
    weak let bridge: SwiftElement?
    let reader = AudioFrameReader()

    init(sink: Sink, bridge: SwiftElement) {
        self.sink = sink
        self.bridge = bridge
    }

    func initialize() throws {
        try bridge?.acceptAudio(sink.audioFormat)
        guard sink.shouldInitialize() else {
            throw MediaIOError("\(Sink.self).shouldInitialize() returned false")
        }
    }
    func start() { sink.shouldStart() }
    func stop() { sink.shouldStop() }
    func dispose() { sink.shouldDispose() }
    func endOfStream() { sink.endOfStream() }
    func flushStarted() { sink.flush() }

    func render(_ sample: Sample) -> FlowResult {
        do {
            try sink.render(reader.frame(from: sample))
            return .ok
        } catch {
            bridge?.postError("\(error)")
            return .error
        }
    }
}

/// Renders appsink samples on an audio filter and sends what it consumes out through the appsrc.
final class AudioFilterAdapter<Filter: AudioFilter>: ElementImplementation {
    let filter: Filter
    // The element's bridge owns this adapter: holding it strongly would keep both alive forever. Weak,
    // not unowned: an adapter kept after its element is gone (`bridge.implementation`) does nothing.
    weak let bridge: SwiftElement?
    let consumer: ElementAudioConsumer
    let reader = AudioFrameReader()

    init(filter: Filter, bridge: SwiftElement) {
        self.filter = filter
        self.bridge = bridge
        self.consumer = ElementAudioConsumer(bridge: bridge)
    }

    func initialize() throws {
        consumer.reset()
        try bridge?.acceptAudio(filter.audioFormat)
        guard filter.shouldInitialize(consumer: consumer) else {
            throw MediaIOError("\(Filter.self).shouldInitialize(consumer:) returned false")
        }
    }
    func start() { filter.shouldStart() }
    func stop() { filter.shouldStop() }
    func dispose() { filter.shouldDispose() }
    func endOfStream() { filter.endOfStream() }
    func flushed() {
        consumer.reset()
        filter.flush()
    }

    /// Caps on one side for caps on the other: the same, except the channel count of a filter that
    /// converts it (any count in gives `outputChannels` out).
    func transformCaps(_ caps: Caps, towardsSink: Bool) -> Caps {
        guard let converting = filter as? any AudioChannelConverting else { return caps }
        if towardsSink { return caps.removing("channels").removing("channel-mask") }
        let channels = converting.outputChannels
        let result = caps.setting("channels", .int(channels)).removing("channel-mask")
        return channels <= 2 ? result : result.setting("channel-mask", .string("0x0"))
    }

    func render(_ sample: Sample) -> FlowResult {
        do {
            let frame = try reader.frame(from: sample)
            return try consumer.rendering(sample) { try filter.render(frame) }
        } catch {
            bridge?.postError("\(error)")
            return .error
        }
    }
}

extension SwiftElement {
    /// Limits the sink pad's inner appsink to what an audio sink or filter asks for.
    func acceptAudio(_ request: AudioFormatRequest) throws {
        restrictSinkCaps(try Caps(request.capsString))
    }
}
