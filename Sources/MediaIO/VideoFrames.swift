extension Pipeline {
    /// The frames reaching the appsink named `name`, as an AsyncSequence:
    /// `for try await frame in pipeline.frames(fromAppSink: "out") { ... }`. Frames are zero-copy
    /// (`.pixelBuffer`), with the strides of their buffers. The sequence ends at end of stream.
    public func frames(fromAppSink name: String, capacity: Int = 4) throws -> AsyncThrowingMapSequence<AppSinkSamples, VideoFrame> {
        let reader = FrameReader()
        return try samples(fromAppSink: name, capacity: capacity).map { try reader.frame(from: $0) }
    }
}
