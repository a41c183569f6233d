import CGStreamerWebRTCShim
import Foundation
import GStreamer

// The offering side of the negotiation, for gstpipe as a WHIP or WHEP client: gstpipe offers, the
// server answers. Each step resumes from webrtcbin's own thread, as the answering side's do.
extension WebRTCNegotiation {
    /// webrtcbin's offer, as SDP ("create-offer"), from its transceivers: a publisher's sink pads, or
    /// the receivers added with `addReceiver`.
    func createOffer() async throws(Failure) -> String {
        guard let offer = try await step({ CGStreamerWebRTCShim_create_offer($0, $1, $2) }) else {
            throw Failure(reason: "webrtcbin made no offer")
        }
        return offer
    }

    /// Sets the offer as webrtcbin's own ("set-local-description"): it starts gathering candidates.
    func setLocalOffer(_ sdp: String) async throws(Failure) { try await set(sdp, local: true) }

    /// Gives webrtcbin the server's answer ("set-remote-description"); media flows once ICE and DTLS
    /// are up.
    func setRemoteAnswer(_ sdp: String) async throws(Failure) { try await set(sdp, local: false) }

    /// An offerer's two descriptions: its own offer (`local`), or the answer to it.
    private func set(_ sdp: String, local: Bool) async throws(Failure) {
        _ = try await step { webrtcbin, done, context in
            if local {
                CGStreamerWebRTCShim_set_local_offer(webrtcbin, sdp, done, context)
            } else {
                CGStreamerWebRTCShim_set_remote_answer(webrtcbin, sdp, done, context)
            }
        }
    }

    /// Adds a transceiver that receives only, offering the codecs `caps` lists; false when webrtcbin
    /// refuses the caps.
    @discardableResult
    func addReceiver(_ caps: String) -> Bool {
        webrtcbin.withUnsafePointer { CGStreamerWebRTCShim_add_receiver($0, caps) != 0 }
    }

    /// Makes every transceiver send only: a publisher receives nothing back but RTCP.
    func sendOnly() {
        _ = webrtcbin.withUnsafePointer { CGStreamerWebRTCShim_send_only($0) }
    }

    /// The whole offer as a client sends it: offered, set as webrtcbin's own, candidates gathered
    /// (on each of `addresses` too, which libnice leaves out when they are loopback), so that the
    /// offer holds them all and no trickle is needed.
    ///
    /// The offer takes the DTLS client's role (`a=setup:active`) rather than leaving it to the server
    /// (`actpass`): webrtcbin's certificate is RSA, and a server whose DTLS offers only ECDSA cipher
    /// suites (aiortc's) finds no cipher it shares with webrtcbin as a DTLS server, while as a client
    /// webrtcbin takes the server's ECDSA suites as well as RSA ones.
    func gatheredOffer(addresses: [String]) async throws(Failure) -> String {
        for address in addresses { addLocalAddress(address) }
        let offer = try await createOffer().replacingOccurrences(of: "a=setup:actpass", with: "a=setup:active")
        try await setLocalOffer(offer)
        await gatheringComplete(timeout: .seconds(3))
        return localDescription ?? offer
    }
}
