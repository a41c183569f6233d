import Foundation

/// An audio sink the application pulls from when its device wants samples: the render path of RTC
/// SDKs (Agora's `pullPlaybackAudioFrame`, OpenTok's `readRenderData`).
///
/// Frames from the pipeline are queued, up to `capacity`; a full queue holds the streaming thread,
/// so the device's pace sets the pipeline's (run the element with `sync=false`). `pull` never
/// waits: what is not queued yet comes out as silence, and the count of missing samples says so.
///
///     let format = try AudioInfo(format: .s16, rate: 48000, channels: 2)
///     try MediaIOElements.registerAudioSink(name: "device", longName: "Device", description: "...") { _ in
///         AudioPullSink(format: format)
///     }
///     let pipeline = try Pipeline(launch: "uridecodebin uri=... ! device name=out sync=false")
///     let device = pipeline.mediaIOElement(named: "out", as: AudioPullSink.self)!
///     try pipeline.play()
///     var chunk = [Int16](repeating: 0, count: 480 * 2)            // 10 ms of stereo
///     let missing = try chunk.withUnsafeMutableBufferPointer { try device.pull(into: $0) }
public final class AudioPullSink: AudioSink, @unchecked Sendable {
    // @unchecked: every mutable field below is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var queue: [UInt8] = []
    private var readOffset = 0
    private var ended = false
    private var stopped = false
    private var underruns = 0
    /// Set by the first frame: pulls before it are not underruns, the stream has not begun.
    private var begun = false
    /// Counts flushes: a render that waited across one drops its frame.
    private var flushes = 0

    /// The shape of what `pull` gives.
    public let info: AudioInfo
    /// The most samples (per channel) queued before the streaming thread waits.
    public let capacity: Int
    /// Exactly ``info``: the element converts any input to it.
    public var audioFormat: AudioFormatRequest { AudioFormatRequest(info) }

    /// A sink giving `format` (interleaved; converted from any input), queueing up to
    /// `capacityMilliseconds` of it.
    ///
    /// - Parameters:
    ///   - format: The sample format, rate and channel count `pull` gives; its layout is made interleaved.
    ///   - capacityMilliseconds: How much audio, in milliseconds, may be queued before the streaming thread
    ///     waits for pulls.
    public init(format: AudioInfo, capacityMilliseconds: Int = 200) {
        var interleaved = format
        interleaved.layout = .interleaved
        info = interleaved
        let (scaled, overflow) = format.rate.multipliedReportingOverflow(by: max(capacityMilliseconds, 0))
        capacity = overflow ? Int.max / 1000 : max(1, scaled / 1000)
    }

    /// Samples (per channel) queued now.
    public var queuedSamples: Int {
        condition.lock()
        defer { condition.unlock() }
        return (queue.count - readOffset) / info.bytesPerFrame
    }

    /// True once the stream ended (or the element was stopped for good, at READY → NULL) and
    /// everything queued was pulled.
    public var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return ended && queue.count == readOffset
    }

    /// Pulls, after the first samples arrived, that found fewer queued than they asked for.
    public var underrunCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return underruns
    }

    /// Fills `samples` (interleaved, whole instants) with the next queued samples, and silence where
    /// there are none; returns how many samples per channel were silence. Never waits.
    /// Call it from the device's thread; `T` must be the Swift type of ``info``'s sample format.
    ///
    /// - Parameter samples: Where the samples go: `n × channels` of them for `n` instants (an empty buffer
    ///   takes nothing).
    /// - Returns: Samples per channel filled with silence for want of queued audio: 0 when all were there.
    /// - Throws: ``MediaIOError`` when `T` is not the Swift type of ``info``'s sample format.
    public func pull<T: AudioSample>(into samples: UnsafeMutableBufferPointer<T>) throws(MediaIOError) -> Int {
        guard T.sampleFormat == info.format else {
            throw MediaIOError("pull \(info.format.swiftTypeName) samples from this sink, not \(T.self)")
        }
        let wanted = samples.count / info.channels
        guard wanted > 0, let destination = samples.baseAddress else { return 0 }
        let bytesWanted = wanted * info.bytesPerFrame
        condition.lock()
        let available = min(bytesWanted, queue.count - readOffset)
        if available > 0 {
            queue.withUnsafeBytes { bytes in
                guard let source = bytes.baseAddress else { return }
                UnsafeMutableRawPointer(destination).copyMemory(from: source + readOffset, byteCount: available)
            }
        }
        readOffset += available
        if readOffset > 64 * 1024 && readOffset * 2 > queue.count {
            queue.removeFirst(readOffset)
            readOffset = 0
        }
        let missing = wanted - available / info.bytesPerFrame
        if missing > 0 && !ended && begun { underruns += 1 }
        condition.broadcast()
        condition.unlock()
        if missing > 0 {
            let silence = UnsafeMutableBufferPointer(
                rebasing: samples[(wanted - missing) * info.channels..<wanted * info.channels])
            silence.initialize(repeating: T.silence)
        }
        return missing
    }

    /// `count` samples per channel, interleaved, and how many of them were silence.
    /// Never waits.
    ///
    /// - Parameters:
    ///   - count: Samples per channel to pull.
    ///   - type: The Swift type of ``info``'s sample format.
    /// - Returns: `count × channels` interleaved samples, and how many per channel at the end were silence.
    /// - Throws: ``MediaIOError`` when `T` is not the Swift type of ``info``'s sample format, or `count` is
    ///   negative or too large for memory.
    public func pull<T: AudioSample>(
        _ count: Int, as type: T.Type
    ) throws(MediaIOError) -> (samples: [T], missing: Int) {
        let (total, overflow) = count.multipliedReportingOverflow(by: info.channels)
        guard count >= 0, !overflow, total <= Int.max / 8 else {
            throw MediaIOError("pull 0 or more samples per channel, within memory, not \(count)")
        }
        var samples = [T](repeating: T.silence, count: total)
        let missing = try samples.withUnsafeMutableBufferPointer { buffer throws(MediaIOError) in
            try pull(into: buffer)
        }
        return (samples, missing)
    }

    /// Lets `render` wait for room in the queue again after a stop.
    public func shouldStart() {
        condition.lock()
        stopped = false
        condition.unlock()
    }

    /// Releases a `render` waiting for room, so the element can stop.
    public func shouldStop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Queues `frame`'s samples, first waiting for room while the queue is full, on the streaming thread.
    /// A stop or a flush ends the wait; a frame from before a flush is dropped.
    ///
    /// - Parameter frame: Samples in ``info``'s shape.
    /// - Throws: `GStreamerError` when the frame's buffer cannot be mapped.
    public func render(_ frame: AudioFrame) throws {
        try frame.buffer.withBytes { bytes in
            condition.lock()
            defer { condition.unlock() }
            ended = false
            begun = true
            let generation = flushes
            // Wait for room: the device's pulls pace the pipeline. A stop or a flush lets the thread go.
            while (queue.count - readOffset) / info.bytesPerFrame + frame.sampleCount > capacity && !stopped
                && queue.count > readOffset && generation == flushes
            {
                condition.wait()
            }
            // A frame from before a seek is stale.
            guard generation == flushes else { return }
            queue.append(contentsOf: bytes)
        }
    }

    /// A seek: what is queued is from before it, and the next pull gives what follows the seek.
    public func flush() {
        condition.lock()
        flushes += 1
        queue.removeAll()
        readOffset = 0
        ended = false
        condition.broadcast()
        condition.unlock()
    }

    /// Empties the queue and marks the stream finished: later pulls give silence.
    public func shouldDispose() {
        condition.lock()
        ended = true
        stopped = true
        queue.removeAll()
        readOffset = 0
        condition.broadcast()
        condition.unlock()
    }

    /// Marks the stream ended: ``isFinished`` turns true once the queue is pulled empty.
    public func endOfStream() {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }
}
