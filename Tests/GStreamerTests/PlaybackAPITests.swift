import Testing

@testable import GStreamer

/// What the playback tutorials added to the core: the colour balance interface, factories by
/// classification, and tag lists out of values.
@Suite("Colour balance, factory listing, tag list values", .bounded)
struct PlaybackAPITests {
    @Test("videobalance lists four channels; a value set reads back and reaches its property")
    func colorBalance() throws {
        let balance = try ElementFactory.make("videobalance")
        #expect(balance.hasColorBalance)
        let channels = balance.colorBalanceChannels
        #expect(Set(channels.map(\.label)) == ["HUE", "SATURATION", "BRIGHTNESS", "CONTRAST"])
        #expect(channels.allSatisfy { $0.minValue == -1000 && $0.maxValue == 1000 })
        try balance.setColorBalanceValue("SATURATION", -1000)
        #expect(try balance.colorBalanceValue("SATURATION") == -1000)
        #expect(try balance.get("saturation").doubleValue == 0)
    }

    @Test("An unknown channel, a value out of range, an element without the interface: errors that name them")
    func colorBalanceErrors() throws {
        let balance = try ElementFactory.make("videobalance", name: "vb")
        #expect {
            try balance.setColorBalanceValue("GAMMA", 1)
        } throws: { ($0 as? GStreamerError)?.message.contains("no colour balance channel \"GAMMA\"") == true }
        #expect {
            try balance.setColorBalanceValue("HUE", 5000)
        } throws: { ($0 as? GStreamerError)?.message.contains("5000 is outside the range -1000...1000") == true }
        let identity = try ElementFactory.make("identity")
        #expect(!identity.hasColorBalance)
        #expect(identity.colorBalanceChannels.isEmpty)
        #expect(throws: GStreamerError.self) { try identity.colorBalanceValue("HUE") }
    }

    @Test("Factories by classification: the visualizations, the H.264 decoders")
    func factoriesByClassification() throws {
        #expect(try ElementFactory.names(classifiedAs: "Visualization").contains("wavescope"))
        let decoders = try ElementFactory.names(classifiedAs: "Codec", "Decoder", "Video")
        #expect(decoders.contains("avdec_h264"))
        #expect(!decoders.contains("wavescope"))
        #expect(try ElementFactory.names(classifiedAs: "No-Such-Class").isEmpty)
    }

    @Test("A tag list comes out of a value holding one; other values give nil")
    func tagListValue() throws {
        var tags = TagList()
        try tags.set("title", "Hello")
        let value = try Value(parsing: tags.description, as: "GstTagList")
        #expect(value.tagList?["title"]?.stringValue == "Hello")
        #expect(Value(3).tagList == nil)
    }
}
