import GStreamer
import GStreamerWebRTC
import GstPipeSupport
import Testing

/// webrtcbin, libnice's GStreamer plugin (gstreamer1.0-nice) and the VP8 elements, without which two
/// peers cannot connect.
private let webRTCAvailable = ["webrtcbin", "nicesrc", "vp8enc", "vp8dec", "rtpvp8pay", "rtpvp8depay"].allSatisfy {
    (try? Element(factory: $0)) != nil
}

@Suite("WebRTCBin: typed webrtcbin, its promises awaited, two peers in one process")
struct WebRTCBinTests {
    // Loopback only. The test process cannot move itself into a private network namespace (unshare -n
    // applies to a new process), so instead both ICE agents are given 127.0.0.1 with
    // add-local-ip-address: libnice then gathers host candidates on the added addresses alone, and no
    // STUN or TURN server is set, so every candidate, and every packet, stays on 127.0.0.1.
    @Test(
        "Offer, answer and candidates exchanged in-process; 30 red 320x240 frames arrive in an appsink; statistics",
        .enabled(if: webRTCAvailable, "needs webrtcbin, gstreamer1.0-nice and the VP8 elements"),
        .timeLimit(.minutes(2)))
    func twoPeers() async throws {
        let sender = try Pipeline(
            launch: "videotestsrc is-live=true pattern=red ! video/x-raw,width=320,height=240,framerate=30/1 "
                + "! videoconvert ! vp8enc deadline=1 keyframe-max-dist=10 ! rtpvp8pay "
                + "! application/x-rtp,media=video,encoding-name=VP8,payload=96,clock-rate=90000 "
                + "! webrtcbin name=send bundle-policy=max-bundle")
        let receiver = try Pipeline(
            launch: "webrtcbin name=recv bundle-policy=max-bundle "
                + "rtpvp8depay name=depay ! vp8dec ! videoconvert ! video/x-raw,format=RGBx ! appsink name=frames")
        let offerer = try WebRTCBin(try #require(sender.element(named: "send")))
        let answerer = try WebRTCBin(try #require(receiver.element(named: "recv")))
        #expect(try offerer.addLocalIPAddress("127.0.0.1"))
        #expect(try answerer.addLocalIPAddress("127.0.0.1"))

        let depay = try #require(receiver.element(named: "depay")?.pad(named: "sink"))
        let candidates = Locked<[String]>([])
        let states = Locked<[PeerConnectionState]>([])
        let (negotiated, done) = AsyncStream.makeStream(of: Result<[SessionDescription], any Error>.self)
        let connections = [
            answerer.onPadAdded { pad in try? pad.link(to: depay) },
            offerer.onICECandidate { line, candidate in
                candidates.withLock { $0.append(candidate) }
                try? answerer.addICECandidate(candidate, mediaLineIndex: line)
            },
            answerer.onICECandidate { line, candidate in
                try? offerer.addICECandidate(candidate, mediaLineIndex: line)
            },
            answerer.onConnectionStateChanged { state in states.withLock { $0.append(state) } },
            offerer.onNegotiationNeeded {
                Task {
                    do {
                        done.yield(.success(try await Self.negotiate(offerer, answerer)))
                    } catch {
                        done.yield(.failure(error))
                    }
                }
            }
        ]
        defer { connections.forEach { $0.disconnect() } }
        let frames = try receiver.samples(fromAppSink: "frames", capacity: 8)
        try receiver.play()
        try sender.play()
        defer {
            sender.stop()
            receiver.stop()
        }

        var results = negotiated.makeAsyncIterator()
        let descriptions = try #require(await results.next()).get()
        #expect(descriptions.map(\.kind) == [.offer, .answer])
        #expect(descriptions[0].sdp.contains("m=video") && descriptions[0].sdp.contains("VP8/90000"))
        #expect(offerer.remoteDescription?.kind == .answer)
        #expect(answerer.localDescription?.kind == .answer)

        var count = 0
        for try await sample in frames {
            let structure = try #require(sample.caps?.structure(at: 0))
            #expect(structure.int("width") == 320 && structure.int("height") == 240)
            let bytes = try #require(sample.buffer?.bytes)
            #expect(bytes.count == 320 * 240 * 4)
            // videotestsrc's red through VP8 and back: red high, green and blue low, over the frame.
            var sums = [0, 0, 0]
            for pixel in stride(from: 0, to: bytes.count, by: 4) {
                for channel in 0..<3 { sums[channel] += Int(bytes[pixel + channel]) }
            }
            let means = sums.map { $0 / (320 * 240) }
            #expect(means[0] > 200 && means[1] < 60 && means[2] < 60, "mean RGB \(means)")
            count += 1
            if count == 30 { break }
        }
        #expect(count == 30)
        #expect(states.withLock { $0 }.contains(.connected))
        #expect(answerer.connectionState == .connected)
        let gathered = candidates.withLock { $0 }
        #expect(!gathered.isEmpty && gathered.allSatisfy { $0.contains("127.0.0.1") }, "\(gathered)")

        let statistics = try await offerer.statistics()
        let outbound = statistics.compactMap { field -> Structure? in
            guard case .structure(let stream) = field.value, stream.value("type")?.enumNick == "outbound-rtp" else {
                return nil
            }
            return stream
        }
        #expect(outbound.contains { ($0.uint64("packets-sent") ?? 0) > 0 }, "\(statistics)")
    }

    /// The offer/answer exchange, both sides in this process: what a signalling server carries.
    private static func negotiate(_ offerer: WebRTCBin, _ answerer: WebRTCBin) async throws -> [SessionDescription] {
        let offer = try await offerer.createOffer()
        try await offerer.setLocalDescription(offer)
        // Through SDP text, as a peer elsewhere would get it.
        try await answerer.setRemoteDescription(try SessionDescription(.offer, sdp: offer.sdp))
        let answer = try await answerer.createAnswer()
        try await answerer.setLocalDescription(answer)
        try await offerer.setRemoteDescription(try SessionDescription(.answer, sdp: answer.sdp))
        return [offer, answer]
    }

    @Test(
        "webrtcbin's refusals are thrown with its reason; text that is not SDP is refused before webrtcbin",
        .enabled(if: webRTCAvailable, "needs webrtcbin"), .timeLimit(.minutes(1)))
    func refusals() async throws {
        let pipeline = try Pipeline()
        let webrtc = try WebRTCBin(name: "lonely")
        try pipeline.add(webrtc.element)
        try pipeline.play()
        defer { pipeline.stop() }
        // No remote offer to answer: webrtcbin's promise replies with an "error" field, thrown in its words.
        let refusal = await #expect(throws: GStreamerError.self) { try await webrtc.createAnswer() }
        #expect(refusal?.message.hasPrefix("create-answer: ") == true, "\(String(describing: refusal))")
        #expect((refusal?.message.count ?? 0) > "create-answer: ".count + 10)
        #expect(throws: GStreamerError.self) { try SessionDescription(.offer, sdp: "hello") }
        #expect(throws: GStreamerError.self) { try WebRTCBin(try Element(factory: "identity")) }
        #expect(webrtc.iceGatheringState == .new)
        #expect(webrtc.localDescription == nil)
    }
}
