import Foundation
import GStreamer
import GstPipeParsing
import GstPipeSupport
import GstPipeWebRTC
import Testing

/// A ladder of shared encodes (`WebRTCLadderEncode`) feeding one viewer (`WebRTCViewers`), received
/// by a webrtcbin in this process that decodes what it gets: the viewer starts on the top rung, moves
/// to a lower one and back at that rung's key frames with its picture running on, a rung is encoded
/// only while someone watches it, and the rungs' regular key frames fall on the same frames. A second
/// viewer offering H.264 alone gets the H.264 ladder beside it, which encodes only while it watches. Loopback
/// only: both ICE agents are given 127.0.0.1 (`WebRTCBinTests` says why that keeps every packet there).
@Suite("WebRTCLadderTests", .serialized)
struct WebRTCLadderTests {
    /// What a pad probe saw, from a streaming thread.
    final class Seen: Sendable {
        private let state = Locked(
            (buffers: 0, keyFrames: [ClockTime](), height: 0, heights: [Int](), arrivals: [ContinuousClock.Instant]()))

        /// Counts what passes `pad`: buffers, the times of key frames, and for decoded frames the
        /// height of each (from the caps before it) and when it came.
        func watch(_ pad: Pad?) {
            _ = pad?.addProbe([.buffer, .eventDownstream]) { [self] info in
                if let caps = info.event?.caps, let height = caps.int("height") {
                    state.withLock { $0.height = height }
                }
                guard let buffer = info.buffer else { return .ok }
                let now = ContinuousClock.now
                state.withLock { state in
                    state.buffers += 1
                    if !buffer.isDeltaUnit, let pts = buffer.pts { state.keyFrames.append(pts) }
                    state.heights.append(state.height)
                    state.arrivals.append(now)
                }
                return .ok
            }
        }

        var buffers: Int { state.withLock { $0.buffers } }
        var keyFrames: [ClockTime] { state.withLock { $0.keyFrames } }
        var heights: [Int] { state.withLock { $0.heights } }

        /// The longest wait between two frames from the `after`th on.
        func longestGap(after: Int) -> Duration {
            let arrivals = state.withLock { Array($0.arrivals.dropFirst(after)) }
            return zip(arrivals, arrivals.dropFirst()).map { $1 - $0 }.max() ?? .zero
        }
    }

    /// Waits, at most `seconds`, until `condition` holds; returns whether it did.
    /// A playing webrtcbin that offers to receive the video `receiving` describes (an RTP caps' fields after
    /// `media=video`), and decodes it with `depayloader ! decoder`, whose frames it watches.
    static func receivingPeer(
        _ depayloader: String, _ decoder: String, receiving: String
    ) throws -> (Pipeline, WebRTCNegotiation, Seen) {
        let receiver = try Pipeline(
            launch: "webrtcbin name=recv bundle-policy=max-bundle \(depayloader) name=depay ! \(decoder) name=decoder "
                + "! fakesink sync=false async=false")
        let recv = try #require(receiver.element(named: "recv"))
        let depay = try #require(receiver.element(named: "depay")?.pad(named: "sink"))
        _ = recv.onPadAdded { pad in try? pad.link(to: depay) }
        let decoded = Seen()
        decoded.watch(receiver.element(named: "decoder")?.pad(named: "src"))
        let negotiation = WebRTCNegotiation(webrtcbin: recv)
        #expect(negotiation.addReceiver("application/x-rtp,media=video,\(receiving)"))
        try receiver.play()
        return (receiver, negotiation, decoded)
    }

    static func wait(seconds: Double, until condition: () -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else { return false }
            try await Task.sleep(for: .milliseconds(50))
        }
        return true
    }

    @Test(
        "a viewer moved down a rung and back; an H.264 viewer beside it; only watched rungs of watched codecs encode",
        .timeLimit(.minutes(2)))
    func moveBetweenRungs() async throws {
        try GStreamer.initialize()
        let ladder = try WebRTCLadder(option: "640x360:1200,320x180:400,160x90:150")
        let top = WebRTCLadderEncode.topChain(of: ladder, codec: .vp8).joined(separator: " ")
        let source = try Pipeline(
            launch: "videotestsrc is-live=true pattern=ball ! video/x-raw,format=I420,width=640,height=360,"
                + "framerate=30/1 ! tee name=ladder ! \(top) ! appsink name=video sync=false async=false max-buffers=60"
        )
        let tee = try #require(source.element(named: "ladder"))
        let appsink = try #require(source.element(named: "video"))
        let encode = try WebRTCLadderEncode(ladder: ladder, codec: .vp8, tee: tee, top: appsink) { failure in
            Issue.record("the ladder fits the source, yet: \(failure.message)")
        }
        let h264 = try WebRTCLadderEncode(codec: .h264, beside: encode, tee: tee)
        let encoded = encode.rungs.map { _ in Seen() }
        for (rung, seen) in zip(encode.rungs, encoded) { seen.watch(rung.appsink.pad(named: "sink")) }
        let h264Encoded = h264.rungs.map { _ in Seen() }
        for (rung, seen) in zip(h264.rungs, h264Encoded) { seen.watch(rung.appsink.pad(named: "sink")) }
        // The raw frames the H.264 top rung's valve lets through (each counted as a key frame): x264enc
        // shifts its output by 1000 hours from the first (GstVideoEncoder's min-pts), this gives the shift.
        let h264Input = Seen()
        h264Input.watch((h264.rungs[0].appsink.parent as? Bin)?.element(named: "valve")?.pad(named: "src"))
        let viewers = try WebRTCViewers(
            sources: WebRTCViewers.Sources(video: appsink, audio: nil, ladder: encode, alternatives: [h264]),
            codec: .vp8,
            // The test moves the viewer; its estimate (from this webrtcbin's reports) would move it back.
            ice: ICESettings(localAddresses: ["127.0.0.1"]), adaptive: false, note: { _ in })
        defer {
            viewers.close()
            source.stop()
        }
        try source.play()
        // Nobody watches: no rung of either codec encodes (the source runs, paced by a branch of its own).
        try await Task.sleep(for: .milliseconds(500))
        #expect((encoded + h264Encoded).allSatisfy { $0.buffers == 0 }, "\((encoded + h264Encoded).map(\.buffers))")
        #expect(viewers.media == WebRTCMedia(video: [.vp8, .h264], audio: false))

        // The receiving peer: webrtcbin offering to receive VP8, its stream decoded.
        let (receiver, negotiation, decoded) = try Self.receivingPeer(
            "rtpvp8depay", "vp8dec", receiving: "encoding-name=VP8,clock-rate=90000,payload=96")
        defer { receiver.stop() }
        let offer = try await negotiation.gatheredOffer(addresses: ["127.0.0.1"])
        let (id, answer) = try await viewers.join(ViewerOffer(offer, sending: viewers.media))
        try await negotiation.setRemoteAnswer(answer)

        // On the top rung: its frames decoded; the rungs below encode nothing.
        #expect(try await Self.wait(seconds: 30) { decoded.heights.filter { $0 == 360 }.count >= 30 })
        #expect(encode.usable == 3)
        #expect(encoded[1].buffers == 0 && encoded[2].buffers == 0, "\(encoded.map(\.buffers))")
        #expect(!encode.isEncoding(1) && !encode.isEncoding(2))
        #expect(viewers.codec(of: id) == .vp8 && h264Encoded.allSatisfy { $0.buffers == 0 })

        // A viewer offering H.264 alone gets the H.264 ladder: its top rung opens for it.
        let (h264Receiver, h264Negotiation, h264Decoded) = try Self.receivingPeer(
            "rtph264depay", "avdec_h264",
            receiving: "encoding-name=H264,clock-rate=90000,payload=102,packetization-mode=(string)1,"
                + "profile-level-id=(string)42e01f")
        defer { h264Receiver.stop() }
        let h264Offer = try await h264Negotiation.gatheredOffer(addresses: ["127.0.0.1"])
        let (h264Id, h264Answer) = try await viewers.join(ViewerOffer(h264Offer, sending: viewers.media))
        try await h264Negotiation.setRemoteAnswer(h264Answer)
        #expect(viewers.codec(of: h264Id) == .h264 && viewers.rungs(of: h264Id)?.watched == 0)
        #expect(h264.isEncoding(0) && !h264.isEncoding(1) && !h264.isEncoding(2))
        #expect(try await Self.wait(seconds: 30) { h264Decoded.heights.filter { $0 == 360 }.count >= 30 })
        #expect(h264Encoded[1].buffers == 0 && h264Encoded[2].buffers == 0, "\(h264Encoded.map(\.buffers))")

        // Down to 320x180: the rung opens, the viewer moves at its key frame, the picture runs on.
        let before = decoded.buffers
        #expect(viewers.move(id, to: 1))
        #expect(encode.isEncoding(1) && !encode.isEncoding(2))
        #expect(try await Self.wait(seconds: 20) { decoded.heights.filter { $0 == 180 }.count >= 90 })
        #expect(viewers.rungs(of: id)?.watched == 1 && viewers.rungs(of: id)?.next == nil)
        let heights = Array(decoded.heights.dropFirst(before))
        // One switch: the top rung's frames, then the lower's, none of the top's after.
        let switched = try #require(heights.firstIndex(of: 180))
        #expect(heights[switched...].allSatisfy { $0 == 180 }, "\(heights)")
        // No freeze at the switch: frames kept coming (a second at most between two, on a busy machine).
        #expect(decoded.longestGap(after: before) < .seconds(1), "\(decoded.longestGap(after: before))")
        #expect(encoded[2].buffers == 0)
        // Nobody watches the VP8 top rung now: it stopped encoding.
        #expect(!encode.isEncoding(0))
        // The regular key frames of the rungs open meanwhile, of both codecs, fall on the same frames.
        let shift = (h264Encoded[0].keyFrames.first ?? 0) &- (h264Input.keyFrames.first ?? 0)
        let shared = Set(h264Encoded[0].keyFrames.map { $0 &- shift }).intersection(encoded[1].keyFrames)
        #expect(!shared.isEmpty, "H.264 top \(h264Encoded[0].keyFrames), VP8 320x180 \(encoded[1].keyFrames)")

        // Back up: the top rung again, and the lower rung's valve closes (it stops encoding).
        let back = decoded.buffers
        #expect(viewers.move(id, to: 0))
        #expect(try await Self.wait(seconds: 20) { decoded.heights.dropFirst(back).filter { $0 == 360 }.count >= 30 })
        #expect(!encode.isEncoding(1))
        let stopped = encoded[1].buffers
        try await Task.sleep(for: .milliseconds(500))
        #expect(encoded[1].buffers <= stopped + 1, "the unwatched rung still encodes")
        // A rung the source does not give, or none at all, is refused.
        #expect(!viewers.move(id, to: 3) && !viewers.move("nobody", to: 1))

        // The H.264 viewer leaves: its codec stops encoding, the VP8 viewer watches on.
        #expect(viewers.leave(h264Id))
        #expect(!h264.isEncoding(0))
        let h264Stopped = h264Encoded[0].buffers
        try await Task.sleep(for: .milliseconds(500))
        #expect(h264Encoded[0].buffers <= h264Stopped + 1, "the unwatched codec still encodes")
        #expect(encode.isEncoding(0), "the VP8 viewer's rung closed with the H.264 viewer's")
        #expect(viewers.codec(of: id) == .vp8)
    }
}

/// A ladder the source turns out too small for: a usage error once its size is known, naming the rung.
@Suite(
    "WebRTCLadderFitTests",
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"))
struct WebRTCLadderFitTests {
    @Test("a rung larger than the source: exit 2, the rung and the source's size named")
    func rungLargerThanTheSource() async throws {
        let namespace = try await NetworkNamespace()
        let result = await namespace.run(
            CLI.binary.path,
            [
                "videotestsrc", "num-buffers=300", "!", "video/x-raw,width=320,height=240", "!",
                "webrtc://127.0.0.1:8890/live?ladder=640x360:800,320x180:200"
            ]
        ).finish(timeout: 60)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "ERROR: webrtc://127.0.0.1:8890/live?ladder=640x360:800,320x180:200: the ladder's rung 640x360:800 "
                    + "is larger than the source (320x240): give rungs no larger than it, or ladder=off"),
            "\(result.stderr)")
    }
}
