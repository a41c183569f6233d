import GStreamer
import GStreamerWebRTC
import GstPipeParsing
import GstPipeSupport

/// The ICE candidates a client's webrtcbin gathers after its offer went (a STUN server's reflexive
/// address, a TURN server's relay: each a round trip away, or more), sent to the server's session as
/// they come, by `PATCH` with an `application/trickle-ice-sdpfrag` (RFC 9725 section 4.3, RFC 8840):
/// the offer's credentials, the candidates of each media section by `a=mid`, and `a=end-of-candidates`
/// once gathering is over. One request at a time; candidates that come during one go together in the
/// next.
///
/// The offer itself waits `headStart` for candidates: host candidates come at once, and a server that
/// does not trickle (it answers `405` or `501`, which ends the trickle quietly) then still has every
/// candidate gathered by then.
package final class ClientTrickle: Sendable {
    /// How long the offer waits for candidates before it goes, unless gathering ends sooner.
    package static let headStart: Duration = .milliseconds(500)

    private struct State {
        /// Every candidate gathered, with its media section's index, in order.
        var gathered: [(index: UInt, candidate: String)] = []
        var complete = false
    }

    /// The state, in a box webrtcbin's handlers can hold.
    private final class Shared: Sendable {
        let state = Locked(State())
    }

    private let shared = Shared()
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private let connections: Locked<[SignalConnection]>
    private let typed: WebRTCBin?

    /// Starts following the candidates `webrtcbin` gathers: before its offer is made, so that none is
    /// missed.
    package init(webrtcbin: Element) {
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        typed = try? WebRTCBin(webrtcbin)
        guard let typed else {
            connections = Locked([])
            return
        }
        // The handlers hold the state and the continuation, not this object.
        let (shared, wake) = (shared, wake)
        let candidates = typed.onICECandidate { index, candidate in
            shared.state.withLock { $0.gathered.append((index, candidate)) }
            wake.yield()
        }
        let gathering = typed.onICEGatheringStateChanged { gathering in
            guard gathering == .complete else { return }
            shared.state.withLock { $0.complete = true }
            wake.yield()
        }
        connections = Locked([candidates, gathering])
    }

    /// Sends `send` each batch of the candidates `offer` did not hold, as they come, the last with
    /// `a=end-of-candidates`; returns after that one, when `send` returns false (the server does not
    /// take them), or once `stop()` is called.
    package func run(after offer: String, send: @Sendable (TrickleFragment) async -> Bool) async {
        let lines = offer.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        func attribute(_ name: String) -> String? {
            lines.first { $0.hasPrefix("a=\(name):") }.map { String($0.dropFirst(name.count + 3)) }
        }
        guard let ufrag = attribute("ice-ufrag"), let password = attribute("ice-pwd") else { return }
        let mids = lines.filter { $0.hasPrefix("a=mid:") }.map { String($0.dropFirst("a=mid:".count)) }
        var sent = Set(lines.filter { $0.hasPrefix("a=candidate:") }.map { String($0.dropFirst(2)) })
        if typed?.iceGatheringState == .complete { shared.state.withLock { $0.complete = true } }
        wake.yield()
        for await _ in wakes {
            let (pending, complete) = shared.state.withLock { state in
                (state.gathered.filter { !sent.contains($0.candidate) }, state.complete)
            }
            guard !pending.isEmpty || complete else { continue }
            // One section per media line that has candidates; all of them at the end, each ended.
            let indices = complete ? Array(0..<UInt(max(1, mids.count))) : Set(pending.map(\.index)).sorted()
            let sections = indices.map { index in
                TrickleFragment.Section(
                    mid: Int(index) < mids.count ? mids[Int(index)] : nil,
                    candidates: pending.filter { $0.index == index }.map(\.candidate), ended: complete)
            }
            guard await send(TrickleFragment(ufrag: ufrag, password: password, sections: sections)) else { break }
            sent.formUnion(pending.map(\.candidate))
            if complete { break }
        }
        stop()
    }

    /// Stops following the candidates: `run` returns, and webrtcbin's handlers are let go.
    package func stop() {
        wake.finish()
        let connections = connections.withLock { connections in
            defer { connections.removeAll() }
            return connections
        }
        connections.forEach { $0.disconnect() }
    }
}
