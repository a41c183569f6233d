import Foundation
import GStreamer
import GstPipeParsing
import GstPipeSupport
import GstPipeWebRTC

/// What publishes a `whip+http(s)://` output: a pipeline of its own, `appsrc ! payloader ! webrtcbin`
/// (send only), fed the run's encoded frames from the output's last element (a fakesink that keeps
/// a file's pace). A pipeline apart, as each viewer of a `webrtc://` output has: webrtcbin's state
/// and its connection stay out of the run's state changes.
///
/// webrtcbin negotiates once caps have reached each of its sink pads ("on-negotiation-needed"; a
/// description set before then leaves the pad unconnected for good), so the offer goes out as the
/// first encoded frame arrives: POSTed to the server, whose answer is set, and the candidates gathered
/// after it follow by PATCH (`ClientTrickle`). What goes wrong then (a
/// server nothing answers at, a token refused, an answer that is not SDP, a connection that fails)
/// fails the run from the output's element, saying what to do.
///
/// The run's frames after the first wait for the connection (`WHIPConnectionGate`), so that the
/// server gets the stream from its first frame, a key frame.
///
/// The session ends with the run: end of stream goes on to the server (RTCP BYE), then `close()`
/// DELETEs the session's resource, as WHIP asks, and stops the pipeline.
final class WHIPPublisher: StreamServer {
    /// How long the run waits for ICE and DTLS before it fails: long enough for a TURN relay far away
    /// on a loaded machine, short enough that a server unreachable over UDP is said plainly.
    static let connectionLimit = Duration.seconds(20)

    private let client: WHIPClient
    private let pipeline: Pipeline
    private let feed: AppSrc
    private let shared = Shared()
    private let gate: WHIPConnectionGate
    /// The handlers connected to webrtcbin and the probes put on pads (the run's sink's among them),
    /// which hold the run's sink and webrtcbin: `close()` lets them go. Left, they kept the sink alive
    /// (its pad's probe holding it) and webrtcbin too (its own handler holding it), past the run.
    private let hooks = Locked<(connections: [SignalConnection], probes: [PadProbe])>(([], []))

    /// The state, in a box the streaming threads' handlers can hold.
    private final class Shared: Sendable {
        let state = Locked(State())

        /// A frame's time in the publisher's pipeline: its distance from the first frame, in the
        /// run's own times, after the publisher's running time when the first came. Frames held while
        /// the connection came up then leave quickly, but keep their spacing for the server's jitter
        /// buffer (stamped as they arrived, the first seconds played as a burst). Without a time, the
        /// running time now.
        func feedTime(of pts: ClockTime?, running: ClockTime?) -> ClockTime? {
            guard let pts else { return running }
            return state.withLock { state in
                let timing = state.timing ?? (pts, running ?? 0)
                state.timing = timing
                return pts >= timing.first ? timing.base + (pts - timing.first) : timing.base
            }
        }
    }

    private struct State {
        /// The server's session, once it answered.
        var session: WHIPClient.Session?
        /// The candidates that follow the offer, until the run ends.
        var trickle: ClientTrickle?
        /// Caps that came since the last frame, for the appsrc.
        var caps: Caps?
        /// The first frame (a key frame) has gone to the appsrc: the next ones wait for the connection.
        var started = false
        var closed = false
        /// The first frame's time in the run, and the publisher's running time when it came.
        var timing: (first: ClockTime, base: ClockTime)?
    }

    /// Builds the pipeline and starts it; the offer goes once frames come. `sink` is the output's
    /// last element in the run's pipeline; `ice` has the STUN and TURN servers to gather through;
    /// `connectionLimit` is how long frames wait for the connection (tests shorten it).
    init(
        client: WHIPClient, codec: WebRTCCodec, ice: ICESettings, sink: Element,
        connectionLimit: Duration = WHIPPublisher.connectionLimit, note: @escaping @Sendable (String) -> Void
    ) throws(FileJob.Failure) {
        self.client = client
        gate = WHIPConnectionGate(limit: connectionLimit)
        let payloadType = 96
        let webrtcbin: Element
        do throws(GStreamerError) {
            // is-live: frames are stamped in this pipeline's running time as they enter (`feedTime`),
            // the run's timestamps belonging to another pipeline.
            pipeline = try Pipeline(
                launch: "appsrc name=whip-feed is-live=true format=time do-timestamp=false block=false "
                    + "leaky-type=downstream max-buffers=30 ! \(codec.payloader(payloadType: payloadType)) ! "
                    + "\(Self.rtpCaps(codec, payloadType: payloadType)) ! "
                    + "webrtcbin name=whip-peer bundle-policy=max-bundle")
            guard let appsrc = try? pipeline.appSrc(named: "whip-feed"), let peer = pipeline.element(named: "whip-peer")
            else { throw GStreamerError(kind: .core, message: "the publisher's pipeline has no appsrc or webrtcbin") }
            (feed, webrtcbin) = (appsrc, peer)
            try ice.configure(webrtcbin)
        } catch {
            throw .runtime("cannot publish to \(client.shown): \(error.message)")
        }
        WebRTCNegotiation(webrtcbin: webrtcbin).sendOnly()
        let (shared, shown) = (shared, client.shown)
        pipeline.setSyncHandler { message in
            if case .error(let error) = message.message, !shared.state.withLock({ $0.closed }) {
                sink.postError("publishing to \(shown) failed: \(error.message)")
            }
            return .pass
        }
        let offered = OneShot()
        let negotiationNeeded = try? webrtcbin.connect("on-negotiation-needed") { _ in
            guard offered.fire() else { return }
            Task { await Self.negotiate(webrtcbin, client: client, shared: shared, sink: sink, note: note) }
        }
        hold(negotiationNeeded)
        watch(webrtcbin, sink: sink, note: note)
        take(from: sink)
        do {
            try pipeline.play()
        } catch {
            throw .runtime("cannot publish to \(client.shown): \(error.message)")
        }
        note("publishing to \(client.shown) (\(codec.encodingName) over WebRTC) as the first frame is encoded")
    }

    /// Offers, POSTs the offer and sets the server's answer; a failure fails the run from `sink`.
    private static func negotiate(
        _ webrtcbin: Element, client: WHIPClient, shared: Shared, sink: Element,
        note: @escaping @Sendable (String) -> Void
    ) async {
        let negotiation = WebRTCNegotiation(webrtcbin: webrtcbin)
        let trickle = ClientTrickle(webrtcbin: webrtcbin)
        let offer: String
        do {
            offer = try await negotiation.gatheredOffer(
                addresses: loopback(for: client.endpoint), waiting: ClientTrickle.headStart)
        } catch {
            trickle.stop()
            sink.postError("cannot publish to \(client.shown): webrtcbin made no offer: \(error.reason)")
            return
        }
        let session: WHIPClient.Session
        do {
            session = try await client.open(offer: offer)
        } catch {
            trickle.stop()
            switch error {
            case .usage(let message), .runtime(let message): sink.postError(message)
            }
            return
        }
        let closed = shared.state.withLock { state -> Bool in
            state.session = session
            state.trickle = trickle
            return state.closed
        }
        // The run ended while the server answered: the session ends at once.
        if closed {
            trickle.stop()
            client.close(session)
            return
        }
        do {
            try await negotiation.setRemoteAnswer(session.answer)
        } catch {
            sink.postError("\(client.shown) answered, but webrtcbin refused its answer: \(error.reason)")
            return
        }
        if session.resource == nil { note("\(client.shown) gave no session URL: the session ends with the connection") }
        await client.trickle(trickle, after: offer, to: session, note: note)
    }

    /// The payloader's caps: what the offer says of the codec. H.264 in the profile and packetization
    /// every WebRTC receiver takes (`WebRTCCodec.h264`'s constrained baseline).
    private static func rtpCaps(_ codec: WebRTCCodec, payloadType: Int) -> String {
        let caps =
            "application/x-rtp,media=video,clock-rate=90000,encoding-name=\(codec.encodingName),payload=\(payloadType)"
        return codec == .h264 ? caps + ",packetization-mode=(string)1,profile-level-id=(string)42e01f" : caps
    }

    /// The loopback address for a server on this machine: libnice offers none unless told, and a
    /// server on 127.0.0.1 (or `localhost`) would find no candidate it can reach.
    static func loopback(for endpoint: URL) -> [String] {
        switch endpoint.host?.lowercased() {
        case "localhost": ["127.0.0.1", "::1"]
        case let host? where host.hasPrefix("127."): [host]
        case "::1", "[::1]": ["::1"]
        default: []
        }
    }

    /// Follows the connection: once it is up, a key frame is asked for, to start the server's picture;
    /// when it fails or the server closes it, the run fails from the output's element, saying so.
    /// The server's own requests for a key frame (PLI, FIR) reach the run's encoder.
    private func watch(_ webrtcbin: Element, sink: Element, note: @escaping @Sendable (String) -> Void) {
        let (shared, shown, gate) = (shared, client.shown, gate)
        let ended = OneShot()
        let connectionState = try? webrtcbin.onNotify("connection-state") { value in
            switch value.stringValue {
            case "connected":
                note("connected to \(shown): sending")
                gate.open()
                sink.send(.forceKeyUnitUpstream())
            case "failed" where ended.fire():
                gate.shut()
                sink.postError("the connection to \(shown) failed (ICE or DTLS): is the server reachable over UDP?")
            case "closed" where !shared.state.withLock({ $0.closed }) && ended.fire():
                gate.shut()
                sink.postError("\(shown) closed the connection")
            default: break
            }
        }
        hold(connectionState)
        hold(
            feed.pad(named: "src")?.addProbe(.eventUpstream) { info in
                if info.event?.name == "GstForceKeyUnit" { sink.send(.forceKeyUnitUpstream()) }
                return .ok
            })
    }

    /// Keeps a handler to disconnect on `close()`.
    private func hold(_ connection: SignalConnection?) {
        guard let connection else { return }
        hooks.withLock { $0.connections.append(connection) }
    }

    /// Keeps a probe to remove on `close()`.
    private func hold(_ probe: PadProbe?) {
        guard let probe else { return }
        hooks.withLock { $0.probes.append(probe) }
    }

    /// Takes each encoded frame as it reaches `sink` (and the end of stream), for the appsrc: the
    /// first (a key frame) brings webrtcbin its caps, and the offer; webrtcbin holds it until the
    /// connection is up, and the gate holds the run's next frames until then.
    private func take(from sink: Element) {
        guard let input = sink.pad(named: "sink") else { return }
        let (shared, feed, gate, shown, pipeline) = (shared, feed, gate, client.shown, pipeline)
        let limit = Int(gate.limit.components.seconds)
        // Said once: every frame after it finds the gate timed out too.
        let timedOut = OneShot()
        // On the run's streaming thread: false when the frame (or end of stream) must not go on.
        let connected: @Sendable () -> Bool = {
            switch gate.wait(flushing: input) {
            case .open: return true
            case .shut: return false
            case .timedOut:
                guard timedOut.fire() else { return false }
                sink.postError(
                    "the connection to \(shown) did not come up within \(limit) s (ICE or DTLS): is the server "
                        + "reachable over UDP (a firewall, or --stun/--turn for a server behind NAT)?")
                return false
            }
        }
        let probe = input.addProbe([.buffer, .eventDownstream]) { info in
            if let event = info.event {
                // Caps go with the next frame; the end of stream once what came before it went
                // (webrtcbin says BYE).
                if let caps = event.caps { shared.state.withLock { $0.caps = caps } }
                if event.typeName == "eos", !shared.state.withLock({ $0.started }) || connected() {
                    feed.endOfStream()
                }
                return .ok
            }
            guard let buffer = info.buffer else { return .ok }
            let (closed, started) = shared.state.withLock { ($0.closed, $0.started) }
            guard !closed else { return .ok }
            if !started {
                // An encoder starts with a key frame; a delta frame first (an encoder that was already
                // running) could not be decoded: ask for a key frame and wait for it.
                if buffer.isDeltaUnit {
                    sink.send(.forceKeyUnitUpstream())
                    return .ok
                }
            } else if !connected() {
                return .ok
            }
            let newCaps = shared.state.withLock { state -> Caps? in
                defer { (state.caps, state.started) = (nil, true) }
                return state.caps
            }
            if let newCaps { feed.caps = newCaps }
            // Stamped in this pipeline's time (`feedTime`). A copy (same memory): the buffer itself goes
            // on to the run's sink with its own times, which keep the run's pace.
            let own = buffer.copy()
            own.pts = shared.feedTime(of: buffer.pts, running: pipeline.currentRunningTime)
            own.dts = nil
            feed.push(own)
            return .ok
        }
        hold(probe)
    }

    /// End of stream has gone to the appsrc from the probe; nothing to wait for.
    func finish() {}

    /// DELETEs the session (WHIP's end) and stops the pipeline: after the run's pipeline has stopped.
    func close() {
        let first = shared.state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        gate.shut()
        let (session, trickle) = shared.state.withLock { ($0.session, $0.trickle) }
        trickle?.stop()
        if let session { client.close(session) }
        pipeline.setSyncHandler(nil)
        pipeline.stop()
        // After the stop: no streaming thread is in a probe or a handler any more.
        let (connections, probes) = hooks.withLock { hooks in
            defer { hooks = ([], []) }
            return hooks
        }
        connections.forEach { $0.disconnect() }
        probes.forEach { $0.remove() }
    }
}
