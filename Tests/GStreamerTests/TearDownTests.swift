import GStreamer
import Testing

@Suite("Releasing a pipeline", .bounded)
struct TearDownTests {
    @Test("29 review: releasing a pipeline never started flushes its bus: nothing posted stays queued")
    func neverStartedFlushesBus() throws {
        var bus: Bus?
        do {
            let pipeline = try Pipeline(launch: "fakesrc name=s ! fakesink")
            bus = pipeline.bus
            let source = try #require(pipeline.element(named: "s"))
            #expect(source.postApplicationMessage(try Structure(name: "taken")))
            #expect(source.postApplicationMessage(try Structure(name: "left-behind")))
            #expect(pipeline.bus.pop() != nil, "posted and queued while the pipeline lives")
        }
        #expect(try #require(bus).pop() == nil, "the pipeline's release flushed the bus")
    }
}
