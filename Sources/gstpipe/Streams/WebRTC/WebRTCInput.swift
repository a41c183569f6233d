import CGStreamer
import Foundation
import GStreamer
import GstPipeParsing
import GstPipeSupport
import GstPipeWebRTC
import Synchronization

/// `webrtc://HOST:PORT/PATH` as a description's first token: a browser publishes its camera and
/// microphone into the run by WHIP (`WHIPEndpoints`, the page `PublisherPage`), one publisher at a
/// time, and its leaving is the stream's end.
///
/// In the run's pipeline it is a bin with the pads uridecodebin would have for a file with video
/// and audio (`bin`, which `FileJobElements` links as it links uridecodebin: pad-added, then
/// no-more-pads), behind each pad an appsrc fed the publisher's decoded samples (`addPads`). The
/// publisher itself (`WebRTCPublisher`: webrtcbin and its decoders) runs in a pipeline of its own,
/// chosen over a bin of webrtcbin inside the run's pipeline because:
///
/// - it comes after the run's pipeline has started, and goes with the publisher: a pipeline of its
///   own starts and stops without a state change of the run's, and its errors (DTLS refused, ICE
///   lost) end the publisher and so the stream cleanly, rather than failing the run;
/// - its timestamps are its own clock's; the appsrcs restamp each sample from the publisher's first
///   frame, so that the recording starts at zero (matroskamux would keep the seconds spent waiting
///   for a publisher as a gap at the start). The appsrcs are not live for the same reason: a sink
///   that syncs (a preview) prerolls on the first frame and the clock starts there, not at the run's
///   start.
final class WebRTCInput: InputSession, PublisherSessions {
    /// How the first token names the input; read as an output's address is (`StreamAddress`).
    static let scheme = OutputScheme(
        naming: .uri(["webrtc"]), help: "webrtc://HOST:PORT/PATH (a page and WHIP for a browser to publish)",
        example: "webrtc://0.0.0.0:8891/in (or webrtc://:8891/in)", isServer: true, defaultPort: 8891,
        needsHost: false, needsPath: true, options: .checked(checkOptions))

    /// A `webrtc://` input takes one option: the token a publisher must send (`token=SECRET`,
    /// `BearerToken`), hidden in every message.
    private static func checkOptions(_ options: [(name: String, value: String)], in token: String) throws(FileJob
        .Failure)
    {
        if let other = options.first(where: { $0.name != "token" }) {
            throw .usage("\(Secrets.redact(token)): a webrtc:// input takes one option, token, not \(other.name)")
        }
        if let empty = BearerToken.emptiness(options.last(where: { $0.name == "token" })?.value) {
            throw .usage("\(Secrets.redact(token)): \(empty)")
        }
    }

    /// A publisher that sends nothing for this long has gone (a closed tab says nothing: see
    /// `WebRTCViewer.silence`); a stream the offer promised that gives nothing for this long after the
    /// first frame is ended alone (the recording goes on without it).
    static let silenceLimit: Duration = .seconds(5)

    let address: StreamAddress
    /// What stands in the run's pipeline where uridecodebin stands for a file.
    let bin: Bin

    /// The bin the file job links from in uridecodebin's place.
    var element: Element { bin }
    /// The STUN and TURN servers (`--stun`, `--turn`, `--public-ip`) and the local addresses each
    /// publisher's ICE agent offers, and the page's peer connection uses; set by `start`.
    var ice: ICESettings { iceSettings.withLock { $0 } }
    private let iceSettings = Locked(ICESettings())
    /// What the description works on: the publisher's first sample of it starts the recording.
    private let media: MediaKind
    private let noteHandler = Locked<@Sendable (String) -> Void>({ _ in })
    private let state = Locked(State())
    private let http = Locked<SignallingServer?>(nil)
    private let watchdog = Locked<Task<Void, Never>?>(nil)
    /// Where the publisher's pipeline is stopped: stopping waits for webrtcbin to shut down, which
    /// must block neither a streaming thread nor Swift's cooperative pool.
    private let teardown = DispatchQueue(label: "gstpipe.webrtc.publisher")

    private struct State {
        /// Set from the moment a publisher's offer is taken: another is then refused.
        var taken = false
        var publisher: WebRTCPublisher?
        var feeds: [MediaKind: Feed] = [:]
        /// The publisher's time of its first sample of `media`: time zero of the recording.
        var base: ClockTime?
        var firstSample: ContinuousClock.Instant?
        var lastSample: ContinuousClock.Instant?
        var ended = false
    }

    /// One pad of `bin`: the appsrc behind it, the caps it was last given, the samples pushed.
    private struct Feed {
        let source: AppSrc
        var caps: Caps?
        var samples = 0
        var ended = false
    }

    /// Makes the input's bin in `parent` (the pipeline, or the `( ... )` bin of the junction).
    init(uri: String, media: MediaKind, in parent: Bin) throws(GStreamerError) {
        do {
            address = try StreamAddress.parse(uri, as: Self.scheme)
        } catch {
            throw GStreamerError(kind: .invalidArgument, message: "cannot read \(uri) as a webrtc:// input")
        }
        self.media = media
        bin = try Bin(name: "gstpipe-input")
        try parent.add(bin)
    }

    /// The publisher page's URL for `uri` (a `webrtc://` input), for messages.
    static func pageURL(of uri: String) -> String {
        (try? StreamAddress.parse(uri, as: scheme)).map(SignallingServer.pageURL(of:)) ?? uri
    }

    /// Listens, says where to publish, and watches the publisher for silence; `note` says what
    /// the publisher does.
    func start(settings: StreamSettings, note: @escaping @Sendable (String) -> Void) async throws(FileJob.Failure) {
        noteHandler.withLock { $0 = note }
        var ice = settings.ice
        ice.localAddresses = SignallingServer.iceAddresses(for: address.host)
        iceSettings.withLock { [ice] in $0 = ice }
        let server = try await SignallingServer.start(
            address: address,
            router: WHIPEndpoints(path: address.path, input: self, token: BearerToken(address: address)).router())
        http.withLock { $0 = server }
        let page = BearerToken(address: address) == nil ? server.pageURL : server.pageURL + "#token=***"
        note(
            "waiting for a publisher at \(Secrets.redact(address.uri)): open \(page) in a browser to send its "
                + "camera and microphone (WHIP endpoint \(server.pageURL)/whip)")
        watchdog.withLock { $0 = Task { [weak self] in await self?.watchSilence() } }
    }

    /// A publisher's offer: answered by a new `WebRTCPublisher` when no other has come.
    func publish(_ offer: PublisherOffer) async -> Result<(session: String, answer: String), PublishFailure> {
        let refusal = state.withLock { state -> PublishFailure? in
            if state.ended { return .ended }
            if state.taken { return .busy }
            state.taken = true
            return nil
        }
        if let refusal { return .failure(refusal) }
        let made = await WebRTCPublisher.answering(offer, ice: ice, teardown: teardown) { [weak self] kind, sample in
            self?.take(sample, of: kind == .video ? .video : .audio)
        }
        guard case .success(let (publisher, answer)) = made else {
            state.withLock { $0.taken = false }
            return made.map { (session: $0.publisher.id, answer: $0.answer) }
        }
        addPads(for: offer)
        state.withLock { $0.publisher = publisher }
        // Only the publisher in place ends the stream: one dropped for not connecting closes after.
        let id = publisher.id
        publisher.onEnd { [weak self] reason in
            guard let self, state.withLock({ $0.publisher?.id == id }) else { return }
            end(reason)
        }
        let limit = ServerLimits.current.publisherConnect
        publisher.onNoConnection(within: limit) { [weak self] in
            self?.drop(publisher, because: "it did not connect within \(limit.components.seconds) s")
        }
        let silence = ServerLimits.current.publisherSilence
        Task { [weak self] in await self?.watchFirstSample(of: publisher, limit: silence) }
        let sent = offer.sent.joined(separator: " and ")
        note("a publisher came, sending \(sent)")
        return .success((publisher.id, answer))
    }

    /// Ends the publisher with session `id` (its DELETE); false when it is not the one publishing.
    func leave(_ id: String) -> Bool {
        let current = state.withLock { !$0.ended && $0.publisher?.id == id }
        if current { end("it left") }
        return current
    }

    func negotiation(of id: String) -> WebRTCNegotiation? {
        let publisher = state.withLock { !$0.ended && $0.publisher?.id == id ? $0.publisher : nil }
        return publisher.map { WebRTCNegotiation(webrtcbin: $0.webrtcbin) }
    }

    /// The bin's pads, once: an appsrc for each kind of media the offer sends, then a capsfilter of
    /// the kind's raw caps behind a ghost pad, which the file job links as it appears (the decoded
    /// video into the description, the audio into the output's audio branch) by the caps it asks of
    /// the pad; then no-more-pads, after which the file job has decided which branches it keeps. A
    /// pad nothing took is removed, so that its appsrc fails on nothing. The caps are the
    /// capsfilter's, not the appsrc's: appsrc queues the caps it is given for its streaming thread
    /// to send, and caps without a format would go downstream at an end of stream before any sample.
    private func addPads(for offer: PublisherOffer) {
        guard state.withLock({ $0.feeds.isEmpty }) else { return }
        var feeds: [MediaKind: Feed] = [:]
        var pads: [(MediaKind, Pad, [Element])] = []
        for kind in [media, media == .video ? .audio : .video] where offer.sends(kind.rawValue) {
            guard let source = try? AppSrc(name: "gstpipe-webrtc-\(kind)"),
                let filter = try? ElementSpec("capsfilter", [("caps", .text("\(kind)/x-raw"))]).make(in: bin)
            else { continue }
            source.format = .time
            source.isLive = false
            // Bounded in time: a run slower than the publisher holds back its decoders, whose jitter
            // buffer then drops what comes too late, rather than growing without end.
            source.block = true
            source.maxBytes = 0
            source.maxTime = 2_000_000_000
            guard (try? bin.add(source)) != nil, (try? source.link(to: filter)) != nil,
                (try? source.syncStateWithParent()) != nil, (try? filter.syncStateWithParent()) != nil,
                let output = filter.pad(named: "src"),
                let ghost = try? bin.addGhostPad(named: "src_\(kind)", target: output)
            else { continue }
            feeds[kind] = Feed(source: source)
            pads.append((kind, ghost, [source, filter]))
        }
        bin.withUnsafePointer { gst_element_no_more_pads($0) }
        for (kind, pad, elements) in pads where !pad.isLinked {
            feeds[kind] = nil
            try? bin.removePad(pad)
            for element in elements {
                _ = try? element.setState(.null)
                try? bin.remove(element)
            }
        }
        state.withLock { $0.feeds = feeds }
    }

    /// One decoded sample of the publisher's, pushed into its kind's appsrc with its time counted
    /// from the first sample of `media`; what comes before that sample is left out.
    private func take(_ sample: Sample, of kind: MediaKind) {
        guard let buffer = sample.buffer, let pts = buffer.pts else { return }
        let caps = sample.caps
        let push = state.withLock { state -> (AppSrc, ClockTime, Caps?)? in
            guard !state.ended, var feed = state.feeds[kind], !feed.ended else { return nil }
            let now = ContinuousClock.now
            state.lastSample = now
            if state.base == nil {
                guard kind == media else { return nil }
                state.base = pts
                state.firstSample = now
            }
            guard let base = state.base, pts >= base else { return nil }
            let newCaps = caps.flatMap { caps in feed.caps.map { $0 != caps } ?? true ? caps : nil }
            if let newCaps { feed.caps = newCaps }
            feed.samples += 1
            state.feeds[kind] = feed
            return (feed.source, pts - base, newCaps)
        }
        guard let (source, time, newCaps) = push else { return }
        if let newCaps { source.caps = newCaps }
        // A buffer of its own over the same memory: the sample's is not writable.
        let own = buffer.withTimestamps(pts: time, duration: buffer.duration)
        own.dts = nil
        _ = source.push(own)
    }

    /// Every quarter second while the publisher is there: its silence ends the stream; a stream of
    /// its that never came is ended alone.
    private func watchSilence() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(250))
            let now = ContinuousClock.now
            let (silent, missing) = state.withLock { state -> (Bool, [(MediaKind, AppSrc)]) in
                guard !state.ended, let first = state.firstSample, let last = state.lastSample else {
                    return (false, [])
                }
                var missing: [(MediaKind, AppSrc)] = []
                let late = now - first >= Self.silenceLimit
                for (kind, feed) in state.feeds where late && feed.samples == 0 && !feed.ended {
                    state.feeds[kind]?.ended = true
                    missing.append((kind, feed.source))
                }
                return (now - last >= Self.silenceLimit, missing)
            }
            for (kind, source) in missing {
                note("the publisher sends no \(kind) that can be decoded: recording without it")
                _ = source.endOfStream()
            }
            if silent { end("it sent nothing for \(Self.silenceLimit.components.seconds) s") }
        }
    }

    /// Every quarter second (at most) until `publisher`'s first sample of the description's media: a
    /// publisher connected for `limit` without one is dropped, as one that never connects is. The
    /// silence watch (`watchSilence`) starts at the first sample, so without this a peer that only
    /// connects would keep the only place, and the run waiting, for ever.
    private func watchFirstSample(of publisher: WebRTCPublisher, limit: Duration) async {
        var connectedAt: ContinuousClock.Instant?
        while !Task.isCancelled {
            try? await Task.sleep(for: min(limit / 4, .milliseconds(250)))
            let waiting = state.withLock { !$0.ended && $0.publisher === publisher && $0.firstSample == nil }
            guard waiting else { return }
            let now = ContinuousClock.now
            if connectedAt == nil && publisher.isConnected { connectedAt = now }
            if let connectedAt, now - connectedAt >= limit {
                drop(publisher, because: "it sent no \(media) for \(ServerLimits.seconds(limit))")
                return
            }
        }
    }

    /// A publisher that did not connect, or sent nothing, in time: its place is given to the next, and
    /// the stream goes on waiting, unless it has sent something (then its leaving is the stream's end,
    /// as ever).
    private func drop(_ publisher: WebRTCPublisher, because reason: String) {
        let dropped = state.withLock { state -> Bool in
            guard !state.ended, state.publisher === publisher else { return false }
            guard state.firstSample == nil else { return false }
            state.publisher = nil
            state.taken = false
            return true
        }
        guard dropped else {
            if state.withLock({ $0.publisher === publisher }) { end(reason) }
            return
        }
        note("the publisher left: \(reason); waiting for another")
        teardown.async { publisher.close() }
    }

    /// The publisher has gone: end of stream into each pad, so that the outputs are finalized, and
    /// its pipeline is stopped.
    private func end(_ reason: String) {
        let ending = state.withLock { state -> (WebRTCPublisher?, [AppSrc])? in
            guard !state.ended else { return nil }
            state.ended = true
            return (state.publisher, state.feeds.values.filter { !$0.ended }.map(\.source))
        }
        guard let (publisher, sources) = ending else { return }
        note("the publisher left: \(reason); ending the stream")
        for source in sources { _ = source.endOfStream() }
        if let publisher { teardown.async { publisher.close() } }
    }

    private func note(_ text: String) {
        noteHandler.withLock { $0 }(text)
    }

    /// Nothing to wait for at end of stream.
    func finish() {}

    /// Stops listening and closes the publisher's connection: after the run's pipeline has stopped.
    func close() {
        watchdog.withLock { $0?.cancel() }
        http.withLock { $0?.close() }
        let publisher = state.withLock { state in
            state.ended = true
            return state.publisher
        }
        publisher?.close()
        teardown.sync {}
    }
}
