import Testing

@testable import GStreamer

/// Failures that must not read as success.
@Suite("Failures reported as failures", .bounded)
struct ReportedFailureTests {
    /// Before the fix the chain stayed half linked (audiotestsrc to identity) after the throw, and
    /// `chainLinksWholeOrNotAtAll` failed on its second expectation.
    @Test("A chain link that fails at its second pair undoes the first: nothing stays half linked")
    func chainLinksWholeOrNotAtAll() throws {
        let pipeline = try Pipeline()
        let source = try ElementFactory.make("audiotestsrc")
        let middle = try ElementFactory.make("identity")
        let video = try ElementFactory.make("videoconvert")
        try pipeline.add(source, middle, video)
        #expect(throws: GStreamerError.self) { try Element.link(source, middle, video) }
        #expect(source.pad(named: "src")?.isLinked == false, "audiotestsrc was left linked to identity")
        #expect(middle.pad(named: "src")?.isLinked == false)
        // The first pair alone links: the chain had linked it, then undid it.
        try source.link(to: middle)
        #expect(source.pad(named: "src")?.isLinked == true)
    }

    /// Not a problem, as this test shows: a change that GStreamer first answers ASYNC and that fails
    /// afterwards (typefinding a file that is no media) throws from `setState(_:timeout:)` and from
    /// `changeState(to:timeout:)`, which wait for the outcome.
    @Test("A state change answered ASYNC that fails afterwards throws when its outcome is awaited")
    func asyncFailureThrows() async throws {
        let pipeline = try Pipeline(launch: "uridecodebin uri=file:///etc/hostname ! fakesink")
        defer { pipeline.stop() }
        #expect(throws: GStreamerError.self) { try pipeline.setState(.paused, timeout: 10_000_000_000) }
        pipeline.stop()
        await #expect(throws: GStreamerError.self) {
            try await pipeline.changeState(to: .paused, timeout: 10_000_000_000)
        }
    }
}
