import GStreamer
import Testing

@Suite("Properties that hold elements", .bounded)
struct ObjectPropertyTests {
    @Test("playbin's video-sink takes an element made in code and gives the same one back; wrong uses are refused")
    func playbinSink() throws {
        let playbin = try ElementFactory.make("playbin")
        #expect(try playbin.element(forProperty: "video-sink") == nil)
        let sink = try ElementFactory.make("fakesink", name: "mine")
        try playbin.set("video-sink", element: sink)
        #expect(try playbin.element(forProperty: "video-sink")?.name == "mine")
        try playbin.set("video-sink", element: nil)
        #expect(try playbin.element(forProperty: "video-sink") == nil)
        // uri holds a string, not an element; there is no "video-sunk".
        #expect(throws: GStreamerError.self) { try playbin.set("uri", element: sink) }
        #expect(throws: GStreamerError.self) { try playbin.set("video-sunk", element: sink) }
        #expect(throws: GStreamerError.self) { try playbin.element(forProperty: "uri") }
    }
}
