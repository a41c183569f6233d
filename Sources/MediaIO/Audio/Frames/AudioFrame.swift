/// Audio samples with their shape and time: what an audio sink renders and a source hands on.
///
/// Samples stay in their GStreamer buffer; the scoped accessors read them in place as the Swift
/// type of their format (`Int16` for S16LE, ...): interleaved (`withSamples`) or one buffer per
/// channel (`withChannels`, for non-interleaved audio).
public struct AudioFrame: Sendable {
    /// The buffer holding the samples.
    public let buffer: Buffer
    /// The samples' shape: sample format, rate, channel count and layout.
    public let info: AudioInfo
    /// Samples per channel.
    public let sampleCount: Int
    /// Presentation time in nanoseconds.
    public var timestamp: ClockTime
    /// In nanoseconds.
    public var duration: ClockTime
    /// The first frame after a gap or a jump in time.
    public var isDiscontinuity: Bool

    /// A frame over `buffer`, whose samples are of shape `info`.
    /// The sample count comes from the buffer's GstAudioMeta when it has one, else from its size.
    ///
    /// - Parameters:
    ///   - buffer: The buffer holding the samples; the frame keeps a reference, no copy is made.
    ///   - info: The samples' shape.
    ///   - timestamp: Presentation time in nanoseconds; nil takes the buffer's PTS (0 when it has none).
    ///   - duration: Duration in nanoseconds; nil takes the buffer's, or computes it from the sample count.
    public init(buffer: Buffer, info: AudioInfo, timestamp: ClockTime? = nil, duration: ClockTime? = nil) {
        self.buffer = buffer
        self.info = info
        sampleCount = buffer.audioMetaSamples ?? buffer.size / max(info.bytesPerFrame, 1)
        self.timestamp = timestamp ?? buffer.pts ?? 0
        self.duration = duration ?? buffer.duration ?? info.duration(ofSamples: sampleCount)
        isDiscontinuity = buffer.isDiscontinuity
    }

    /// A frame over a new buffer of `sampleCount` samples a channel, known to the caller: none of the
    /// buffer's metadata is read (a source makes one of these for every buffer).
    init(newBuffer buffer: Buffer, info: AudioInfo, sampleCount: Int, timestamp: ClockTime, duration: ClockTime) {
        self.buffer = buffer
        self.info = info
        self.sampleCount = sampleCount
        self.timestamp = timestamp
        self.duration = duration
        isDiscontinuity = false
    }

    /// A frame holding a copy of `samples`, interleaved, of shape `info` (whose format must be `T`'s).
    ///
    /// - Parameters:
    ///   - samples: Interleaved samples, a whole number of instants (`info.channels` samples each).
    ///   - info: The shape; it must be interleaved, with `T`'s sample format.
    ///   - timestamp: Presentation time in nanoseconds; the duration follows from the sample count and rate.
    /// - Throws: ``MediaIOError`` when `T` is not `info`'s format, `info` is not interleaved or the count is not a
    ///   multiple of the channel count; `GStreamerError` when no buffer can be allocated.
    public init<T: AudioSample>(copying samples: UnsafeBufferPointer<T>, info: AudioInfo, timestamp: ClockTime) throws {
        guard T.sampleFormat == info.format else { throw AudioFrame.wrongType(T.self, info) }
        guard info.layout == .interleaved else {
            throw MediaIOError("samples copied in one run are interleaved: give an interleaved AudioInfo")
        }
        guard samples.count % info.channels == 0 else {
            throw MediaIOError("\(samples.count) samples are no whole number of \(info.channels)-channel instants")
        }
        let buffer = try Buffer(copying: UnsafeRawBufferPointer(samples))
        let count = samples.count / info.channels
        self.init(buffer: buffer, info: info, timestamp: timestamp, duration: info.duration(ofSamples: count))
    }

    /// Reads interleaved samples as `T` (L R L R ... for stereo).
    ///
    /// - Parameters:
    ///   - type: The Swift type of the frame's sample format (`AudioSampleFormat.swiftTypeName`).
    ///   - body: Reads `sampleCount × channels` samples, in place; the pointer is valid only until it returns.
    /// - Returns: What `body` returns.
    /// - Throws: ``MediaIOError`` when `T` is not the frame's format or the frame is non-interleaved (and not
    ///   mono); `GStreamerError` when the buffer cannot be mapped; or what `body` throws.
    public func withSamples<T: AudioSample, R>(as type: T.Type, _ body: (UnsafeBufferPointer<T>) throws -> R) throws
        -> R
    {
        try check(T.self, interleaved: true)
        return try buffer.withAudioPlanes(info) { planes, _ in try body(planes[0].bindMemory(to: T.self)) }
    }

    /// Reads non-interleaved samples as `T`, one buffer per channel. Mono audio works either way.
    ///
    /// - Parameters:
    ///   - type: The Swift type of the frame's sample format (`AudioSampleFormat.swiftTypeName`).
    ///   - body: Reads one buffer of `sampleCount` samples per channel, in place; the pointers are valid only
    ///     until it returns.
    /// - Returns: What `body` returns.
    /// - Throws: ``MediaIOError`` when `T` is not the frame's format or the frame is interleaved (and not mono);
    ///   `GStreamerError` when the buffer cannot be mapped; or what `body` throws.
    public func withChannels<T: AudioSample, R>(as type: T.Type, _ body: ([UnsafeBufferPointer<T>]) throws -> R) throws
        -> R
    {
        try check(T.self, interleaved: false)
        return try buffer.withAudioPlanes(info) { planes, _ in try body(planes.map { $0.bindMemory(to: T.self) }) }
    }

    /// Writes interleaved samples (a frame from `makeFrame`, or one no one else holds).
    ///
    /// - Parameters:
    ///   - type: The Swift type of the frame's sample format.
    ///   - body: Writes `sampleCount × channels` samples, in place; the pointer is valid only until it returns.
    /// - Returns: What `body` returns.
    /// - Throws: ``MediaIOError`` when `T` is not the frame's format or the frame is non-interleaved (and not
    ///   mono); `GStreamerError` when the buffer is shared or cannot be mapped; or what `body` throws.
    public func withMutableSamples<T: AudioSample, R>(
        as type: T.Type, _ body: (UnsafeMutableBufferPointer<T>) throws -> R
    ) throws -> R {
        try check(T.self, interleaved: true)
        return try buffer.withMutableAudioPlanes(info) { planes, _ in try body(planes[0].bindMemory(to: T.self)) }
    }

    /// Writes non-interleaved samples, one buffer per channel.
    ///
    /// - Parameters:
    ///   - type: The Swift type of the frame's sample format.
    ///   - body: Writes one buffer of `sampleCount` samples per channel, in place; the pointers are valid only
    ///     until it returns.
    /// - Returns: What `body` returns.
    /// - Throws: ``MediaIOError`` when `T` is not the frame's format or the frame is interleaved (and not mono);
    ///   `GStreamerError` when the buffer is shared or cannot be mapped; or what `body` throws.
    public func withMutableChannels<T: AudioSample, R>(
        as type: T.Type, _ body: ([UnsafeMutableBufferPointer<T>]) throws -> R
    ) throws -> R {
        try check(T.self, interleaved: false)
        return try buffer.withMutableAudioPlanes(info) { planes, _ in try body(planes.map { $0.bindMemory(to: T.self) })
        }
    }

    /// The samples as `T` in interleaved order, whatever the layout (a copy: for checks and small frames).
    ///
    /// - Parameter type: The Swift type of the frame's sample format.
    /// - Returns: `sampleCount × channels` samples: L R L R … for stereo.
    /// - Throws: ``MediaIOError`` when `T` is not the frame's format; `GStreamerError` when the buffer
    ///   cannot be mapped.
    public func interleavedSamples<T: AudioSample>(as type: T.Type) throws -> [T] {
        guard T.sampleFormat == info.format else { throw AudioFrame.wrongType(T.self, info) }
        return try buffer.withAudioPlanes(info) { planes, samples in
            if info.layout == .interleaved || info.channels == 1 {
                return Array(planes[0].bindMemory(to: T.self).prefix(samples * info.channels))
            }
            let channels = planes.map { $0.bindMemory(to: T.self) }
            var result: [T] = []
            result.reserveCapacity(samples * info.channels)
            for index in 0..<samples {
                for channel in channels { result.append(channel[index]) }
            }
            return result
        }
    }

    private func check<T: AudioSample>(_ type: T.Type, interleaved: Bool) throws {
        guard T.sampleFormat == info.format else { throw AudioFrame.wrongType(T.self, info) }
        guard info.channels == 1 || (info.layout == .interleaved) == interleaved else {
            throw MediaIOError(
                interleaved
                    ? "the frame's \(info.channels) channels are in planes of their own (non-interleaved): read them with withChannels"
                    : "the frame's \(info.channels) channels are interleaved: read them with withSamples")
        }
    }

    static func wrongType<T>(_ type: T.Type, _ info: AudioInfo) -> MediaIOError {
        MediaIOError(
            "the frame holds \(info.format.gstreamerName) samples, not \(T.self): read them as \(info.format.swiftTypeName)"
        )
    }
}

extension AudioSampleFormat {
    /// The Swift type that reads this format.
    public var swiftTypeName: String {
        switch self {
        case .s16: "Int16"
        case .s32: "Int32"
        case .f32: "Float"
        case .f64: "Double"
        case .u8: "UInt8"
        }
    }
}
