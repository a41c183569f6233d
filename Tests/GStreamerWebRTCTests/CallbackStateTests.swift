import GStreamer
import GstPipeSupport
import Synchronization
import Testing

/// webrtcbin with the VP8 payloader it negotiates.
private let webRTCBinAvailable = ["webrtcbin", "vp8enc", "rtpvp8pay"].allSatisfy { (try? Element(factory: $0)) != nil }

@Suite("State changes from handlers on threads that are not GstTask threads")
struct CallbackStateTests {
    @Test(
        "A pipeline stopped from webrtcbin's on-negotiation-needed, on webrtcbin's own thread, reaches NULL",
        .enabled(if: webRTCBinAvailable, "needs webrtcbin (gstreamer1.0-plugins-bad) and the VP8 elements"),
        .timeLimit(.minutes(1)))
    func stopFromSignalHandler() async throws {
        let pipeline = try Pipeline(
            launch: "videotestsrc is-live=true ! video/x-raw,width=64,height=48 ! vp8enc deadline=1 ! rtpvp8pay "
                + "! application/x-rtp,media=video,encoding-name=VP8,payload=96,clock-rate=90000 ! webrtcbin name=w")
        let webrtc = try #require(pipeline.element(named: "w"))
        let results = Locked<[StateChangeResult]>([])
        // webrtcbin emits on-negotiation-needed from its own thread, which its change to NULL stops and joins.
        let connection = try webrtc.connect("on-negotiation-needed") { _ in
            if let result = try? pipeline.setState(.null) { results.withLock { $0.append(result) } }
        }
        defer { connection.disconnect() }
        try pipeline.play()
        var current = State.playing
        for _ in 0..<300 {
            current = pipeline.state().current
            if current == .null && !results.withLock({ $0.isEmpty }) { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(results.withLock { $0 } == [.async], "the change was handed to another thread")
        #expect(current == .null)
    }
}
