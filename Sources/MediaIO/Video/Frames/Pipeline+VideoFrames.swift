extension Pipeline {
    /// The frames reaching the appsink named `name`, as an AsyncSequence:
    /// `for try await frame in pipeline.frames(fromAppSink: "out") { ... }`. Frames are zero-copy
    /// (`.pixelBuffer`), with the strides of their buffers. The sequence ends at end of stream. An
    /// appsink without caps is limited to the formats of `VideoPixelFormat`. Example: `Examples/FrameStats`.
    ///
    /// - Parameters:
    ///   - name: The appsink's name in the pipeline.
    ///   - capacity: How many samples may wait unread in the appsink before the streaming thread waits for the
    ///     reader (its `max-buffers`).
    /// - Returns: The frames, in order; iterating throws `GStreamerError` when an element fails,
    ///   or ``MediaIOError`` for a sample whose caps no ``VideoFrameFormat`` describes.
    /// - Throws: `GStreamerError` when there is no appsink named `name`, or its caps cannot be set.
    public func frames(fromAppSink name: String, capacity: Int = 4) throws -> AsyncThrowingMapSequence<
        AppSinkSamples, VideoFrame
    > {
        // An appsink without caps would accept formats no VideoFrame can describe (ABGR64, ...).
        if let appsink = element(named: name), case .caps(nil)? = try? appsink.get("caps") {
            try appsink.set("caps", PropertyValue.caps(VideoPixelFormat.caps(for: VideoPixelFormat.allCases)))
        }
        let reader = VideoFrameReader()
        return try samples(fromAppSink: name, capacity: capacity).map { try reader.frame(from: $0) }
    }
}
