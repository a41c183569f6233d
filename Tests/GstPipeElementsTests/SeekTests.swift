import Foundation
import GstPipeElements
import MediaIO
import Testing

@Suite("gray behaves as one filter element to the rest of the pipeline", .bounded)
struct SeekTests {
    /// Seeks in PAUSED, then plays to the end; returns every timestamp the appsink saw.
    func timestampsAfterPausedSeek(filter: String) async throws -> [ClockTime] {
        try GstPipeElements.register()
        let pipeline = try Pipeline(
            launch: "videotestsrc ! video/x-raw,format=I420,framerate=10/1,width=64,height=48 \(filter) "
                + "! appsink name=out sync=false")
        let frames = try pipeline.frames(fromAppSink: "out", capacity: 2)
        try pipeline.pause()
        #expect(pipeline.state(timeout: 5_000_000_000).current == .paused)
        #expect(pipeline.seek(to: 5_000_000_000, stop: 10_000_000_000, accurate: true))
        try pipeline.play()
        var timestamps: [ClockTime] = []
        for try await frame in frames { timestamps.append(frame.timestamp) }
        pipeline.stop()
        return timestamps
    }

    @Test("A flushing seek in PAUSED through gray gives the same frames as without gray")
    func pausedSeek() async throws {
        let plain = try await timestampsAfterPausedSeek(filter: "")
        let gray = try await timestampsAfterPausedSeek(filter: "! gray")
        let expected = (50..<100).map { ClockTime($0) * 100_000_000 }
        #expect(plain == expected)
        #expect(gray == expected)
    }

    /// Seeks after the fifth frame while playing; returns the timestamps from the seek target on.
    func timestampsAfterPlayingSeek(filter: String) async throws -> [ClockTime] {
        try GstPipeElements.register()
        let pipeline = try Pipeline(
            launch: "videotestsrc ! video/x-raw,format=I420,framerate=30/1,width=64,height=48 \(filter) "
                + "! appsink name=out sync=false")
        let frames = try pipeline.frames(fromAppSink: "out", capacity: 1)
        try pipeline.play()
        var seen = 0
        var afterSeek: [ClockTime] = []
        for try await frame in frames {
            seen += 1
            if seen == 5 { #expect(pipeline.seek(to: 8_000_000_000, stop: 9_000_000_000, accurate: true)) }
            if seen > 5 && frame.timestamp >= 8_000_000_000 { afterSeek.append(frame.timestamp) }
        }
        pipeline.stop()
        return afterSeek
    }

    @Test("Seeking while playing: no hang, frames resume at the target, as without gray")
    func playingSeek() async throws {
        let plain = try await timestampsAfterPlayingSeek(filter: "")
        let gray = try await timestampsAfterPlayingSeek(filter: "! gray")
        let expected = (240..<270).map { ClockTime($0) * 1_000_000_000 / 30 }
        #expect(plain == expected)
        #expect(gray == expected)
    }

    @Test("A duration query is answered upstream through gray (the appsrc inside knows none)")
    func durationQuery() async throws {
        try GstPipeElements.register()
        let file = "/tmp/gstpipe-duration-\(UInt32.random(in: 0...UInt32.max)).mkv"
        try await Pipeline(
            launch: "videotestsrc num-buffers=20 ! video/x-raw,framerate=10/1,width=64,height=48 ! jpegenc "
                + "! matroskamux ! filesink location=\(file)"
        ).run()
        let pipeline = try Pipeline(launch: "filesrc location=\(file) ! matroskademux ! jpegdec ! gray ! fakesink")
        try pipeline.pause()
        #expect(pipeline.state(timeout: 5_000_000_000).current == .paused)
        let duration = try #require(pipeline.duration)
        #expect(duration >= 1_900_000_000 && duration <= 2_100_000_000)
        pipeline.stop()
    }

    @Test("After end of stream, a seek back to the start plays through gray again")
    func seekAfterEndOfStream() async throws {
        try GstPipeElements.register()
        let file = "/tmp/gstpipe-replay-\(UInt32.random(in: 0...UInt32.max)).mkv"
        defer { unlink(file) }
        try await Pipeline(
            launch: "videotestsrc num-buffers=10 ! video/x-raw,framerate=10/1,width=64,height=48 ! jpegenc "
                + "! matroskamux ! filesink location=\(file)"
        ).run()
        let pipeline = try Pipeline(
            launch: "filesrc location=\(file) ! matroskademux ! jpegdec ! gray ! fakesink name=sink sync=false")
        let messages = pipeline.messages
        try pipeline.play()
        var endsOfStream = 0
        for await message in messages {
            if case .error(let error) = message {
                Issue.record("\(error)")
                break
            }
            guard case .endOfStream = message else { continue }
            endsOfStream += 1
            if endsOfStream == 2 { break }
            // Played to the end once: go back to the start; a second end of stream means it played again.
            #expect(pipeline.seek(to: 0, accurate: true))
        }
        pipeline.stop()
        #expect(endsOfStream == 2)
    }
}
