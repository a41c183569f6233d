import CGStreamer
import Testing

@testable import GStreamer

/// Inputs a user's program meets in its first week that used to trap or be refused wrongly: each was a
/// crash or a wrong refusal before its fix.
@Suite("User input that must not trap", .bounded)
struct UserInputTrapTests {
    @Test("A structure name GStreamer refuses throws, naming the rule, instead of trapping")
    func structureName() throws {
        #expect(throws: GStreamerError.self) { try Structure(name: "1 bad name") }
        #expect(throws: GStreamerError.self) { try Structure(name: "has space") }
        #expect(throws: GStreamerError.self) { try Structure(name: "") }
        do {
            _ = try Structure(name: "1 bad name")
        } catch {
            #expect(error.message.contains("\"1 bad name\" is not a structure name: start with a letter"))
        }
        #expect(try Structure(name: "video/x-raw").name == "video/x-raw")
        #expect(try Structure(name: "my-app.event:v2+x_y").name == "my-app.event:v2+x_y")
    }

    @Test("A seek whose stop is GStreamer's none (-1, as C elements send it) reads as nil, not a trap")
    func seekFromC() throws {
        try GStreamer.initialize()
        // As a C element writes it: stop type SET with -1.
        let raw = gst_event_new_seek(
            1.0, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH, GST_SEEK_TYPE_SET, 2_000_000_000, GST_SEEK_TYPE_SET, -1)!
        let event = Event(taking: raw)
        let seek = try #require(event.seek)
        #expect(seek.start == 2_000_000_000)
        #expect(seek.stop == nil)
    }

    @Test("seek(stop: ClockTime.max) means no stop; a time beyond gint64 is clamped, not a trap")
    func seekToNone() throws {
        try GStreamer.initialize()
        let none = try #require(try Event.seek(start: 0, stop: ClockTime.max).seek)
        #expect(none.start == 0 && none.stop == nil)
        let far = try #require(try Event.seek(start: ClockTime.max - 1, stop: nil).seek)
        #expect(far.start == ClockTime(Int64.max))
        let unset = try #require(try Event.seek(start: nil, stop: 5).seek)
        #expect(unset.start == nil && unset.stop == 5)
    }

    @Test("A fraction property beyond gint throws naming the value; in range it is set")
    func fractionBeyondGInt() throws {
        let parser = try ElementFactory.make("rawvideoparse", name: "parse")
        let huge = thrown { try parser.set("framerate", PropertyValue.fraction(1 << 40, 1)) }
        #expect(huge?.kind == .invalidArgument)
        #expect(
            huge?.message.hasPrefix("cannot set property \"framerate\" of parse to ") == true, "\(huge?.message ?? "")")
        #expect(thrown { try parser.set("framerate", PropertyValue.fraction(30, -(1 << 40))) } != nil)
        try parser.set("framerate", PropertyValue.fraction(30_000, 1001))
        #expect("\(try parser.get("framerate"))".contains("30000/1001"))
    }

    @Test("Default channel positions for a count outside 1...64 are none, not a trap")
    func channelPositionsOutOfRange() {
        #expect(AudioChannelPosition.defaults(forChannels: -1).isEmpty)
        #expect(AudioChannelPosition.defaults(forChannels: 0).isEmpty)
        #expect(AudioChannelPosition.defaults(forChannels: 1 << 40).isEmpty)
        #expect(AudioChannelPosition.defaults(forChannels: 2) == [.frontLeft, .frontRight])
        #expect(AudioChannelPosition.defaults(forChannels: 64).count == 64)
    }

    @Test("An audio meta for a negative count, or more samples than the buffer holds, is refused, not a trap")
    func audioMetaCounts() throws {
        try GStreamer.initialize()
        let info = try AudioInfo(format: .s16, rate: 48_000, channels: 2, layout: .nonInterleaved)
        let buffer = try Buffer(size: 400)
        #expect(!buffer.addAudioMeta(info, samples: -1))
        #expect(!buffer.addAudioMeta(info, samples: 101))
        #expect(buffer.audioMetaSamples == nil)
        #expect(buffer.addAudioMeta(info, samples: 100))
        #expect(buffer.audioMetaSamples == 100)
    }

    @Test("Names need be unique among siblings only: an element named as one inside a nested bin is added")
    func siblingNames() throws {
        let pipeline = try Pipeline(name: "outer")
        let inner = try Bin(name: "inner")
        try inner.add(try ElementFactory.make("identity", name: "x"))
        try pipeline.add(inner)
        try pipeline.add(try ElementFactory.make("identity", name: "x"))
        #expect(pipeline.children.map(\.name).sorted() == ["inner", "x"])
        #expect(throws: GStreamerError.self) { try pipeline.add(try ElementFactory.make("identity", name: "x")) }
        #expect(throws: GStreamerError.self) { try inner.add(try ElementFactory.make("queue", name: "x")) }
    }
}
