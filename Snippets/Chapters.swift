// A table of contents: chapters given to a Matroska muxer, then read back from the demuxer's toc
// message, titles and times included.
import Foundation
import GStreamer
import Synchronization

let path = FileManager.default.temporaryDirectory.appendingPathComponent("chapters-\(getpid()).mkv").path
let chapters = Toc(entries: [
    Toc.Entry(
        kind: .edition, uid: "edition",
        entries: [
            Toc.Entry(kind: .chapter, uid: "intro", start: 0, stop: 500_000_000, title: "Intro"),
            Toc.Entry(kind: .chapter, uid: "main", start: 500_000_000, stop: 1_000_000_000, title: "Main")
        ])
])
let writer = try Pipeline(
    launch: "audiotestsrc num-buffers=50 ! audioconvert ! matroskamux name=mux ! filesink location=\(path)")
try writer.element(named: "mux")!.setToc(chapters)
try await writer.run()

let reader = try Pipeline(launch: "filesrc location=\(path) ! matroskademux ! fakesink")
let found = Mutex<Toc?>(nil)
reader.setSyncHandler { posted in
    if let toc = posted.toc { found.withLock { $0 = toc } }
    return .pass
}
try await reader.run()
let read = found.withLock { $0 }?.entries.first?.entries ?? []
for chapter in read {
    print("\(chapter.title ?? chapter.uid): \(chapter.start ?? 0) to \(chapter.stop.map { "\($0)" } ?? "?") ns")
}
try? FileManager.default.removeItem(atPath: path)
// snippet.hide
precondition(read.map(\.title) == ["Intro", "Main"], "the chapters did not come back: \(read)")
precondition(read.map(\.start) == [0, 500_000_000], "the chapters' times changed: \(read)")
