import GStreamer
import Testing

@Suite("Encoding profiles: made in Swift or read from GStreamer's serialized form, and read back", .bounded)
struct EncodingProfileTests {
    @Test("A serialized WebM profile reads as a container of VP8 and Vorbis, and serializes back the same")
    func roundTrip() throws {
        let text = "video/webm:video/x-vp8:audio/x-vorbis"
        let profile = try EncodingProfile(string: text)
        #expect(profile.kind == .container)
        #expect(profile.format.mediaType == "video/webm")
        #expect(profile.streams.map(\.kind) == [.video, .audio])
        #expect(profile.streams.map { $0.format.mediaType } == ["video/x-vp8", "audio/x-vorbis"])
        #expect(try profile.serialized() == text)
        #expect(try EncodingProfile(string: profile.serialized()) == profile)
    }

    @Test("Restriction caps, presence and the preset of a serialized stream are read into their fields")
    func restrictionAndPresence() throws {
        let profile = try EncodingProfile(
            string: "video/quicktime,variant=iso:video/x-raw,width=320,height=240->video/x-h264|1"
                + ":audio/x-raw,channels=1->audio/mpeg,mpegversion=4+mypreset")
        #expect(profile.format.string("variant") == "iso")
        let video = try #require(profile.streams.first)
        #expect(video.kind == .video && video.presence == 1)
        #expect(video.restriction?.int("width") == 320 && video.restriction?.int("height") == 240)
        let audio = try #require(profile.streams.last)
        #expect(audio.kind == .audio && audio.presence == 0 && audio.preset == "mypreset")
        #expect(audio.format.int("mpegversion") == 4 && audio.restriction?.int("channels") == 1)
    }

    @Test("A profile made from Swift values serializes to GStreamer's form, and that reads back to the same streams")
    func swiftProfile() throws {
        let profile = try EncodingProfile.container(
            "video/quicktime,variant=iso", name: "mp4", description: "H.264 and AAC in MP4",
            streams: [
                .video("video/x-h264", restriction: "video/x-raw,width=160,height=96", presence: 1),
                .audio("audio/mpeg,mpegversion=4")
            ])
        let text = try profile.serialized()
        #expect(text.hasPrefix("video/quicktime, variant=(string)iso:"))
        #expect(text.contains("video/x-raw, width=(int)160, height=(int)96->video/x-h264|presence=1"))
        let back = try EncodingProfile(string: text)
        #expect(back.format == profile.format)
        #expect(back.streams == profile.streams)
    }

    @Test("encodebin holds the profile it was given: name, description and streams read back")
    func encodeBinProfile() throws {
        let profile = try EncodingProfile.container(
            "video/webm", name: "web", description: "VP8 for browsers", streams: [.video("video/x-vp8")])
        let encoder = try EncodeBin(profile: profile)
        let held = try #require(encoder.profile)
        #expect(held == profile)
        #expect(held.name == "web" && held.description == "VP8 for browsers")
    }

    @Test(
        "A string that is not a profile throws, naming the string and the entry at fault",
        arguments: [
            ("1 bad", "\"1 bad\" is not caps"),
            ("video/webm::audio/x-vorbis", "entry 2 is empty"),
            ("video/webm:video/x-vp8,width=(int)abc", "entry 2 \"video/x-vp8,width=(int)abc\" is not caps"),
            ("", "entry 1 is empty"),
            ("nosuchtarget/nosuchprofile", "could not read it as caps or as an encoding target")
        ])
    func badString(text: String, fault: String) throws {
        let error = try #require(throws: GStreamerError.self) { try EncodingProfile(string: text) }
        #expect(error.kind == .invalidArgument)
        #expect(error.message.hasPrefix("\"\(text)\" is not an encoding profile"))
        #expect(error.message.contains(fault))
    }

    @Test("A negative presence is refused with the value named, not trapped on")
    func negativePresence() throws {
        let profile = try EncodingProfile.container("video/webm", streams: [.video("video/x-vp8", presence: -1)])
        let error = try #require(throws: GStreamerError.self) { try EncodeBin(profile: profile) }
        #expect(error.kind == .invalidArgument)
        #expect(error.message.contains("presence -1"))
    }
}
