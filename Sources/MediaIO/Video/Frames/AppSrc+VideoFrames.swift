import GStreamer

// Frames into an application's own appsrc: what a Swift source element's consumer does, for an appsrc
// in any pipeline.

extension AppSrc {
    /// Pushes a video frame, stamped with its timestamp and duration, with caps for its format (sent
    /// downstream when they change). A frame in a GStreamer buffer goes as it is (no copy); a frame in
    /// memory of its own (`.rawData`) is copied once into GStreamer's layout (rows padded as its caps say).
    ///
    /// The corresponding C function is `gst_app_src_push_sample`.
    ///
    /// - Parameter frame: The frame, with its timestamp and duration.
    /// - Returns: As `AppSrc.push(_:)` of a buffer does: `.ok`, `.flushing` when the appsrc is stopped,
    ///   `.endOfStream` after its end of stream.
    /// - Throws: `GStreamerError` when the frame's format has no GStreamer layout or its copy cannot be
    ///   allocated.
    @discardableResult
    public func push(_ frame: VideoFrame) throws -> FlowResult {
        let info = try frame.videoInfo ?? frame.format.gstreamerInfo()
        var outgoing = frame
        if frame.buffer == nil {
            var format = frame.format
            format.bytesPerRow = info.strides
            outgoing = VideoFrame(
                buffer: try Buffer(size: info.size), info: info, format: format, timestamp: frame.timestamp,
                duration: frame.duration)
            try frame.copyPixels(into: outgoing)
        }
        let buffer = outgoing.buffer!.withTimestamps(
            pts: frame.hasTimestamp ? frame.timestamp : nil, duration: frame.duration)
        return push(Sample(buffer: buffer, caps: info.caps))
    }

    /// Pushes an audio frame (its buffer, no copy), stamped with its timestamp and duration, with caps
    /// for its format (sent downstream when they change).
    ///
    /// The corresponding C function is `gst_app_src_push_sample`.
    ///
    /// - Parameter frame: The frame, with its timestamp and duration.
    /// - Returns: As `AppSrc.push(_:)` of a buffer does.
    @discardableResult
    public func push(_ frame: AudioFrame) -> FlowResult {
        push(
            Sample(
                buffer: frame.buffer.withTimestamps(pts: frame.timestamp, duration: frame.duration),
                caps: frame.info.caps))
    }
}

extension VideoFrame {
    /// Copies the pixels into `target`, a frame of the same format, row by row (the two may have
    /// different strides).
    func copyPixels(into target: VideoFrame) throws {
        try withPlanes { sources in
            try target.withMutablePlanes { destinations in
                for (source, destination) in zip(sources, destinations) {
                    let count = min(source.pixelBytesPerRow, destination.pixelBytesPerRow)
                    for row in 0..<min(source.rows, destination.rows) {
                        let from = source.bytes.baseAddress! + row * source.bytesPerRow
                        let to = destination.bytes.baseAddress! + row * destination.bytesPerRow
                        to.copyMemory(from: from, byteCount: count)
                    }
                }
            }
        }
    }
}
