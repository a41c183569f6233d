import Foundation
import Testing

/// A run that fails before writing anything leaves no empty file from the description's own
/// `filesink` (found on gomp4__sample_qt.mp4 and pymediainfo__sample.mkv of ../shared/media with
/// `IN ! x264grayenc ! filesink location=out.h264`); a file that was there before is left alone.
@Suite("A failed run removes the empty files its filesinks created")
struct NewFileSinksTests {
    @Test("A source that fails: the new file is removed and said so, an existing one stays")
    func failingSource() throws {
        let created = Media.temporary("filesink-new", "bin")
        let existing = Media.temporary("filesink-existing", "bin")
        defer { [created, existing].forEach { try? FileManager.default.removeItem(at: $0) } }
        let missing = "/nonexistent-\(UUID()).bin"
        let run = try CLI.run(["filesrc", "location=\(missing)", "!", "filesink", "location=\(created.path)"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: created.path))
        #expect(run.stderr.contains("removed \(created.path): nothing was written before the error"), "\(run.stderr)")
        try Data().write(to: existing)
        let again = try CLI.run(["filesrc", "location=\(missing)", "!", "filesink", "location=\(existing.path)"])
        #expect(again.status == 1, "\(again.stderr)")
        #expect(FileManager.default.fileExists(atPath: existing.path))
    }

    @Test("A run that fails after a few frames keeps what filesink held back (under its 64 KiB buffer)")
    func failingAfterData() throws {
        let output = Media.temporary("filesink-partial", "raw")
        defer { try? FileManager.default.removeItem(at: output) }
        // About six 64x64 I420 frames (36 KiB, live at 30 a second) reach the file, then error-after fails the run: the
        // file was still empty on disk when the error came (filesink flushes on stop), and was deleted.
        let run = try CLI.run([
            "videotestsrc", "is-live=true", "num-buffers=100", "!", "video/x-raw,format=I420,width=64,height=64", "!",
            "tee",
            "name=t", "!", "queue", "!", "filesink", "location=\(output.path)", "t.", "!", "queue", "!",
            "identity", "error-after=6", "!", "fakesink"
        ])
        #expect(run.status == 1, "\(run.stderr)")
        let size = (try? FileManager.default.attributesOfItem(atPath: output.path))?[.size] as? Int ?? -1
        #expect(size > 0 && size % (64 * 64 * 3 / 2) == 0, "size \(size): \(run.stderr)")
        #expect(!run.stderr.contains("nothing was written"), "\(run.stderr)")
    }

    @Test(
        "An input with no video into x264grayenc and a filesink: exit 1 naming the input, no file left",
        .enabled(if: FFmpegCut.isInstalled, "ffmpeg is not installed"))
    func inputWithoutVideo() throws {
        let input = try Media.subtitlesOnly("filesink")
        let output = Media.temporary("filesink-out", "h264")
        defer { [input, output].forEach { try? FileManager.default.removeItem(at: $0) } }
        let run = try CLI.run([input.path, "!", "x264grayenc", "!", "filesink", "location=\(output.path)"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("\(input.path) has no video stream"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path), "\(run.stderr)")
    }
}
