import GstPipeParsing

/// What takes a WHIP publisher behind `WHIPEndpoints`: the CLI's `webrtc://` input (into a run's
/// pipeline), or a library user's `BrowserPublisher` (into a Swift sink). One publisher at a time.
package protocol PublisherSessions: Sendable {
    /// The STUN and TURN servers, and the local addresses, that each publisher's peer uses.
    var ice: ICESettings { get }
    /// A publisher's offer: its session's id and the SDP answer, or why it was refused.
    func publish(_ offer: PublisherOffer) async -> Result<(session: String, answer: String), PublishFailure>
    /// Ends the publisher with session `id` (its DELETE); false when it is not the one publishing.
    func leave(_ id: String) -> Bool
    /// The negotiation of the publisher with session `id`, nil when it is not the one publishing: what
    /// a PATCH (trickle ICE, an ICE restart) works on.
    func negotiation(of id: String) -> WebRTCNegotiation?
}

/// What a WHIP or WHEP PATCH came to (`204`, `501`, `404`, `422`).
package enum TrickleOutcome: Sendable {
    /// The candidates went to the ICE agent.
    case trickled
    /// New credentials: an ICE restart, which webrtcbin 1.22 cannot make as the answering side.
    case restartRefused
    /// No such session.
    case noSession
    /// webrtcbin refused a candidate, in its words.
    case failed(String)
}

extension WebRTCNegotiation {
    /// `fragment` applied to `negotiation` (nil: no such session), as an outcome.
    package static func trickle(_ fragment: TrickleFragment, to negotiation: WebRTCNegotiation?) -> TrickleOutcome {
        guard let negotiation else { return .noSession }
        do {
            return try negotiation.trickle(fragment)
        } catch {
            return .failed(error.reason)
        }
    }
}

/// Why a publisher could not publish (HTTP 409, 503 or 500).
package enum PublishFailure: Error, Sendable {
    /// Another publisher is live.
    case busy
    /// The stream has ended: no publisher is taken any more.
    case ended
    /// The publisher's peer could not be made or refused the offer.
    case failed(String)
}
