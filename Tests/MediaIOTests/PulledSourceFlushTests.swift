import GStreamer
import Testing

@Suite("End of stream sent to a pulled source", .bounded)
struct PulledSourceFlushTests {
    @Test("29 review: end of stream sent to a pulled source whose pad is flushing (never started) is refused")
    func endOfStreamWhileFlushing() throws {
        AudioTestElements.register()
        let source = try Element(factory: "audiopulled")
        #expect(!source.sendEndOfStream(), "the pad is not active: nothing went out")
    }

    @Test(
        "29 review: end of stream sent to a playing pulled source goes out, and the pipeline ends",
        .timeLimit(.minutes(1)))
    func endOfStreamWhilePlaying() async throws {
        AudioTestElements.register()
        let pipeline = try Pipeline(
            launch: "audiopulled name=src tag=pulled-eos samples=2000000000 ! fakesink sync=true")
        let source = try #require(pipeline.element(named: "src"))
        let messages = pipeline.messages
        try pipeline.play()
        defer { pipeline.stop() }
        try await Task.sleep(for: .milliseconds(200))
        #expect(source.sendEndOfStream())
        var ended = false
        for await message in messages {
            if case .endOfStream = message {
                ended = true
                break
            }
            if case .error = message { break }
        }
        #expect(ended)
    }
}
