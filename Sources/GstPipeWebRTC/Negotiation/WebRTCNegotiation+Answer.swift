import GStreamer

extension WebRTCNegotiation {
    /// The answering side from start to end, as a viewer's and a publisher's webrtcbin both run it:
    /// the ICE agent given `ice`'s STUN and TURN servers and told of its local addresses (which
    /// libnice would leave out if they are loopback), the offer taken, the answer made and set (`answered` is called then: media may flow
    /// from here on), and once the candidates are gathered (3 s at most), the answer with them all
    /// (each host candidate again at `ice`'s public address, if any).
    package func answer(
        _ offer: String, ice: ICESettings, answered: () -> Void = {}
    ) async throws(Failure) -> String {
        do {
            try ice.configure(webrtcbin)
        } catch {
            throw Failure(reason: "webrtcbin refused the ICE servers: \(error.message)")
        }
        for address in ice.localAddresses { addLocalAddress(address) }
        try await setRemoteOffer(offer)
        let answer = try await createAnswer()
        try await setLocalAnswer(answer)
        answered()
        await gatheringComplete(timeout: .seconds(3))
        return ice.advertised(localDescription ?? answer)
    }

    /// Calls `handler` once, on a GStreamer thread, when the peer is gone for good: its connection
    /// failed or was closed, or `pipeline` (webrtcbin's) failed. `reason` says which.
    package func onEnd(of pipeline: Pipeline, _ handler: @escaping @Sendable (_ reason: String) -> Void) {
        let ended = OneShot()
        let end: @Sendable (String) -> Void = { reason in
            if ended.fire() { handler(reason) }
        }
        _ = try? webrtcbin.onNotify("connection-state") { value in
            switch value.stringValue {
            case "failed": end("its connection failed")
            case "closed": end("its connection closed")
            default: break
            }
        }
        pipeline.setSyncHandler { message in
            if case .error(let error) = message.message { end("\(error.message)") }
            return .pass
        }
    }
}
