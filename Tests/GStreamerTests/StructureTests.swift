import CGStreamer
import GStreamer
import Synchronization
import Testing

@Suite("Structure, Caps by structure, TagList", .bounded)
struct StructureTests {
    @Test("A structure parsed from its string form gives each field by its type")
    func typedFields() throws {
        let structure = try Structure(
            "application/x-test, width=(int)320, big=(guint64)5000000000, offset=(gint64)-7, count=(uint)9, "
                + "ratio=(double)1.5, on=(boolean)true, title=(string)hello, rate=(fraction)30000/1001, "
                + "end=(guint64)40000000, levels=(double)< -20.5, -3 >, choices=(string){ a, b }")
        #expect(structure.name == "application/x-test")
        #expect(structure.count == 11)
        #expect(structure.int("width") == 320)
        #expect(structure["width"] == .int(320))
        #expect(structure.uint64("big") == 5_000_000_000)
        #expect(structure["big"] == .uint64(5_000_000_000))
        #expect(structure.int64("offset") == -7)
        #expect(structure.uint("offset") == nil)
        #expect(structure.uint("count") == 9)
        #expect(structure.double("ratio") == 1.5)
        #expect(structure.bool("on") == true)
        #expect(structure.string("title") == "hello")
        #expect(structure.fraction("rate") == Fraction(30000, 1001))
        #expect(structure.clockTime("end") == 40_000_000)
        #expect(structure.values("levels") == [.double(-20.5), .double(-3)])
        #expect(structure["levels"] == .array([.double(-20.5), .double(-3)]))
        #expect(structure["choices"] == .list([.string("a"), .string("b")]))
        #expect(structure.string("width") == nil)
        #expect(structure["missing"] == nil)
        #expect(throws: GStreamerError.self) { try Structure("not a structure ,,, =") }
    }

    @Test("A structure built field by field iterates in order and round-trips through its string form")
    func built() throws {
        var structure = try Structure(name: "my-message", fields: ["count": 3, "rate": Fraction(25, 1), "name": "x"])
        structure.set("time", ClockTime(2_000_000_000))
        structure.set("caps", try Caps("video/x-raw, format=I420"))
        structure.set("inner", try Structure(name: "inner", fields: ["depth": 2]))
        structure["name"] = nil
        #expect(structure.fieldNames == ["count", "rate", "time", "caps", "inner"])
        let pairs = Array(structure)
        #expect(pairs.map(\.name) == structure.fieldNames)
        #expect(pairs[0].value == .int(3))
        #expect(pairs[2].value == .uint64(2_000_000_000))
        #expect(structure.clockTime("time") == 2_000_000_000)
        #expect(structure.caps("caps")?.string("format") == "I420")
        #expect(structure.structure("inner")?.int("depth") == 2)
        let parsed = try Structure(structure.description)
        #expect(parsed == structure)
        #expect(parsed.structure("inner")?.name == "inner")
        // Field order does not matter to equality; values do.
        #expect(try Structure("s, a=(int)1, b=(int)2") == Structure("s, b=(int)2, a=(int)1"))
        #expect(try Structure("s, a=(int)1") != Structure("s, a=(uint)1"))
    }

    @Test("A structure is a value: changing a copy leaves the original as it was")
    func valueSemantics() throws {
        let original = try Structure("s, a=(int)1")
        var copy = original
        copy.set("a", 2)
        copy.name = "t"
        #expect(original.int("a") == 1)
        #expect(original.name == "s")
        #expect(copy.int("a") == 2)
        #expect(copy.hasName("t"))
    }

    @Test("Caps give every structure, not only the first, and are built from structures")
    func capsStructures() throws {
        let caps = try Caps("video/x-raw, format=I420, width=320; video/x-raw, format=NV12, width=640; audio/x-raw")
        #expect(caps.count == 3)
        #expect(caps.structures.map(\.name) == ["video/x-raw", "video/x-raw", "audio/x-raw"])
        #expect(caps.structure(at: 1)?.string("format") == "NV12")
        #expect(caps.structure(at: 1)?.int("width") == 640)
        #expect(caps.structure(at: 3) == nil)
        let built = Caps(structures: [
            try Structure(name: "video/x-raw", fields: ["format": "I420", "width": 320]),
            try Structure(name: "video/x-raw", fields: ["format": "NV12", "width": 640]),
            try Structure(name: "audio/x-raw")
        ])
        #expect(built == caps)
        // An Int field is a gint, as caps fields must be: it intersects with parsed caps.
        #expect(
            Caps(structures: [try Structure(name: "video/x-raw", fields: ["width": 320])]).canIntersect(
                try Caps("video/x-raw, width=(int)320")))
    }

    @Test("Negotiated caps of a real pipeline, read field by field")
    func negotiatedCaps() async throws {
        let pipeline = try Pipeline(
            launch:
                "videotestsrc num-buffers=2 ! video/x-raw,format=NV12,width=96,height=64,framerate=15/1 ! fakesink name=sink"
        )
        let pad = try #require(pipeline.element(named: "sink")?.pad(named: "sink"))
        try pipeline.pause()
        _ = pipeline.state(timeout: 5_000_000_000)
        let caps = try #require(pad.currentCaps)
        pipeline.stop()
        let structure = try #require(caps.structures.first)
        #expect(caps.count == 1)
        #expect(structure.string("format") == "NV12")
        #expect(structure.int("width") == 96)
        #expect(structure.fraction("framerate") == Fraction(15, 1))
    }

    @Test("A tag list built in code: typed tags, generic tags, string form, merge, value semantics")
    func tagListBuilt() throws {
        var tags = TagList()
        #expect(tags.isEmpty)
        tags.title = "hello"
        tags.artist = "someone"
        tags.languageCode = "en"
        tags.imageOrientation = "rotate-90"
        try tags.set("bitrate", 128_000)  // an Int, converted to the tag's guint
        try tags.set("video-codec", "H.264 / AVC")
        tags.dateTime = DateTime(year: 2024, month: 5, day: 6, hour: 7, minute: 8, second: 9, utcOffset: 0)
        tags.date = DateTime(year: 2020, month: 1, day: 2)
        #expect(tags.title == "hello")
        #expect(tags.artist == "someone")
        #expect(tags.languageCode == "en")
        #expect(tags.imageOrientation == "rotate-90")
        #expect(tags.bitrate == 128_000)
        #expect(tags["bitrate"] == .uint(128_000))
        #expect(tags.videoCodec == "H.264 / AVC")
        #expect(tags.dateTime?.description == "2024-05-06T07:08:09Z")
        #expect(tags.dateTime?.hour == 7)
        #expect(tags.date == DateTime(year: 2020, month: 1, day: 2))
        #expect(
            Set(tags.tags) == [
                "title", "artist", "language-code", "image-orientation", "bitrate", "video-codec", "datetime", "date"
            ])
        #expect(throws: GStreamerError.self) { try tags.set("no-such-tag", 1) }
        #expect(throws: GStreamerError.self) { try tags.set("bitrate", "fast") }

        let parsed = try TagList(tags.description)
        #expect(parsed == tags)

        var other = TagList()
        other.title = "world"
        other.comment = "c"
        let appended = tags.merging(other, mode: .append)
        #expect(appended.values("title") == [.string("hello"), .string("world")])
        #expect(appended.comment == "c")
        let replaced = tags.merging(other, mode: .replace)
        #expect(replaced.values("title") == [.string("world")])
        let kept = tags.merging(other, mode: .keep)
        #expect(kept.values("title") == [.string("hello")])
        // Merging made new lists: `tags` is as it was; a copy changed apart from it.
        #expect(tags.values("title") == [.string("hello")])
        var copy = tags
        copy.merge(other, mode: .replace)
        copy.title = nil
        #expect(copy.title == nil)
        #expect(tags.title == "hello")
        let entries = Dictionary(uniqueKeysWithValues: appended.map { ($0.tag, $0.values) })
        #expect(entries["title"]?.count == 2)
    }

    @Test("A tag list from a real pipeline's tag message, read by type")
    func tagListFromPipeline() async throws {
        let pipeline = try Pipeline(
            launch: "videotestsrc num-buffers=3 ! taginject tags=\"title=hello,artist=me,bitrate=(uint)128000,"
                + "language-code=fr,image-orientation=rotate-180\" ! fakesink name=sink")
        let messages = pipeline.messages
        try pipeline.play()
        var found: (source: String?, tags: TagList)?
        for await message in messages {
            if case .tag(let source, let tags) = message, tags.title != nil { found = (source, tags) }
            if case .endOfStream = message { break }
        }
        pipeline.stop()
        let (source, tags) = try #require(found)
        #expect(source == "sink")
        #expect(tags.title == "hello")
        #expect(tags.artist == "me")
        #expect(tags.bitrate == 128_000)
        #expect(tags.languageCode == "fr")
        #expect(tags.imageOrientation == "rotate-180")
        #expect(tags["title"] == .string("hello"))
    }
}

@Suite("Field values GStreamer serializes itself", .bounded)
struct OtherFieldValueTests {
    static let unimplemented = Atomic(0)

    @Test(
        "A template's ranges and lists print as GStreamer writes them, without reading them back (no 'unimplemented' warning)"
    )
    func rangeDescription() throws {
        let id = g_log_set_handler(
            "GStreamer", GLogLevelFlags(rawValue: G_LOG_LEVEL_WARNING.rawValue),
            { _, _, message, _ in
                if let message, String(cString: message) == "unimplemented" {
                    OtherFieldValueTests.unimplemented.add(1, ordering: .relaxed)
                }
            }, nil)
        defer { g_log_remove_handler("GStreamer", id) }
        let caps = try Caps("audio/x-raw, rate=(int)[ 1, 48000 ], channels=(int){ 1, 2 }")
        let structure = try #require(caps.structure(at: 0))
        #expect(structure["rate"]?.description == "[ 1, 48000 ]")
        #expect(structure["channels"]?.description == "{ (int)1, (int)2 }")
        #expect(OtherFieldValueTests.unimplemented.load(ordering: .relaxed) == 0)
    }
}
