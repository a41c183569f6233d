import GStreamer
import GStreamerWebRTC

/// One webrtcbin's side of the offer and answer, as async calls on the core's typed
/// `GStreamerWebRTC.WebRTCBin`: each step's GstPromise resumes the task from webrtcbin's own thread,
/// so no thread of Swift's cooperative pool waits on GStreamer. webrtcbin gathers its ICE candidates
/// after the answer is set; `gatheringComplete` waits for the last, so the answer a viewer gets holds
/// them all (no trickle needed).
package struct WebRTCNegotiation: Sendable {
    /// A step webrtcbin refused, in its words.
    package struct Failure: Error, Sendable {
        package let reason: String
    }

    package let webrtcbin: Element
    // nil only when `webrtcbin` is some other element, which every step then reports.
    private let typed: WebRTCBin?

    package init(webrtcbin: Element) {
        self.webrtcbin = webrtcbin
        typed = try? WebRTCBin(webrtcbin)
    }

    /// Gives webrtcbin the viewer's offer ("set-remote-description").
    package func setRemoteOffer(_ sdp: String) async throws(Failure) {
        try await step { bin throws(GStreamerError) in
            try await bin.setRemoteDescription(try SessionDescription(.offer, sdp: sdp))
        }
    }

    /// webrtcbin's answer to the offer, as SDP ("create-answer").
    package func createAnswer() async throws(Failure) -> String {
        try await step { bin throws(GStreamerError) in try await bin.createAnswer().sdp }
    }

    /// Sets the answer as webrtcbin's own ("set-local-description"): it starts gathering candidates.
    package func setLocalAnswer(_ sdp: String) async throws(Failure) {
        try await step { bin throws(GStreamerError) in
            try await bin.setLocalDescription(try SessionDescription(.answer, sdp: sdp))
        }
    }

    /// The local description as it stands, with the candidates gathered so far.
    package var localDescription: String? { typed?.localDescription?.sdp }

    /// Lets the ICE agent offer `address` (libnice leaves loopback out unless told).
    @discardableResult
    package func addLocalAddress(_ address: String) -> Bool {
        (try? typed?.addLocalIPAddress(address)) ?? false
    }

    /// Returns once webrtcbin has gathered its last candidate ("ice-gathering-state" complete), or
    /// after `timeout` (a candidate that never comes, such as an unreachable STUN server's, must not
    /// hold the viewer's request: the answer then has the candidates gathered so far).
    package func gatheringComplete(timeout: Duration) async {
        guard let typed else { return }
        let waiter = OneShot()
        let connection = typed.onICEGatheringStateChanged { state in
            if state == .complete { waiter.fire() }
        }
        defer { connection.disconnect() }
        // After connecting: a state that was complete before the handler came is seen here.
        if typed.iceGatheringState == .complete { waiter.fire() }
        await waiter.wait(timeout: timeout)
    }

    /// Runs one promise-bearing step on the typed webrtcbin, its error as the step's failure.
    package func step<Result>(
        _ body: (WebRTCBin) async throws(GStreamerError) -> Result
    ) async throws(Failure) -> Result {
        guard let typed else { throw Failure(reason: "\(webrtcbin.name) is no webrtcbin") }
        do {
            return try await body(typed)
        } catch {
            throw Failure(reason: error.message)
        }
    }
}
