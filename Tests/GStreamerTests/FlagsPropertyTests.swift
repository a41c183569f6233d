import Testing

@testable import GStreamer

/// A flags property reads back as the flags' nicks, as gst-inspect-1.0 shows them and gst-launch-1.0
/// takes them. Before: `get("flags")` on playbin gave GStreamer's serialization with the
/// long names ("Render the video stream+Render the audio stream+..."), which `set` could not use.
@Suite("Flags properties by nick", .bounded)
struct FlagsPropertyTests {
    @Test("playbin's default flags read as nicks")
    func defaultsAsNicks() throws {
        try GStreamer.initialize()
        let playbin = try ElementFactory.make("playbin")
        let flags = try #require(try playbin.get("flags").stringValue)
        // GstPlayFlags' default: video, audio, text, soft-volume, deinterlace, soft-colorbalance.
        #expect(flags == "video+audio+text+soft-volume+deinterlace+soft-colorbalance")
        #expect(!flags.contains("Render"))
    }

    @Test("Nicks set, by plain string and by string form, read back the same", arguments: [true, false])
    func setByNicks(fromString: Bool) throws {
        try GStreamer.initialize()
        let playbin = try ElementFactory.make("playbin")
        if fromString {
            try playbin.set("flags", fromString: "audio+video+download")
        } else {
            try playbin.set("flags", "audio+video+download")
        }
        #expect(try playbin.get("flags") == .string("video+audio+download"))
        // What get() returns goes straight back into set().
        try playbin.set("flags", try playbin.get("flags"))
        #expect(try playbin.get("flags").stringValue == "video+audio+download")
    }

    @Test("No flag set reads as \"0\" when the type has no zero value; an unknown nick throws, naming it")
    func emptyAndUnknown() throws {
        try GStreamer.initialize()
        let playbin = try ElementFactory.make("playbin")
        try playbin.set("flags", fromString: "0")
        #expect(try playbin.get("flags").stringValue == "0")
        do {
            try playbin.set("flags", fromString: "video+subtitles-please")
            Issue.record("an unknown flag was accepted")
        } catch {
            #expect(error.message.contains("video+subtitles-please"), "\(error)")
        }
    }
}
