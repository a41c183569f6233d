import Foundation
import Testing

/// The farm (`farm/worker`, `farm/run`) for real: a redis-server and two Celery workers started by
/// `farm/local` in a network namespace with loopback alone, one file cut into segments, run by the
/// workers, joined; the result read by ffprobe and compared with ffmpeg's PSNR against the same
/// pipeline run on one machine.
@Suite(
    "The farm: segments on Celery workers over Redis, joined, equal to one machine's run", .serialized,
    .enabled(if: FFProbe.isInstalled, "ffmpeg and ffprobe are not installed"),
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"),
    .enabled(if: Farm.hasRedis, "redis-server is not installed (scripts/setup.sh)"),
    .enabled(if: Farm.hasCelery, "Debian's python3-celery and python3-redis are not installed (scripts/setup.sh)"))
struct FarmTests {
    @Test("Two workers give the single run's frames, no timestamp gap, audio, and >= 35 dB PSNR against it")
    func twoWorkers() async throws {
        let input = try await Farm.input()
        let single = try await Farm.singleRun(of: input)
        let farmed = Media.temporary("farmed", "mkv")
        defer { for file in [input, single, farmed] { try? FileManager.default.removeItem(at: file) } }
        let run = try await Farm.local(input: input, output: farmed, segmentSeconds: 6, killing: false)
        try #require(run.status == 0, "farm/local exited \(run.status): \(run.stderr)")
        try Farm.expectWhole(farmed, like: single)
    }

    @Test("A worker SIGKILLed during a segment: its pool and gstpipe die with it, the segment is sent again (MP4)")
    func killedWorker() async throws {
        let input = try await Farm.input()
        let single = try await Farm.singleRun(of: input)
        let farmed = Media.temporary("farmed-kill", "mp4")
        defer { for file in [input, single, farmed] { try? FileManager.default.removeItem(at: file) } }
        let run = try await Farm.local(input: input, output: farmed, segmentSeconds: 8, killing: true)
        try #require(run.status == 0, "farm/local exited \(run.status): \(run.stderr)")
        #expect(run.stderr.contains("killed worker"), "\(run.stderr)")
        #expect(run.stderr.contains("left behind by the killed worker: 0"), "\(run.stderr)")
        let resent = run.stderr.split(separator: "\n").contains { line in
            line.hasPrefix("farm: ") && line.hasSuffix(" sent again") && !line.hasSuffix(" 0 sent again")
        }
        #expect(resent, "the killed worker's segment was not sent again: \(run.stderr)")
        try Farm.expectWhole(farmed, like: single)
    }

    @Test("A variable-frame-rate input: segments joined at their planned starts, every frame at the single run's pts")
    func variableFrameRate() async throws {
        let input = try Media.variableRateClip()
        let single = Media.temporary("farm-vfr-single", "mp4")
        let farmed = Media.temporary("farmed-vfr", "mp4")
        defer { for file in [input, single, farmed] { try? FileManager.default.removeItem(at: file) } }
        let whole = try await Spawned.gstpipe([input.path, "!", "gray", "!", single.path]).finish(timeout: 300)
        try #require(whole.status == 0, "gstpipe exited \(whole.status): \(whole.stderr)")
        let run = try await Farm.local(input: input, output: farmed, segmentSeconds: 2, killing: false)
        try #require(run.status == 0, "farm/local exited \(run.status): \(run.stderr)")
        let join = VariableRateJoin(
            joined: try VariableRateJoin.framePTS(farmed), single: try VariableRateJoin.framePTS(single), planned: 120)
        #expect(join.single.count == 120, "the single run's frames: \(join.single.count)")
        join.expectSameFrames()
    }
}
