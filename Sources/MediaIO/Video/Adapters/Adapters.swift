import Synchronization

/// Errors of the MediaIO layer.
public struct MediaIOError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, in words for the user.
    public var description: String

    /// An error saying `description`.
    ///
    /// - Parameter description: What went wrong, in words for the user.
    public init(_ description: String) {
        self.description = description
    }
}

/// Turns samples from the appsink into frames, remembering the layout of the current caps.
final class FrameReader: Sendable {
    private let cached = Mutex<(caps: Caps, info: VideoInfo, pixelFormat: VideoPixelFormat, matrix: VideoColorMatrix)?>(nil)

    func frame(from sample: Sample) throws -> VideoFrame {
        guard let buffer = sample.buffer, let caps = sample.caps else {
            throw MediaIOError("a sample without buffer or caps arrived")
        }
        let (info, pixelFormat, matrix) = try cached.withLock {
            cached throws -> (VideoInfo, VideoPixelFormat, VideoColorMatrix) in
            // Samples of one stream share one GstCaps: identity first, then the (slower) deep comparison.
            if let cached, cached.caps.isSameCaps(as: caps) || cached.caps == caps {
                return (cached.info, cached.pixelFormat, cached.matrix)
            }
            let info = try VideoInfo(caps: caps)
            guard let pixelFormat = VideoPixelFormat(gstreamerName: info.formatName) else {
                throw MediaIOError("unsupported pixel format \(info.formatName)")
            }
            let matrix = caps.colorMatrix.flatMap(VideoColorMatrix.init(rawValue:)) ?? .unknown
            cached = (caps, info, pixelFormat, matrix)
            return (info, pixelFormat, matrix)
        }
        let layout = info.adjusted(for: buffer)
        return VideoFrame(
            buffer: buffer, info: layout, format: VideoFrameFormat(info: layout, pixelFormat: pixelFormat),
            timestamp: buffer.pts ?? 0, duration: buffer.duration, colorMatrix: matrix, hasTimestamp: buffer.pts != nil)
    }
}

/// An adapter between a bridge and a MediaIO object, which `Pipeline.mediaIOElement` unwraps.
protocol MediaIOAdapter {
    var wrapped: AnyObject { get }
}

extension SourceAdapter: MediaIOAdapter { var wrapped: AnyObject { source } }
extension SinkAdapter: MediaIOAdapter { var wrapped: AnyObject { sink } }
extension FilterAdapter: MediaIOAdapter { var wrapped: AnyObject { filter } }

/// Drives a VideoSource from an appsrc element.
final class SourceAdapter<Source: VideoSource>: ElementImplementation {
    let source: Source
    let consumer: ElementVideoConsumer

    init(source: Source, bridge: SwiftElement) {
        self.source = source
        self.consumer = ElementVideoConsumer(bridge: bridge)
    }

    func initialize() throws {
        guard source.shouldInitialize(consumer: consumer) else {
            throw MediaIOError("\(Source.self).shouldInitialize(consumer:) returned false")
        }
    }
    func start() { source.shouldStart() }
    func stop() { source.shouldStop() }
    func dispose() { source.shouldDispose() }
    func needData() { source.produceFrame() }
}

/// Renders appsink samples on a VideoSink.
final class SinkAdapter<Sink: VideoSink>: ElementImplementation {
    let sink: Sink
    // The element's bridge owns this adapter: holding it strongly would keep both alive forever. Weak,
    // not unowned: an adapter kept after its element is gone (`bridge.implementation`) does nothing.
    weak let bridge: SwiftElement?
    let reader = FrameReader()

    init(sink: Sink, bridge: SwiftElement) {
        self.sink = sink
        self.bridge = bridge
    }

    func initialize() throws {
        bridge?.accept(sink.acceptedPixelFormats)
        guard sink.shouldInitialize() else {
            throw MediaIOError("\(Sink.self).shouldInitialize() returned false")
        }
    }
    func start() { sink.shouldStart() }
    func stop() { sink.shouldStop() }
    func dispose() { sink.shouldDispose() }
    func endOfStream() { sink.endOfStream() }

    func render(_ sample: Sample) -> FlowResult {
        do {
            try deliver(reader.frame(from: sample), to: sink)
            return .ok
        } catch {
            bridge?.postError("\(error)")
            return .error
        }
    }
}

/// Renders appsink samples on a filter and sends what it consumes out through the appsrc.
final class FilterAdapter<Filter: VideoFilter>: ElementImplementation {
    let filter: Filter
    // The element's bridge owns this adapter: holding it strongly would keep both alive forever. Weak,
    // not unowned: an adapter kept after its element is gone (`bridge.implementation`) does nothing.
    weak let bridge: SwiftElement?
    let consumer: ElementVideoConsumer
    let reader = FrameReader()

    init(filter: Filter, bridge: SwiftElement) {
        self.filter = filter
        self.bridge = bridge
        self.consumer = ElementVideoConsumer(bridge: bridge)
    }

    func initialize() throws {
        bridge?.accept(filter.acceptedPixelFormats)
        guard filter.shouldInitialize(consumer: consumer) else {
            throw MediaIOError("\(Filter.self).shouldInitialize(consumer:) returned false")
        }
    }
    func start() { filter.shouldStart() }
    func stop() { filter.shouldStop() }
    func dispose() { filter.shouldDispose() }
    func endOfStream() { filter.endOfStream() }

    /// Caps on one side for caps on the other: the same, unless the filter converts to one format.
    func transformCaps(_ caps: Caps, towardsSink: Bool) -> Caps {
        guard let converting = filter as? any VideoFormatConverting, let output = converting.outputPixelFormat
        else { return caps }
        if towardsSink {
            // Any accepted input format gives `output`, so only size and rate come from downstream.
            return caps.removing("format").removing("colorimetry").removing("chroma-site")
        }
        return caps.setting("format", .string(output.gstreamerName)).removing("colorimetry").removing("chroma-site")
    }

    func render(_ sample: Sample) -> FlowResult {
        do {
            let frame = try reader.frame(from: sample)
            return try consumer.rendering(sample, format: frame.format) {
                try deliver(frame, to: filter)
            }
        } catch {
            bridge?.postError("\(error)")
            return .error
        }
    }
}

extension SwiftElement {
    /// Limits the sink pad to `formats` (a sink's `acceptedPixelFormats`, read at initialization).
    func accept(_ formats: [VideoPixelFormat]) {
        if let caps = try? Caps(VideoPixelFormat.caps(for: formats)) { restrictSinkCaps(caps) }
    }
}

/// Calls `render` or, for raw-data sinks, `renderRawData` with a packed copy.
private func deliver(_ frame: VideoFrame, to sink: some VideoSink) throws {
    switch sink.bufferType {
    case .pixelBuffer:
        try sink.render(frame)
    case .rawData:
        let bytes = try frame.packedBytes()
        var format = frame.format
        format.bytesPerRow = (0..<format.planeCount).map { format.pixelBytesPerRow(inPlane: $0) }
        try bytes.withUnsafeBytes { raw in
            try sink.renderRawData(raw, format: format, timestamp: frame.timestamp, rotation: frame.rotation)
        }
    }
}
