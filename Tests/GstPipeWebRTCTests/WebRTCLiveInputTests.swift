import Foundation
import GStreamer
import GstPipeParsing
import GstPipeSupport
import GstPipeWebRTC
import Testing

/// `WebRTCViewers.adaptToLiveInput`: once the first encoded frame is in, a live input's appsink stops
/// syncing on the clock and the one-frame queue before the encoder keeps the newest frame alone; a
/// source that is not live (a file, a Swift source pulled as fast as it is read) keeps both, since the
/// appsink's sync is what paces it.
@Suite("WebRTCLiveInputTests")
struct WebRTCLiveInputTests {
    /// `videotestsrc` (live or not) into the encoder chain of `webrtc://` and its appsink, the viewers'
    /// source; returns the appsink's `sync` and the queue's `leaky` once frames have been encoded.
    func adapted(live: Bool) async throws -> (sync: Bool?, leaky: String?, frames: Int) {
        let (pipeline, appsink, viewers) = try Self.encoding(
            "videotestsrc is-live=\(live) ! video/x-raw,format=I420,width=320,height=240,framerate=30/1", sync: true)
        let queue = try #require(pipeline.allElements.first { $0.factoryName == "queue" })
        let frames = Counter()
        _ = appsink.pad(named: "sink")?.addProbe(.buffer) { _ in
            frames.add()
            return .ok
        }
        try pipeline.play()
        let deadline = Date().addingTimeInterval(20)
        while frames.value < 5 && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let result = (
            try appsink.get("sync").boolValue, try queue.get("leaky").stringValue, frames.value
        )
        viewers.close()
        pipeline.stop()
        return result
    }

    /// `source` through the encoder chain of `webrtc://` (VP8) into the appsink the viewers take from
    /// (syncing or not), not yet playing; the viewers' `ice` settings as given.
    static func encoding(
        _ source: String, sync: Bool, ice: ICESettings = ICESettings()
    ) throws -> (Pipeline, Element, WebRTCViewers) {
        try GStreamer.initialize()
        let chain = (WebRTCViewers.encoderQueue + WebRTCCodec.vp8.encoderChain()).joined(separator: " ")
        let pipeline = try Pipeline(
            launch: "\(source) ! \(chain) ! appsink name=video sync=\(sync) async=false max-buffers=60")
        let appsink = try #require(pipeline.element(named: "video"))
        let viewers = try WebRTCViewers(
            sources: WebRTCViewers.Sources(video: appsink, audio: nil), codec: .vp8, ice: ice, note: { _ in })
        return (pipeline, appsink, viewers)
    }

    @Test("a live input: the appsink stops syncing, the queue before the encoder keeps the newest frame")
    func liveInput() async throws {
        let (sync, leaky, frames) = try await adapted(live: true)
        #expect(frames >= 5)
        #expect(sync == false)
        #expect(leaky == "downstream")
    }

    @Test("an input that is not live: the appsink paces it, the queue drops nothing")
    func pacedInput() async throws {
        let (sync, leaky, frames) = try await adapted(live: false)
        #expect(frames >= 5)
        #expect(sync == true)
        #expect(leaky == "no")
    }
}

/// A count that a streaming thread adds to and the test reads.
private final class Counter: Sendable {
    private let count = Locked(0)

    func add() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }
}
