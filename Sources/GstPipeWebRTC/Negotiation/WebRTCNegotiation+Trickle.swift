import GStreamer
import GStreamerWebRTC
import GstPipeParsing

// A WHIP or WHEP session's PATCH (RFC 9725 section 4.3), on the answering side: more candidates of the
// peer's (trickle ICE). An ICE restart (new credentials) is refused: webrtcbin 1.22 as the answering
// side keeps its own credentials and gathers nothing new when an offer brings new ones (tried: the
// answer came back with the old ufrag and no candidate), so it would not be a restart; the peer
// POSTs a new offer instead.
extension WebRTCNegotiation {
    /// Applies `fragment` to the session: with the credentials of the peer's offer, its candidates go
    /// to the ICE agent (`.trickled`); with others, nothing is changed (`.restartRefused`).
    package func trickle(_ fragment: TrickleFragment) throws(Failure) -> TrickleOutcome {
        guard let remote = remoteDescription else { throw Failure(reason: "the session has no offer yet") }
        let lines = remote.split(whereSeparator: \.isNewline).map(String.init)
        let mids = lines.filter { $0.hasPrefix("a=mid:") }.map { String($0.dropFirst("a=mid:".count)) }
        let ufrag = lines.first { $0.hasPrefix("a=ice-ufrag:") }.map { String($0.dropFirst("a=ice-ufrag:".count)) }
        guard fragment.ufrag == ufrag else { return .restartRefused }
        guard let bin = try? WebRTCBin(webrtcbin) else { throw Failure(reason: "\(webrtcbin.name) is no webrtcbin") }
        for section in fragment.sections {
            let index = section.mid.flatMap { mids.firstIndex(of: $0) } ?? 0
            for candidate in section.candidates {
                do {
                    try bin.addICECandidate(candidate, mediaLineIndex: UInt(index))
                } catch {
                    throw Failure(reason: error.message)
                }
            }
        }
        return .trickled
    }

    /// The peer's description as it stands.
    package var remoteDescription: String? { (try? WebRTCBin(webrtcbin))?.remoteDescription?.sdp }
}
