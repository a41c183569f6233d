import Foundation
import GStreamer
import GstPipeParsing
import GstPipeSupport
import Synchronization

/// The publishers behind a `BrowserPublisher`'s WHIP endpoint: one at a time, each a
/// `WebRTCPublisher` (webrtcbin and its decoders in a pipeline of its own) whose decoded samples go
/// into the appsrcs of the sinks' pipeline. A publisher that leaves (DELETE, or its connection lost),
/// never connects (`ServerLimits.publisherConnect`) or, connected, sends no media for
/// `ServerLimits.publisherSilence` frees the place for the next; the sinks go on.
final class BrowserPublisherSessions: PublisherSessions {
    let ice: ICESettings
    /// The publishers' data channels.
    let channels = BrowserChannels()
    /// The sinks' pipeline until `close()`, which lets it (and with it the user's sinks) go.
    private let pipeline: Locked<Pipeline?>
    private let note: @Sendable (String) -> Void
    private let state = Locked(State())
    /// Where publishers' pipelines are stopped: stopping waits for webrtcbin to shut down, which
    /// must block neither a streaming thread nor Swift's cooperative pool.
    private let teardown = DispatchQueue(label: "gstpipe.browser.publisher")

    private struct State {
        var publisher: WebRTCPublisher?
        var taken = false
        var closed = false
        var caps: [WebRTCPublisher.Kind: Caps] = [:]
        var frames = 0
        /// When the publisher in place last gave a decoded sample, of either kind.
        var lastMedia: ContinuousClock.Instant?
    }

    init(pipeline: Pipeline, ice: ICESettings, note: @escaping @Sendable (String) -> Void) {
        self.pipeline = Locked(pipeline)
        self.ice = ice
        self.note = note
    }

    var framesReceived: Int { state.withLock { $0.frames } }

    func publish(_ offer: PublisherOffer) async -> Result<(session: String, answer: String), PublishFailure> {
        let refusal: PublishFailure? = state.withLock { state in
            guard !state.closed else { return .ended }
            guard !state.taken else { return .busy }
            state.taken = true
            state.lastMedia = nil
            return nil
        }
        if let refusal { return .failure(refusal) }
        switch await WebRTCPublisher.answering(
            offer, ice: ice, teardown: teardown, channels: channels,
            deliver: {
                [weak self] in
                self?.take($1, of: $0)
            })
        {
        case .failure(let failure):
            state.withLock { $0.taken = false }
            return .failure(failure)
        case .success(let (publisher, answer)):
            // close() may have come while the answer was made: it found no publisher to end.
            let kept = state.withLock { state in
                guard !state.closed else { return false }
                state.publisher = publisher
                return true
            }
            guard kept else {
                channels.detach(publisher.id)
                teardown.async { publisher.close() }
                return .failure(.ended)
            }
            publisher.onEnd { [weak self] reason in self?.end(publisher.id, because: reason) }
            let limit = ServerLimits.current.publisherConnect
            publisher.onNoConnection(within: limit) { [weak self] in
                self?.end(publisher.id, because: "it did not connect within \(limit.components.seconds) s")
            }
            let silence = ServerLimits.current.publisherSilence
            Task { [weak self] in await self?.watchSilence(of: publisher, limit: silence) }
            note("a publisher came, sending \(offer.sent.joined(separator: " and "))")
            return .success((publisher.id, answer))
        }
    }

    func leave(_ id: String) -> Bool {
        end(id, because: "it left")
    }

    func negotiation(of id: String) -> WebRTCNegotiation? {
        let publisher = state.withLock { $0.publisher?.id == id ? $0.publisher : nil }
        return publisher.map { WebRTCNegotiation(webrtcbin: $0.webrtcbin) }
    }

    /// Ends the publisher `id` if it is the one publishing; true when it was.
    @discardableResult
    private func end(_ id: String, because reason: String) -> Bool {
        let publisher = state.withLock { state -> WebRTCPublisher? in
            guard let publisher = state.publisher, publisher.id == id else { return nil }
            state.publisher = nil
            state.taken = false
            return publisher
        }
        guard let publisher else { return false }
        channels.detach(id)
        note("the publisher left: \(reason)")
        teardown.async { publisher.close() }
        return true
    }

    /// Every quarter second (at most) while `publisher` is the one in place: once it has connected, no
    /// sample for `limit` since its connection or its last sample ends it. Not connecting is
    /// `ServerLimits.publisherConnect`'s business.
    private func watchSilence(of publisher: WebRTCPublisher, limit: Duration) async {
        var connectedAt: ContinuousClock.Instant?
        while !Task.isCancelled {
            try? await Task.sleep(for: min(limit / 4, .milliseconds(250)))
            let (current, lastMedia) = state.withLock { ($0.publisher === publisher, $0.lastMedia) }
            guard current else { return }
            let now = ContinuousClock.now
            if connectedAt == nil && publisher.isConnected { connectedAt = now }
            guard let connectedAt else { continue }
            if now - max(connectedAt, lastMedia ?? connectedAt) >= limit {
                end(publisher.id, because: "it sent no media for \(ServerLimits.seconds(limit))")
                return
            }
        }
    }

    /// One decoded sample of the publisher's, into its kind's appsrc (new caps first when they changed);
    /// a kind with no sink is left out.
    private func take(_ sample: Sample, of kind: WebRTCPublisher.Kind) {
        guard let buffer = sample.buffer, let element = pipeline.withLock({ $0 })?.element(named: kind.rawValue),
            let source = try? AppSrc(element)
        else { return }
        let newCaps = state.withLock { state -> Caps? in
            if kind == .video { state.frames += 1 }
            state.lastMedia = .now
            guard let caps = sample.caps, state.caps[kind].map({ $0 != caps }) ?? true else { return nil }
            state.caps[kind] = caps
            return caps
        }
        if let newCaps { source.caps = newCaps }
        // A buffer of its own over the same memory, stamped by the appsrc as it arrives.
        let own = buffer.withTimestamps(pts: nil, duration: buffer.duration)
        own.dts = nil
        _ = source.push(own)
    }

    /// Ends the publisher and stops the sinks' pipeline.
    func close() {
        let publisher = state.withLock { state in
            state.closed = true
            defer { state.publisher = nil }
            return state.publisher
        }
        publisher?.close()
        channels.finish()
        teardown.sync {}
        let pipeline = pipeline.withLock { pipeline in
            defer { pipeline = nil }
            return pipeline
        }
        pipeline?.stop()
    }
}
