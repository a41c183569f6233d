import CGStreamer
import Foundation
import GStreamer
import GstPipeParsing
import GstPipeSupport
import GstPipeWebRTC

/// `whep+http://HOST:PORT/PATH` (or `whep+https://…`) as the description's first token: another
/// server's WHEP endpoint watched, with gstpipe as the client. The decoding source is a bin
/// (`element`) that stands where uridecodebin would: webrtcbin receiving only (VP8 or H.264 video,
/// Opus audio), a decodebin for each stream the server sends, and the decoded streams as the bin's
/// own pads, followed by no-more-pads once every stream the answer promised has come, just as the
/// file job expects of uridecodebin (`DecodedPads`, `FileJobRun`).
///
/// The offer is made and POSTed before the pipeline plays (`start`), so that a server nothing
/// answers at, or a token refused, fails the run at once; the candidates gathered after it follow by
/// PATCH (`ClientTrickle`), and the session's resource is DELETEd as the run ends (`close`). The
/// server ending the session (RTCP BYE) or the connection lost is end of stream: the outputs are
/// finished and gstpipe exits 0. Silence is `--timeout`'s, as for any live input.
final class WHEPSource: InputSession {
    /// The bin the file job links from, named as its uridecodebin would be.
    let element: Element
    private let bin: Bin
    private let webrtcbin: Element
    private let client: WHIPClient
    private let shared = Shared()

    /// The state, in a box the streaming threads' handlers can hold.
    private final class Shared: Sendable {
        let state = Locked(State())
    }

    private struct State {
        var session: WHIPClient.Session?
        /// The candidates that follow the offer, until the run ends.
        var trickle: ClientTrickle?
        /// The streams the server's answer sends, and those decoded and exposed so far.
        var expected = 1
        var exposed = 0
        /// Data waits on each exposed stream until every stream has come (no-more-pads): the audio
        /// branch links to its muxer only then.
        var blocks: [PadProbe?] = []
        var complete = false
        var ended = false
    }

    /// What the offer receives: video as VP8 or H.264 (constrained baseline, as every WebRTC sender
    /// has it), audio as Opus.
    static let receivers = [
        "application/x-rtp,media=video,encoding-name=VP8,payload=96,clock-rate=90000;"
            + "application/x-rtp,media=video,encoding-name=H264,payload=102,clock-rate=90000,"
            + "packetization-mode=(string)1,profile-level-id=(string)42e01f",
        "application/x-rtp,media=audio,encoding-name=OPUS,payload=111,clock-rate=48000,encoding-params=(string)2"
    ]

    /// The source for `uri`, added to `parent` (the bin the description's first element is in).
    init(uri: String, in parent: Bin) throws(GStreamerError) {
        do {
            client = try WHIPClient(uri: uri, role: .whep)
        } catch {
            // FileJob read the address before: this does not happen.
            throw GStreamerError(kind: .invalidArgument, message: "cannot read \(Secrets.redact(uri))")
        }
        bin = try Bin(name: "gstpipe-input")
        element = bin
        webrtcbin = try ElementSpec("webrtcbin", [("bundle-policy", .text("max-bundle"))])
            .make(named: "gstpipe-whep", in: bin)
        try parent.add(bin)
        // webrtcbin holds sinks (nicesink sends RTCP and DTLS) that never see end of stream: as a sink
        // the bin would hold the pipeline's end-of-stream message back forever.
        bin.withUnsafePointer { $0.pointee.object.flags &= ~GST_ELEMENT_FLAG_SINK.rawValue }
        let negotiation = WebRTCNegotiation(webrtcbin: webrtcbin)
        for caps in Self.receivers where !negotiation.addReceiver(caps) {
            throw GStreamerError(kind: .core, message: "webrtcbin refused to receive \(caps)")
        }
        // Receiver reports every second, as browsers send them, not RTP's 5 s minimum (randomized up
        // to 7.5 s): a server that takes a viewer silent for some seconds as gone (gstpipe's own
        // webrtc:// does, after 5 s) keeps this one.
        _ = try? webrtcbin.connect("deep-element-added") { arguments in
            guard case .element(let added)? = arguments.last, added.factoryName == "rtpsession" else { return }
            try? added.set("rtcp-min-interval", fromString: "1000000000")
        }
        // The handler holds the bin and the state, not the source: webrtcbin holds the handler.
        let (bin, shared) = (bin, shared)
        webrtcbin.onPadAdded { pad in Self.decode(pad, in: bin, shared: shared) }
    }

    /// Offers, POSTs the offer and sets the answer, with webrtcbin in READY (the pipeline has not
    /// played yet: webrtcbin negotiates from READY on, and the run's state change takes it on).
    func start(settings: StreamSettings, note: @escaping @Sendable (String) -> Void) async throws(FileJob.Failure) {
        _ = try? webrtcbin.setState(.ready)
        do {
            try settings.ice.configure(webrtcbin)
        } catch {
            throw .runtime("cannot watch \(client.shown): webrtcbin refused the ICE servers: \(error.message)")
        }
        let negotiation = WebRTCNegotiation(webrtcbin: webrtcbin)
        let trickle = ClientTrickle(webrtcbin: webrtcbin)
        shared.state.withLock { $0.trickle = trickle }
        let offer: String
        do {
            offer = try await negotiation.gatheredOffer(
                addresses: WHIPPublisher.loopback(for: client.endpoint), waiting: ClientTrickle.headStart)
        } catch {
            throw .runtime("cannot watch \(client.shown): webrtcbin made no offer: \(error.reason)")
        }
        let session = try await client.open(offer: offer)
        let kinds = Self.sentMedia(in: session.answer)
        guard !kinds.isEmpty else {
            client.close(session)
            throw .runtime("\(client.shown) answered with nothing to send (no video or audio it sends)")
        }
        do {
            try await negotiation.setRemoteAnswer(session.answer)
        } catch {
            client.close(session)
            throw .runtime("\(client.shown) answered, but webrtcbin refused its answer: \(error.reason)")
        }
        shared.state.withLock { state in
            state.session = session
            state.expected = kinds.count
        }
        Task { [client] in await client.trickle(trickle, after: offer, to: session, note: note) }
        watchEnd(note: note)
        note("watching \(client.shown): the server sends \(kinds.joined(separator: " and "))")
    }

    /// The media sections of an answer that send to gstpipe ("video", "audio"): not rejected (port
    /// 0) and not receiving only or inactive.
    static func sentMedia(in answer: String) -> [String] {
        var sections: [[Substring]] = []
        for line in answer.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("m=") { sections.append([]) }
            if !sections.isEmpty { sections[sections.count - 1].append(line) }
        }
        return sections.compactMap { section in
            let media = section[0].dropFirst(2).split(separator: " ")
            guard media.count > 1, media[1] != "0" || section.contains("a=bundle-only"),
                !section.contains("a=recvonly"), !section.contains("a=inactive")
            else { return nil }
            return String(media[0])
        }
    }

    /// A stream webrtcbin receives: decoded by a decodebin of its own, whose decoded pad the bin
    /// exposes (`expose`).
    private static func decode(_ pad: Pad, in bin: Bin, shared: Shared) {
        guard let decoder = try? ElementSpec("decodebin").make(in: bin), let input = decoder.pad(named: "sink") else {
            bin.postError("cannot decode a stream from the WHEP server: no decodebin")
            return
        }
        decoder.onPadAdded { decoded in expose(decoded, in: bin, shared: shared) }
        _ = try? decoder.syncStateWithParent()
        if (try? pad.link(to: input)) == nil {
            bin.postError("cannot decode a stream from the WHEP server: its pad does not link to decodebin")
        }
    }

    /// Exposes a decoded stream as a pad of the bin, its data held until every stream has come;
    /// with the last, no-more-pads, then the data flows.
    private static func expose(_ decoded: Pad, in bin: Bin, shared: Shared) {
        let block = decoded.addProbe(.blockDownstream) { _ in .ok }
        let number = shared.state.withLock { state -> Int in
            state.blocks.append(block)
            state.exposed += 1
            return state.exposed
        }
        do {
            try bin.addGhostPad(named: "src_\(number - 1)", target: decoded)
        } catch {
            bin.postError("cannot expose a decoded stream of the WHEP server: \(error.message)")
        }
        if shared.state.withLock({ $0.exposed >= $0.expected }) {
            complete(bin, shared: shared)
        } else if number == 1 {
            // A stream the answer promised may never come: the others do not wait for it forever.
            Task {
                try? await Task.sleep(for: .seconds(3))
                complete(bin, shared: shared)
            }
        }
    }

    /// Once: no-more-pads (the file job decides the audio branches in its handler), then the held
    /// data flows.
    private static func complete(_ bin: Bin, shared: Shared) {
        guard
            let blocks = shared.state.withLock({ state -> [PadProbe?]? in
                guard !state.complete else { return nil }
                state.complete = true
                defer { state.blocks.removeAll() }
                return state.blocks
            })
        else { return }
        bin.withUnsafePointer { gst_element_no_more_pads($0) }
        blocks.forEach { $0?.remove() }
    }

    /// The server ending its streams (RTCP BYE) or the connection is end of stream for the outputs;
    /// a connection that fails before any stream came is an error.
    private func watchEnd(note: @escaping @Sendable (String) -> Void) {
        let (bin, shared, shown) = (bin, shared, client.shown)
        let end: @Sendable (String) -> Void = { reason in
            let (first, exposed) = shared.state.withLock { state -> (Bool, Int) in
                defer { state.ended = true }
                return (!state.ended, state.exposed)
            }
            guard first else { return }
            guard exposed > 0 else {
                bin.postError("\(shown): \(reason) before any stream came")
                return
            }
            note("\(shown): \(reason): ending the stream")
            // From a thread of its own: the signal comes on rtpbin's RTCP thread, under its session's
            // lock, and sending end of stream waits for each stream to let go of its pad.
            Thread {
                Self.complete(bin, shared: shared)
                for pad in bin.sourcePads { _ = pad.peer?.sendEndOfStream() }
            }.start()
        }
        _ = try? webrtcbin.onNotify("connection-state") { value in
            switch value.stringValue {
            case "failed": end("the connection failed")
            case "closed": end("the server closed the connection")
            default: break
            }
        }
        if let rtpbin = (webrtcbin as? Bin)?.allElements.first(where: { $0.factoryName == "rtpbin" }) {
            _ = try? rtpbin.connect("on-bye-ssrc") { _ in end("the server ended the session") }
        }
    }

    func finish() {}

    /// Stops the trickle and DELETEs the session, as WHEP asks: after the pipeline has stopped.
    func close() {
        let (session, trickle) = shared.state.withLock { state in
            defer { (state.session, state.trickle) = (nil, nil) }
            return (state.session, state.trickle)
        }
        trickle?.stop()
        guard let session else { return }
        client.close(session)
    }

    /// Refuses an empty `token=` (the other options belong to the endpoint).
    static func checkOptions(_ options: [(name: String, value: String)], in token: String) throws(FileJob.Failure) {
        if options.contains(where: { $0.name == "token" && $0.value.isEmpty }) {
            throw .usage("\(Secrets.redact(token)): token= is empty: give the bearer token, or leave the option out")
        }
    }
}

/// A live input that needs a session beside the pipeline (`StreamInput.makeSource`): started before
/// the pipeline plays, closed after it stops, as a stream output's server is (`StreamRun`).
protocol InputSession: StreamServer {
    /// The element the file job links from in place of uridecodebin: it adds a pad for each decoded
    /// stream, then no-more-pads.
    var element: Element { get }

    /// Opens the session with the command line's stream settings (its STUN and TURN servers);
    /// throws saying why it cannot be.
    func start(settings: StreamSettings, note: @escaping @Sendable (String) -> Void) async throws(FileJob.Failure)
}
