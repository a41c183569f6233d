extension Pipeline {
    /// The audio reaching the appsink named `name`, as an AsyncSequence of frames:
    /// `for try await frame in pipeline.audioFrames(fromAppSink: "out") { ... }`. Frames are
    /// zero-copy. An appsink without caps is limited to the sample formats MediaIO reads (put
    /// `audio/x-raw,format=S16LE,rate=48000,channels=2` before it, or set its caps, to choose).
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
