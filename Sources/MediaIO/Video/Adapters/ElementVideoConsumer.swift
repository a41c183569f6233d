import GstPipeSupport
import Synchronization

/// The consumer a source is handed: frames go out through the element's appsrc.
final class ElementVideoConsumer: VideoFrameConsumer {
    // Weak: a source may keep its consumer on a thread of its own after the element is gone; frames it
    // hands over then are dropped (`.flushing`), as in a stopped pipeline.
    private weak let element: SwiftElement?

    private struct State {
        /// A filter's input sample while its `render` runs: the segment and caps of the output.
        var input: Sample?
        var inputFormat: VideoFrameFormat?
        var lastFlow: FlowResult = .ok
        /// The caps last sent downstream and what they were made from (the filter's input caps, the
        /// frame's shape), so caps are built once per stream, not once per frame. A source's
        /// negotiated caps seed it: they are kept whole (aspect ratio, colorimetry, ...).
        var outputCaps: (input: Caps?, format: VideoFrameFormat, caps: Caps)?
    }
    private let state = Locked(State())

    init(element: SwiftElement) {
        self.element = element
    }

    /// Runs a filter's render with `input` as the sample its output belongs to; returns how the last
    /// push went.
    func rendering(_ input: Sample, format: VideoFrameFormat, _ body: () throws -> Void) rethrows -> FlowResult {
        state.withLock {
            $0.input = input
            $0.inputFormat = format
            $0.lastFlow = .ok
        }
        defer {
            state.withLock {
                $0.input = nil
                $0.inputFormat = nil
            }
        }
        try body()
        return state.withLock { $0.lastFlow }
    }

    func consume(_ frame: VideoFrame) -> FlowResult {
        // The element is gone: drop the frame before any work, as a stopped pipeline would.
        guard element != nil else { return .flushing }
        let (input, inputFormat) = state.withLock { ($0.input, $0.inputFormat) }
        let result: FlowResult
        do {
            let outgoing: VideoFrame
            if frame.buffer != nil {
                outgoing = frame
            } else {
                outgoing = try copyIntoPool(frame)
            }
            let buffer = outgoing.buffer!.withTimestamps(
                pts: frame.hasTimestamp ? frame.timestamp : nil, duration: frame.duration)
            let caps = try outputCaps(for: outgoing.format, input: input, inputFormat: inputFormat)
            result = element?.push(buffer, caps: caps, segmentFrom: input) ?? .flushing
        } catch {
            reportError("\(error)")
            result = .error
        }
        state.withLock { $0.lastFlow = result }
        return result
    }

    func consumeRawData(
        _ bytes: UnsafeRawBufferPointer, timestamp: ClockTime, format: VideoFrameFormat, rotation: VideoRotation
    ) -> FlowResult {
        let frame: VideoFrame
        do {
            frame = try VideoFrame(
                copying: bytes,
                format: VideoFrameFormat(
                    pixelFormat: format.pixelFormat, width: format.width, height: format.height,
                    frameRate: format.frameRate),
                timestamp: timestamp, duration: format.frameRate.frameDuration, rotation: rotation)
        } catch {
            reportError("\(error)")
            return .error
        }
        return consume(frame)
    }

    func endOfStream() {
        element?.endOfStream()
    }

    func negotiate(_ request: VideoFormatRequest) -> VideoFrameFormat? {
        guard let filter = try? Caps(VideoPixelFormat.caps(for: request.pixelFormats)) else { return nil }
        let allowed = element?.downstreamCaps(filter: filter) ?? filter
        guard !allowed.isEmpty else { return nil }
        guard
            let fixed = try? allowed.fixated(preferring: [
                "width": .int(request.width), "height": .int(request.height),
                "framerate": .fraction(request.frameRate.numerator, request.frameRate.denominator)
            ])
        else { return nil }
        let info: VideoInfo
        do {
            info = try VideoInfo(caps: fixed)
        } catch {
            // Caps downstream takes but GStreamer cannot lay out (a frame too large): the reason, before
            // the source says it found no format.
            reportError("cannot make frames: \(error.message)")
            return nil
        }
        guard let pixelFormat = VideoPixelFormat(gstreamerName: info.formatName) else { return nil }
        let format = VideoFrameFormat(info: info, pixelFormat: pixelFormat)
        state.withLock { $0.outputCaps = (nil, format, fixed) }
        return format
    }

    func makeFrame(format: VideoFrameFormat, timestamp: ClockTime, duration: ClockTime?) throws -> VideoFrame {
        let info = try format.gstreamerInfo()
        guard let element else { throw MediaIOError("the element is gone: it takes no more frames") }
        let buffer = try element.makeVideoBuffer(info)
        let layout = info.adjusted(for: buffer)
        var frameFormat = format
        frameFormat.bytesPerRow = layout.strides
        return VideoFrame(buffer: buffer, info: layout, format: frameFormat, timestamp: timestamp, duration: duration)
    }

    /// Blocks of constant bytes by size and value, shared read-only by every frame that uses them.
    private let constantBlocks = Locked<[String: Buffer]>([:])

    func makeFrame(
        sharingFirstPlaneOf frame: VideoFrame, as pixelFormat: VideoPixelFormat, otherPlanesFilledWith value: UInt8
    ) -> VideoFrame? {
        // Only where the result is GStreamer's default layout, which any downstream element reads even
        // without GstVideoMeta support: the input's first plane must be laid out as by default.
        guard frame.format.planeCount > 1, frame.format.pixelFormat.isYUV, let input = frame.buffer,
            let info = frame.videoInfo, let standard = try? frame.format.gstreamerInfo(),
            info.strides == standard.strides, info.offsets == standard.offsets, input.size >= standard.size
        else { return nil }
        var format = frame.format
        format.pixelFormat = pixelFormat
        guard let outputLayout = try? format.gstreamerInfo(), outputLayout.strides[0] == standard.strides[0]
        else { return nil }
        let firstPlaneSize = standard.offsets[1]
        guard let firstPlane = input.region(offset: 0, size: min(firstPlaneSize, outputLayout.size)) else { return nil }
        var parts = [firstPlane]
        if pixelFormat == frame.format.pixelFormat {
            let restSize = standard.size - firstPlaneSize
            let block: Buffer? = constantBlocks.withLock { blocks in
                let key = "\(restSize)-\(value)"
                if let block = blocks[key] { return block }
                guard let block = try? Buffer(size: restSize),
                    (try? block.withMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: value) }) != nil
                else { return nil }
                if blocks.count > 8 { blocks.removeAll() }
                blocks[key] = block
                return block
            }
            guard let block else { return nil }
            parts.append(block)
        } else if pixelFormat != .gray8 {
            return nil
        }
        guard let output = try? Buffer.concatenating(parts), output.size == outputLayout.size,
            (try? output.addVideoMeta(outputLayout)) != nil
        else { return nil }
        format.bytesPerRow = outputLayout.strides
        return VideoFrame(
            buffer: output, info: outputLayout, format: format, timestamp: frame.timestamp, duration: frame.duration,
            rotation: frame.rotation, colorMatrix: frame.colorMatrix, hasTimestamp: frame.hasTimestamp)
    }

    func reportError(_ message: String) {
        element?.postError(message)
    }

    /// A frame in memory of its own, copied row by row into a pooled GStreamer buffer.
    private func copyIntoPool(_ frame: VideoFrame) throws -> VideoFrame {
        let target = try makeFrame(format: frame.format, timestamp: frame.timestamp, duration: frame.duration)
        try frame.copyPixels(into: target)
        return target
    }

    /// The caps for an output frame: the input's caps when a filter keeps the image shape (so
    /// colorimetry, aspect ratio and rate are kept), else caps for the frame's own format.
    private func outputCaps(for format: VideoFrameFormat, input: Sample?, inputFormat: VideoFrameFormat?) throws -> Caps
    {
        let inputCaps = input?.caps
        // The cache holds a reference to the input caps it was made from, so a pointer match is reliable.
        if let cached = state.withLock({ $0.outputCaps }), cached.format.hasSameImageShape(as: format),
            cached.format.frameRate == format.frameRate, ElementVideoConsumer.same(cached.input, inputCaps)
        {
            return cached.caps
        }
        let caps = try makeOutputCaps(for: format, inputCaps: inputCaps, inputFormat: inputFormat)
        state.withLock { $0.outputCaps = (inputCaps, format, caps) }
        return caps
    }

    private static func same(_ first: Caps?, _ second: Caps?) -> Bool {
        switch (first, second) {
        case (nil, nil): true
        case (let first?, let second?): first.isSameCaps(as: second)
        default: false
        }
    }

    private func makeOutputCaps(for format: VideoFrameFormat, inputCaps: Caps?, inputFormat: VideoFrameFormat?) throws
        -> Caps
    {
        if let inputCaps, let inputFormat {
            if format.hasSameImageShape(as: inputFormat) { return inputCaps }
            return inputCaps.setting("format", .string(format.pixelFormat.gstreamerName))
                .setting("width", .int(format.width)).setting("height", .int(format.height))
                .removing("colorimetry").removing("chroma-site")
        }
        return try format.gstreamerInfo().caps
    }
}
