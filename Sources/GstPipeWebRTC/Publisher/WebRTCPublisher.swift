import Foundation
import GStreamer
import GStreamerWebRTC
import GstPipeParsing

/// The publisher of a `webrtc://` input (a browser sending its camera and microphone by WHIP): a
/// pipeline of its own, `webrtcbin`, each of whose streams is decoded (`decodebin`) into an appsink
/// whose samples go to `deliver`. A pipeline apart, not a branch of the run's (see the CLI's `WebRTCInput`):
/// webrtcbin and its decoders come with the publisher, after the run's pipeline has started, and an
/// error of theirs (DTLS refused, ICE failed) ends the publisher, which ends the stream cleanly,
/// rather than failing the run with the file unfinished.
package final class WebRTCPublisher: Sendable {
    /// What a decoded stream of the publisher's carries.
    package enum Kind: String, Sendable {
        case video, audio
    }

    /// The session's id, the last part of its WHIP resource's URL.
    package let id: String
    private let pipeline: Pipeline
    /// The publisher's webrtcbin, for its data channel (`BrowserChannels`).
    package let webrtcbin: Element

    /// Builds the publisher's pipeline and starts it; `deliver` gets each decoded sample with its
    /// kind, on the streaming thread of that stream.
    package init(id: String, deliver: @escaping @Sendable (Kind, Sample) -> Void) throws(GStreamerError) {
        self.id = id
        pipeline = try Pipeline(launch: "webrtcbin name=peer bundle-policy=max-bundle")
        guard let webrtcbin = pipeline.element(named: "peer") else {
            throw GStreamerError(kind: .core, message: "the publisher's pipeline has no webrtcbin")
        }
        self.webrtcbin = webrtcbin
        // The handlers hold the pipeline weakly: it holds them.
        webrtcbin.onPadAdded { [weak pipeline] pad in
            guard let pipeline, pad.direction == .source else { return }
            Self.decode(pad, in: pipeline, deliver: deliver)
        }
        try pipeline.play()
    }

    /// An RTP stream of the publisher's (webrtcbin has depayloaded nothing yet): a decodebin
    /// (which plugs the depayloader and the decoder its caps ask for), each of whose raw streams
    /// goes into an appsink.
    private static func decode(
        _ pad: Pad, in pipeline: Pipeline, deliver: @escaping @Sendable (Kind, Sample) -> Void
    ) {
        guard let decoder = try? Element(factory: "decodebin"), (try? pipeline.add(decoder)) != nil else { return }
        decoder.onPadAdded { [weak pipeline] decoded in
            guard let pipeline, let type = (decoded.currentCaps ?? decoded.queryCaps()).mediaType,
                let kind: Kind = type.hasPrefix("video/") ? .video : type.hasPrefix("audio/") ? .audio : nil,
                let sink = try? Element(factory: "appsink")
            else { return }
            // Not synchronized: the samples are handed on at once, and the run's pipeline times them.
            try? sink.set("sync", false)
            try? sink.set("emit-signals", true)
            _ = try? sink.connectReturning("new-sample") { [sink] _ in
                guard let sample = try? sink.emit("pull-sample").sample else { return .enumeration(-3, nick: "eos") }
                deliver(kind, sample)
                return .enumeration(0, nick: "ok")
            }
            guard (try? pipeline.add(sink)) != nil, let input = sink.pad(named: "sink") else { return }
            try? sink.syncStateWithParent()
            _ = try? decoded.link(to: input)
        }
        try? decoder.syncStateWithParent()
        if let input = decoder.pad(named: "sink") { _ = try? pad.link(to: input) }
    }

    /// A new publisher answering `offer` with `ice`: its pipeline running and its SDP answer, or why
    /// it could not be (its pipeline is then stopped on `teardown`). `deliver` is as for `init`; the
    /// data channel the publisher opens goes to `channels`, when given.
    package static func answering(
        _ offer: PublisherOffer, ice: ICESettings, teardown: DispatchQueue, channels: BrowserChannels? = nil,
        deliver: @escaping @Sendable (Kind, Sample) -> Void
    ) async -> Result<(publisher: WebRTCPublisher, answer: String), PublishFailure> {
        let publisher: WebRTCPublisher
        do {
            publisher = try WebRTCPublisher(id: UUID().uuidString.lowercased(), deliver: deliver)
        } catch {
            return .failure(.failed("cannot take the publisher: \(error.message)"))
        }
        channels?.attach(to: publisher.webrtcbin, peer: publisher.id)
        do {
            return .success((publisher, try await publisher.answer(offer, ice: ice)))
        } catch {
            teardown.async { publisher.close() }
            return .failure(.failed("webrtcbin refused the offer: \(error.reason)"))
        }
    }

    /// Answers the publisher's offer, with every candidate gathered (on each of `ice`'s local
    /// addresses too, which libnice would leave out if they are loopback).
    package func answer(_ offer: PublisherOffer, ice: ICESettings) async throws(WebRTCNegotiation.Failure) -> String {
        try await WebRTCNegotiation(webrtcbin: webrtcbin).answer(offer.sdp, ice: ice)
    }

    /// Calls `handler` once, on a GStreamer thread, when the publisher's connection failed or closed
    /// (ICE lost, DTLS refused, the browser gone), or its pipeline failed. `reason` says which.
    package func onEnd(_ handler: @escaping @Sendable (_ reason: String) -> Void) {
        WebRTCNegotiation(webrtcbin: webrtcbin).onEnd(of: pipeline, handler)
    }

    /// Calls `handler` once, after `limit`, when the publisher's connection (ICE and DTLS) is not up
    /// then: it never connected (it only POSTed, or vanished before connecting), or it has lost its
    /// connection. The publisher holds the only place, which the handler gives up.
    package func onNoConnection(within limit: Duration, _ handler: @escaping @Sendable () -> Void) {
        Task { [weak self] in
            try? await Task.sleep(for: limit)
            guard let self, (try? WebRTCBin(webrtcbin))?.connectionState != .connected else { return }
            handler()
        }
    }

    /// True while the publisher's connection (ICE and DTLS) is up.
    package var isConnected: Bool { (try? WebRTCBin(webrtcbin))?.connectionState == .connected }

    /// Stops the publisher's pipeline, closing its connection. Blocks while webrtcbin shuts down:
    /// call it off Swift's cooperative pool.
    package func close() {
        pipeline.setSyncHandler(nil)
        pipeline.stop()
    }
}
