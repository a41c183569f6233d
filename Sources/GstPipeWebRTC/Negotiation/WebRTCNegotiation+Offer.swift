import Foundation
import GStreamer
import GStreamerWebRTC

// The offering side of the negotiation, for gstpipe as a WHIP or WHEP client: gstpipe offers, the
// server answers. Each step resumes from webrtcbin's own thread, as the answering side's do.
extension WebRTCNegotiation {
    /// webrtcbin's offer, as SDP ("create-offer"), from its transceivers: a publisher's sink pads, or
    /// the receivers added with `addReceiver`.
    package func createOffer() async throws(Failure) -> String {
        try await step { bin throws(GStreamerError) in try await bin.createOffer().sdp }
    }

    /// Sets the offer as webrtcbin's own ("set-local-description"): it starts gathering candidates.
    package func setLocalOffer(_ sdp: String) async throws(Failure) {
        try await step { bin throws(GStreamerError) in
            try await bin.setLocalDescription(try SessionDescription(.offer, sdp: sdp))
        }
    }

    /// Gives webrtcbin the server's answer ("set-remote-description"); media flows once ICE and DTLS
    /// are up. An answer that is not SDP fails with the parser's reason.
    package func setRemoteAnswer(_ sdp: String) async throws(Failure) {
        try await step { bin throws(GStreamerError) in
            try await bin.setRemoteDescription(try SessionDescription(.answer, sdp: sdp))
        }
    }

    /// The transceiver direction enum's type, whose values are given by nick.
    private static let directionType = "GstWebRTCRTPTransceiverDirection"

    /// Adds a transceiver that receives only, offering the codecs `caps` lists (application/x-rtp
    /// structures, one a codec): the "add-transceiver" action signal. False when webrtcbin refuses.
    @discardableResult
    package func addReceiver(_ caps: String) -> Bool {
        do {
            let direction = try Value(parsing: "recvonly", as: Self.directionType)
            let added = try webrtcbin.emit("add-transceiver", .value(direction), .value(Value(try Caps(caps))))
            return added.object != nil
        } catch {
            return false
        }
    }

    /// Makes the transceiver of each of webrtcbin's sink pads send only (a sink pad requested by
    /// linking makes one that sends and receives): a publisher receives nothing back but RTCP.
    package func sendOnly() {
        guard let sendOnly = try? Value(parsing: "sendonly", as: Self.directionType) else { return }
        for pad in webrtcbin.pads where pad.direction == .sink {
            let transceiver = try? Value(pad).object?.value(ofProperty: "transceiver").object
            try? transceiver?.setValue(sendOnly, ofProperty: "direction")
        }
    }

    /// The offer as a client sends it: offered, set as webrtcbin's own, candidates gathered (on each of
    /// `addresses` too, which libnice leaves out when they are loopback) for at most `waiting`, so that
    /// the offer holds those gathered by then: all of them when gathering ends sooner, as it does at
    /// once without STUN or TURN. Those that come after go to the server by PATCH (`ClientTrickle`).
    ///
    /// The offer takes the DTLS client's role (`a=setup:active`) rather than leaving it to the server
    /// (`actpass`): webrtcbin's certificate is RSA, and a server whose DTLS offers only ECDSA cipher
    /// suites (aiortc's) finds no cipher it shares with webrtcbin as a DTLS server, while as a client
    /// webrtcbin takes the server's ECDSA suites as well as RSA ones.
    package func gatheredOffer(addresses: [String], waiting: Duration = .seconds(3)) async throws(Failure) -> String {
        for address in addresses { addLocalAddress(address) }
        let offer = try await createOffer().replacingOccurrences(of: "a=setup:actpass", with: "a=setup:active")
        try await setLocalOffer(offer)
        await gatheringComplete(timeout: waiting)
        return localDescription ?? offer
    }
}
