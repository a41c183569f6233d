import BrowserOffers
import Foundation
import GStreamer
import GstPipeParsing
import GstPipeWebRTC
import Testing

/// `WebRTCViewers.waitForGoodbyes`, the wait at the end of a `webrtc://` run for the end of stream to
/// reach every viewer's webrtcbin: it suspends instead of sleeping on a thread of Swift's cooperative
/// pool (two threads on two cores), and it ends as soon as the viewers have ended or closed. Viewers
/// joined with a browser's offer, in this process; no connection is made (nothing but ICE gathering
/// on loopback). The end reaching connected viewers is `WHIPClientTests.watchOwnServer`'s.
@Suite("WebRTCGoodbyeTests", .serialized)
struct WebRTCGoodbyeTests {
    /// The encoder chain of `webrtc://` into the viewers' appsink, not yet playing, and two viewers
    /// joined.
    private static func twoViewers() async throws -> (Pipeline, WebRTCViewers) {
        let (pipeline, _, viewers) = try WebRTCLiveInputTests.encoding(
            "videotestsrc ! video/x-raw,format=I420,width=160,height=120,framerate=30/1", sync: false,
            ice: ICESettings(localAddresses: ["127.0.0.1"]))
        for _ in 0..<2 {
            _ = try await viewers.join(ViewerOffer(BrowserOffers.video(), sending: viewers.media))
        }
        #expect(viewers.count == 2)
        return (pipeline, viewers)
    }

    @Test("Viewers that never end: more waits than the pool has threads run out their bound, while other tasks run")
    func waitLeavesThePoolFree() async throws {
        let (pipeline, viewers) = try await Self.twoViewers()
        defer {
            viewers.close()
            pipeline.stop()
        }
        // More waits than Swift's cooperative pool has threads: a wait that slept on its thread would
        // hold them all, and nothing else on the pool (this test's own task) could run until they end.
        let waits = ProcessInfo.processInfo.activeProcessorCount + 2
        let limit = Duration.seconds(4)
        let started = ContinuousClock.now
        let waiting = Task {
            await withTaskGroup(of: Duration.self) { group in
                for _ in 0..<waits {
                    group.addTask {
                        await viewers.waitForGoodbyes(limit: limit)
                        return ContinuousClock.now - started
                    }
                }
                return await group.reduce(into: [Duration]()) { $0.append($1) }
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        let meanwhile = await Task.detached { ContinuousClock.now - started }.value
        let ended = await waiting.value
        // Under load the pool's threads are slow to come back, not held: seconds of margin either way.
        #expect(meanwhile < .seconds(2), "other work waited \(meanwhile) for the goodbyes' waits")
        #expect(ended.count == waits)
        #expect(ended.allSatisfy { $0 >= limit }, "a wait ended before its bound, the viewers still on: \(ended)")
    }

    @Test("Viewers closed while the end waits for them: the wait ends then, not at its bound")
    func waitEndsWithTheViewers() async throws {
        let (pipeline, viewers) = try await Self.twoViewers()
        defer { pipeline.stop() }
        let started = ContinuousClock.now
        let closing = Task.detached {
            try? await Task.sleep(for: .milliseconds(500))
            viewers.close()
        }
        await viewers.waitForGoodbyes(limit: .seconds(20))
        let waited = ContinuousClock.now - started
        await closing.value
        #expect(waited < .seconds(10), "the wait took \(waited): the viewers' closing did not end it")
    }
}
