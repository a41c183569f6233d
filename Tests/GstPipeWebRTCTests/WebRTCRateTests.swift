import Foundation
import GStreamer
import GstPipeParsing
import GstPipeSupport
import GstPipeWebRTC
import Testing

/// The encodes a `webrtc://` output builds hold their bit rate whatever the picture: noise (which no
/// encoder can make small) and bars, VP8 and H.264, at the size and rate of each rung of the default
/// ladder. Five seconds of 30 frames a second, encoded as fast as the machine goes (the rate control
/// counts frames by their timestamps, not by the clock), the bytes counted at the appsink.
@Suite("WebRTCRateTests")
struct WebRTCRateTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let codec: WebRTCCodec
        let pattern: String
        let width: Int
        let height: Int
        let bitrate: Int

        var testDescription: String { "\(codec.rawValue) \(pattern) \(width)x\(height) at \(bitrate / 1000) kbit/s" }
    }

    static let cases: [Case] =
        [WebRTCCodec.vp8, .h264].flatMap { codec in
            ["snow", "smpte"].map { Case(codec: codec, pattern: $0, width: 1280, height: 720, bitrate: 2_500_000) }
        } + [
            Case(codec: .vp8, pattern: "snow", width: 640, height: 360, bitrate: 800_000),
            Case(codec: .vp8, pattern: "snow", width: 320, height: 180, bitrate: 250_000)
        ]

    static let seconds = 5
    static let frameRate = 30

    @Test("the encoded bit rate stays within 1.5 times the target", .timeLimit(.minutes(2)), arguments: cases)
    func holdsItsRate(_ test: Case) async throws {
        try GStreamer.initialize()
        let encoder = (WebRTCViewers.encoderQueue + test.codec.encoderChain(bitrate: test.bitrate))
            .joined(separator: " ")
        let pipeline = try Pipeline(
            launch: "videotestsrc pattern=\(test.pattern) num-buffers=\(Self.seconds * Self.frameRate) ! "
                + "video/x-raw,width=\(test.width),height=\(test.height),framerate=\(Self.frameRate)/1 ! "
                + "videoconvert ! video/x-raw,format=I420 ! \(encoder) ! fakesink name=out sync=false")
        let counted = Tally()
        _ = try #require(pipeline.element(named: "out")?.pad(named: "sink")).addProbe(.buffer) { info in
            if let buffer = info.buffer { counted.add(bytes: buffer.size) }
            return .ok
        }
        try await pipeline.run()
        let (bytes, frames) = counted.value
        let bitrate = Double(bytes * 8) / Double(Self.seconds)
        print("\(test.testDescription): \(Int(bitrate / 1000)) kbit/s, \(frames) frames")
        #expect(bitrate < Double(test.bitrate) * 1.5, "\(Int(bitrate / 1000)) kbit/s")
        // Not starved either: an encode far below its target wastes the link.
        #expect(bitrate > Double(test.bitrate) * 0.5, "\(Int(bitrate / 1000)) kbit/s")
        // Bars fit the rate at every frame; noise drops frames (VP8) rather than the rate.
        if test.pattern == "smpte" { #expect(frames == Self.seconds * Self.frameRate) }
    }
}

/// Bytes and buffers a streaming thread adds to and the test reads.
private final class Tally: Sendable {
    private let count = Locked((bytes: 0, frames: 0))

    func add(bytes: Int) { count.withLock { ($0.bytes, $0.frames) = ($0.bytes + bytes, $0.frames + 1) } }

    var value: (bytes: Int, frames: Int) { count.withLock { $0 } }
}
