import GStreamer
import MediaIO
import Testing

/// A Swift sink's `sync` property is the one every GStreamer sink has; the element passes it on to the
/// appsink inside it (AppSinkSink.propertyChanged), which does the waiting.
@Suite("A Swift sink's sync property reaches its appsink", .bounded)
struct SinkSyncTests {
    @Test("sync=false in the description, then sync set to true on the element: the appsink follows both")
    func syncReachesTheAppSink() throws {
        TestElements.register()
        let pipeline = try Pipeline(
            launch: "patternsrc frames=1 ! recordingsink name=sink tag=sync-property sync=false")
        defer { pipeline.stop() }
        // gst_bin_get_by_name looks inside the sink's bin too.
        let appsink = try #require(pipeline.element(named: "appsink"))
        #expect(appsink.factoryName == "appsink")
        #expect(try appsink.get("sync") == .bool(false))

        let sink = try #require(pipeline.element(named: "sink"))
        try sink.set("sync", true)
        #expect(try sink.get("sync") == .bool(true))
        #expect(try appsink.get("sync") == .bool(true))
    }
}
