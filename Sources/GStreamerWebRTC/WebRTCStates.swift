/// Where the ICE agent stands in gathering its local candidates.
///
/// The corresponding C type is `GstWebRTCICEGatheringState`; the raw values are its nicks.
public enum ICEGatheringState: String, Sendable, Equatable, CaseIterable {
    /// Not started.
    case new
    /// Gathering candidates; each one comes through ``WebRTCBin/onICECandidate(_:)``.
    case gathering
    /// Every candidate has been gathered.
    case complete
}

/// The state of the ICE connection between the peers.
///
/// The corresponding C type is `GstWebRTCICEConnectionState`; the raw values are its nicks.
public enum ICEConnectionState: String, Sendable, Equatable, CaseIterable {
    /// Not started.
    case new
    /// Checking candidate pairs.
    case checking
    /// A candidate pair works.
    case connected
    /// Checking has finished.
    case completed
    /// No candidate pair works.
    case failed
    /// The connection was lost.
    case disconnected
    /// Closed.
    case closed
}

/// The state of the whole peer connection (ICE and DTLS).
///
/// The corresponding C type is `GstWebRTCPeerConnectionState`; the raw values are its nicks.
public enum PeerConnectionState: String, Sendable, Equatable, CaseIterable {
    /// Not started.
    case new
    /// Connecting.
    case connecting
    /// Connected: media can flow.
    case connected
    /// Connection lost.
    case disconnected
    /// Failed.
    case failed
    /// Closed.
    case closed
}
