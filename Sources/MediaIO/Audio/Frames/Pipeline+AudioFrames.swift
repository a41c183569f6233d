extension Pipeline {
    /// The audio reaching the appsink named `name`, as an AsyncSequence of frames:
    /// `for try await frame in pipeline.audioFrames(fromAppSink: "out") { ... }`. Frames are
    /// zero-copy. An appsink without caps is limited to the sample formats MediaIO reads (put
    /// `audio/x-raw,format=S16LE,rate=48000,channels=2` before it, or set its caps, to choose).
    ///
    /// - Parameters:
    ///   - name: The appsink's name in the pipeline.
    ///   - capacity: How many samples (buffers, not audio samples) may wait unread in the appsink before the
    ///     streaming thread waits for the reader (its `max-buffers`).
    /// - Returns: The frames, in order; iterating throws `GStreamerError` when an element fails,
    ///   or ``MediaIOError`` for a sample in a format MediaIO does not read.
    /// - Throws: `GStreamerError` when there is no appsink named `name`, or its caps cannot be set.
    public func audioFrames(
        fromAppSink name: String, capacity: Int = 8
    ) throws -> AsyncThrowingMapSequence<AppSinkSamples, AudioFrame> {
        if let appsink = element(named: name), case .caps(nil)? = try? appsink.get("caps") {
            try appsink.set("caps", PropertyValue.caps(AudioFormatRequest.anyCaps))
        }
        let reader = AudioFrameReader()
        return try samples(fromAppSink: name, capacity: capacity).map { try reader.frame(from: $0) }
    }
}
