import Foundation
import Testing

/// `gstpipe inspect FILE`, as one would run gst-discoverer-1.0 on a clip: said to be a file, with the
/// command that shows what it holds, not "erroneous pipeline: no element".
@Suite("gstpipe inspect on a file")
struct InspectFileTests {
    @Test("inspect of an existing file: exit 2, names the file and the command that shows its streams")
    func file() throws {
        let clip = Media.temporary("inspect-file", "mp4")
        defer { try? FileManager.default.removeItem(at: clip) }
        try Data([0, 0, 0, 8]).write(to: clip)
        let run = try CLI.run(["inspect", clip.path])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "\(clip.path) is a file, not an element: inspect shows an element's properties (gstpipe inspect "
                    + "gray); gstpipe -v \(clip.path) ! fakesink prints the caps of the streams it holds"),
            "\(run.stderr)")
        #expect(!run.stderr.contains("erroneous pipeline"), "\(run.stderr)")
    }
}
