import GstPipeParsing
import Testing

/// The byte search every token goes through at start-up (secrets' forms, file extensions, the alpha decoders'
/// ranks): by UTF-8 bytes, whatever surrounds them.
@Suite("ByteSearch: a word's bytes anywhere in a text")
struct ByteSearchTests {
    @Test("Found at the start, the end, overlapping itself, after a NUL; not when longer or absent")
    func bytes() {
        #expect(ByteSearch.contains("rtsp", in: "rtsp://host"))
        #expect(ByteSearch.contains(".m3u8", in: "live/stream.m3u8"))
        #expect(ByteSearch.contains("abab", in: "aababab"))
        #expect(ByteSearch.contains("token=", in: "x\0y token=1"))
        #expect(!ByteSearch.contains("token=", in: "token"))
        #expect(!ByteSearch.contains("Bearer", in: "bearer abc"))
        #expect(ByteSearch.contains("", in: ""))
    }

    @Test("Compared as bytes, not characters: a combining mark after a match does not hide it")
    func notCharacters() {
        // "e" then U+0301: one Character "é", whose bytes still hold the byte of "e".
        #expect(ByteSearch.contains("cafe", in: "cafe\u{301}"))
        #expect(!ByteSearch.contains("caf\u{E9}", in: "cafe\u{301}"))
        #expect(ByteSearch.contains("\u{E9}t\u{E9}", in: "l'\u{E9}t\u{E9}"))
    }
}
