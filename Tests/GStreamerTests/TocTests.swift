import Foundation
import GstPipeSupport
import Synchronization
import Testing

@testable import GStreamer

/// Tables of contents: written by matroskamux, read back from the demuxer's toc message.
@Suite("Tables of contents", .bounded)
struct TocTests {
    static let chapters = Toc(entries: [
        Toc.Entry(
            kind: .edition, uid: "edition",
            entries: [
                Toc.Entry(kind: .chapter, uid: "one", start: 0, stop: 1_000_000_000, title: "Opening"),
                Toc.Entry(kind: .chapter, uid: "two", start: 1_000_000_000, stop: 2_000_000_000, title: "Ending")
            ])
    ])

    @Test("Chapters given to matroskamux come back from matroskademux with their titles and times")
    func matroskaChapters() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gstpipe-toc-\(getpid()).mkv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try Pipeline(
            launch: "videotestsrc num-buffers=60 ! video/x-raw,width=64,height=48,framerate=30/1 "
                + "! x264enc speed-preset=ultrafast ! matroskamux name=mux ! filesink location=\(path)")
        let mux = try #require(writer.element(named: "mux"))
        #expect(mux.isTocSetter)
        try mux.setToc(Self.chapters)
        try await writer.run()

        let reader = try Pipeline(launch: "filesrc location=\(path) ! matroskademux ! fakesink")
        let found = Locked<Toc?>(nil)
        reader.setSyncHandler { message in
            if let toc = message.toc { found.withLock { $0 = toc } }
            return .pass
        }
        try await reader.run()
        let toc = try #require(found.withLock { $0 }, "the demuxer posted no toc")
        let edition = try #require(toc.entries.first)
        #expect(toc.entries.count == 1)
        #expect(edition.kind == .edition)
        #expect(edition.entries.map(\.kind) == [.chapter, .chapter])
        #expect(edition.entries.map(\.title) == ["Opening", "Ending"])
        #expect(edition.entries.map(\.start) == [0, 1_000_000_000])
    }

    @Test("A time past gint64 (ClockTime.max) is written as unknown, not a trap")
    func timeBeyondGint64() throws {
        let mux = try ElementFactory.make("matroskamux", name: "mux")
        let endless = Toc(entries: [Toc.Entry(kind: .chapter, uid: "all", start: 0, stop: .max, title: "All")])
        try mux.setToc(endless)
        #expect(mux.isTocSetter)
    }

    @Test("An element that is no muxer refuses a table, naming itself")
    func notASetter() throws {
        let identity = try ElementFactory.make("identity", name: "plain")
        #expect(!identity.isTocSetter)
        #expect {
            try identity.setToc(Self.chapters)
        } throws: { ($0 as? GStreamerError)?.message.contains("plain takes no table of contents") == true }
    }
}
