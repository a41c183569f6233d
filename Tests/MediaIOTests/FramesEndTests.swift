import GStreamer
import MediaIO
import Testing

@Suite("Frame sequences of runs that end before end of stream", .bounded)
struct FramesEndTests {
    @Test("Video frames throw the error that stopped the run", .timeLimit(.minutes(1)))
    func videoFramesThrow() async throws {
        let pipeline = try Pipeline(
            launch: "videotestsrc ! video/x-raw,format=GRAY8,width=8,height=4 ! identity name=breaker error-after=3 "
                + "! appsink name=out")
        defer { pipeline.stop() }
        let frames = try pipeline.frames(fromAppSink: "out")
        try pipeline.play()
        var widths: [Int] = []
        await #expect(throws: GStreamerError.self) {
            for try await frame in frames { widths.append(frame.format.width) }
        }
        #expect(widths == [8, 8])
    }

    @Test("Audio frames end when the pipeline is stopped", .timeLimit(.minutes(1)))
    func audioFramesEndAtStop() async throws {
        let pipeline = try Pipeline(
            launch: "audiotestsrc is-live=true samplesperbuffer=480 ! audio/x-raw,format=S16LE,rate=48000,channels=1 "
                + "! appsink name=out")
        let frames = try pipeline.audioFrames(fromAppSink: "out")
        try pipeline.play()
        var count = 0
        for try await frame in frames {
            #expect(frame.sampleCount == 480)
            count += 1
            if count == 2 { pipeline.stop() }
        }
        #expect((2...4).contains(count))
    }
}
