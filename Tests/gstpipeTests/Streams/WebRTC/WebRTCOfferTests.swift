import BrowserOffers
import Foundation
import GStreamer
import GstPipeParsing
import GstPipeWebRTC
import Testing

@testable import gstpipe

/// What a `webrtc://` output reads before webrtcbin sees anything: the URI, and a viewer's offer.
/// No network or browser: these run with the rest of the suite.
@Suite("WebRTC offers and URIs, read without a network")
struct WebRTCOfferTests {
    static let videoAndSound = WebRTCMedia(video: .vp8, audio: true)
    static let soundAlone = WebRTCMedia(video: nil, audio: true)

    static func refusal(_ text: String, codec: WebRTCCodec = .vp8) -> String? {
        refusal(text, sending: WebRTCMedia(video: codec, audio: false))
    }

    static func refusal(_ text: String, sending media: WebRTCMedia) -> String? {
        do {
            _ = try ViewerOffer(text, sending: media)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("A browser's offer: VP8's payload type, and for H.264 the constrained baseline one in mode 1")
    func payloadTypes() throws {
        let vp8 = WebRTCMedia(video: .vp8, audio: false)
        let h264 = WebRTCMedia(video: .h264, audio: false)
        #expect(try ViewerOffer(BrowserOffers.video(), sending: vp8).videoPayloadType == 96)
        #expect(try ViewerOffer(BrowserOffers.video(), sending: h264).videoPayloadType == 104)
        let baselineOnly = BrowserOffers.video().replacingOccurrences(
            of: "profile-level-id=42e01f", with: "profile-level-id=4d001f")
        #expect(try ViewerOffer(baselineOnly, sending: h264).videoPayloadType == 102)
        // No sound is sent: an offer's audio section is left alone.
        #expect(try ViewerOffer(BrowserOffers.videoWithAudio(), sending: vp8).audioPayloadType == nil)
    }

    @Test("Both codecs sent: the offer's first of them, H.264 in constrained baseline; none of them, 406's refusal")
    func codecChoice() throws {
        let both = WebRTCMedia(video: [.vp8, .h264], audio: false)
        let vp8First = try ViewerOffer(BrowserOffers.video(), sending: both)
        #expect(vp8First.videoCodec == .vp8 && vp8First.videoPayloadType == 96)
        // H.264 first, as setCodecPreferences or an older iOS Safari orders it: plain baseline (102) comes
        // before constrained baseline (104) in the line, and the constrained one is used.
        let h264First = BrowserOffers.video().replacingOccurrences(
            of: "SAVPF 96 97 102 103 104 105 98", with: "SAVPF 102 103 104 105 96 97 98")
        let chosen = try ViewerOffer(h264First, sending: both)
        #expect(chosen.videoCodec == .h264 && chosen.videoPayloadType == 104)
        // H.264 first only in modes or profiles the stream cannot play in (mode 0, high): VP8.
        let unplayableFirst = BrowserOffers.video().replacingOccurrences(
            of: "SAVPF 96 97 102 103 104 105 98", with: "SAVPF 103 105 96 97 102 104 98")
        #expect(try ViewerOffer(unplayableFirst, sending: both).videoCodec == .vp8)
        // Fixed to one codec (`?codec=`): that one, whatever the offer prefers.
        #expect(try ViewerOffer(h264First, sending: WebRTCMedia(video: .vp8, audio: false)).videoCodec == .vp8)
        let vp9Only = BrowserOffers.video().split(separator: "\r\n").filter {
            !$0.contains("VP8") && !$0.contains("H264")
        }
        .joined(separator: "\r\n")
        do {
            _ = try ViewerOffer(vp9Only, sending: both)
            Issue.record("an offer without VP8 or H.264 was taken")
        } catch {
            #expect(error.isUnacceptable)
            #expect(
                error.reason
                    == "the offer's video has no codec this server sends (it offers VP9, rtx; this server sends VP8 "
                    + "or constrained-baseline H.264 in packetization mode 1)")
        }
        #expect(
            WebRTCMedia(video: [.vp8, .h264], audio: true).announced == "VP8 or H264 (and Opus if the input has sound)")
    }

    @Test("Sound beside video: Opus's payload type when the offer receives audio, the video alone when it does not")
    func soundBesideVideo() throws {
        let both = try ViewerOffer(BrowserOffers.videoWithAudio(), sending: Self.videoAndSound)
        #expect(both.videoPayloadType == 96 && both.audioPayloadType == 111)
        let videoOnly = try ViewerOffer(BrowserOffers.video(), sending: Self.videoAndSound)
        #expect(videoOnly.videoPayloadType == 96 && videoOnly.audioPayloadType == nil)
        let sending = BrowserOffers.videoWithAudio(
            BrowserOffers.audioSection.replacingOccurrences(of: "a=recvonly", with: "a=sendonly"))
        #expect(try ViewerOffer(sending, sending: Self.videoAndSound).audioPayloadType == nil)
        let noOpus = BrowserOffers.videoWithAudio(
            BrowserOffers.audioSection.replacingOccurrences(of: "a=rtpmap:111 opus/48000/2", with: ""))
        #expect(try ViewerOffer(noOpus, sending: Self.videoAndSound).audioPayloadType == nil)
    }

    @Test("Sound alone: an offer must receive Opus; its video section, if any, is left alone")
    func soundAlone() throws {
        let audioOnly = try ViewerOffer(BrowserOffers.audioOnly, sending: Self.soundAlone)
        #expect(audioOnly.videoPayloadType == nil && audioOnly.audioPayloadType == 111)
        let both = try ViewerOffer(BrowserOffers.videoWithAudio(), sending: Self.soundAlone)
        #expect(both.videoPayloadType == nil && both.audioPayloadType == 111)
        #expect(
            Self.refusal(BrowserOffers.video(), sending: Self.soundAlone)?.hasPrefix(
                "the offer has no audio section (m=audio): this stream is sound alone") == true)
        let noOpus = BrowserOffers.audioOnly.replacingOccurrences(of: "a=rtpmap:111 opus/48000/2", with: "")
        #expect(
            Self.refusal(noOpus, sending: Self.soundAlone)
                == "the offer's audio has no Opus (it offers G722, PCMU, telephone-event)")
        let sending = BrowserOffers.audioOnly.replacingOccurrences(of: "a=recvonly", with: "a=sendonly")
        #expect(Self.refusal(sending, sending: Self.soundAlone)?.contains("audio does not receive") == true)
    }

    @Test("Offers that cannot work are refused with a reason the viewer's developer can act on")
    func refusals() {
        #expect(Self.refusal("hello") == "the offer is not a session description (SDP begins with v=0)")
        #expect(Self.refusal("") == "the offer is not a session description (SDP begins with v=0)")
        let audio = "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n"
        #expect(Self.refusal(audio)?.hasPrefix("the offer has no video section (m=video)") == true)
        #expect(Self.refusal(BrowserOffers.video(direction: "sendonly"))?.contains("does not receive") == true)
        #expect(
            Self.refusal(BrowserOffers.video(credentials: false))
                == "the offer has no ICE credentials (a=ice-ufrag and a=ice-pwd)")
        let noVP8 = BrowserOffers.video().replacingOccurrences(of: "a=rtpmap:96 VP8/90000", with: "")
        #expect(Self.refusal(noVP8) == "the offer's video has no VP8 (it offers H264, VP9, rtx)")
        let noH264 = BrowserOffers.video().split(separator: "\r\n").filter { !$0.contains("H264") }.joined(
            separator: "\r\n")
        let refusal = Self.refusal(noH264, codec: .h264)
        #expect(refusal?.hasSuffix("this server sends H.264, which this browser does not take") == true)
    }

    @Test("webrtcbin answers an offer of video and sound with both, sent from one media stream; sound alone alike")
    func answers() async throws {
        try GStreamer.initialize()
        for (media, offer) in [
            (Self.videoAndSound, BrowserOffers.videoWithAudio()), (Self.soundAlone, BrowserOffers.videoWithAudio())
        ] {
            let read = try ViewerOffer(offer, sending: media)
            let viewer = try WebRTCViewer(id: "test", number: 1, media: media, offer: read)
            let answer = try await viewer.answer(read, ice: ICESettings(localAddresses: ["127.0.0.1"]))
            viewer.close()
            let sections = WebRTCTests.sections(of: answer)
            let audio = sections["audio"] ?? [], video = sections["video"] ?? []
            #expect(audio.contains("a=sendonly") && audio.contains("a=rtpmap:111 OPUS/48000/2"), "\(answer)")
            func msid(_ section: [String]) -> Substring? {
                section.first { $0.hasPrefix("a=ssrc:") && $0.contains(" msid:") }?.split(separator: " ")[1]
            }
            #expect(msid(audio) != nil, "\(answer)")
            if !media.video.isEmpty {
                #expect(video.contains("a=sendonly") && video.contains("a=rtpmap:96 VP8/90000"), "\(answer)")
                #expect(msid(video) == msid(audio), "\(answer)")
            } else {
                // Sound alone: the offer's video section is answered, sending nothing.
                #expect(video.contains("a=inactive"), "\(answer)")
            }
        }
    }

    @Test("PATCH fragments: read or refused; a viewer takes trickled candidates; new credentials change nothing")
    func trickleAndRestart() async throws {
        let refusals = [
            ("a=candidate:1 1 udp 1 127.0.0.1 9 typ host\r\n", "no ICE credentials"),
            ("a=ice-ufrag:a\r\na=ice-pwd:b\r\na=candidate:1 1 udp\r\n", "is not an ICE candidate"),
            ("hello\r\n", "hello is not a line of an SDP fragment")
        ]
        for (text, reason) in refusals {
            #expect(throws: TrickleFragment.Refusal.self) { try TrickleFragment(text) }
            #expect(((try? TrickleFragment(text)) == nil), "\(reason)")
            do { _ = try TrickleFragment(text) } catch { #expect(error.reason.contains(reason), "\(error.reason)") }
        }
        try GStreamer.initialize()
        let media = WebRTCMedia(video: .vp8, audio: false)
        let read = try ViewerOffer(BrowserOffers.video(), sending: media)
        let viewer = try WebRTCViewer(id: "test", number: 1, media: media, offer: read)
        defer { viewer.close() }
        let ice = ICESettings(localAddresses: ["127.0.0.1"])
        let answer = try await viewer.answer(read, ice: ice)
        let negotiation = WebRTCNegotiation(webrtcbin: viewer.webrtcbin)
        let candidate = "a=candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host"
        let credentials = "a=ice-ufrag:Yq3v\r\na=ice-pwd:2c1r8m1Ly3p0bG0Y2wJ2n8Xb\r\n"
        let trickle = try TrickleFragment(credentials + "m=audio 9 RTP/AVP 0\r\na=mid:0\r\n\(candidate)\r\n")
        #expect(trickle.sections == [.init(mid: "0", candidates: [String(candidate.dropFirst(2))], ended: false)])
        guard case .trickled = WebRTCNegotiation.trickle(trickle, to: negotiation) else {
            Issue.record("candidates with the offer's credentials are trickled")
            return
        }
        // The remote description is the same offer: trickled candidates go to the agent, not into it.
        #expect(negotiation.remoteDescription?.contains("a=ice-ufrag:Yq3v") == true, "\(answer)")
        // New credentials (a restart) change nothing.
        let restart = try TrickleFragment(
            "a=ice-ufrag:N3wU\r\na=ice-pwd:n3wpassword0123456789xy\r\na=mid:0\r\n\(candidate)\r\n")
        guard case .restartRefused = WebRTCNegotiation.trickle(restart, to: negotiation) else {
            Issue.record("new credentials are an ICE restart")
            return
        }
        #expect(negotiation.remoteDescription?.contains("a=ice-ufrag:Yq3v") == true)
        #expect(WebRTCNegotiation.trickle(restart, to: nil).isNoSession)
    }

    @Test("Losses repaired: an offer with rtx, red and ulpfec is answered with them; one without, without")
    func lossRepair() async throws {
        try GStreamer.initialize()
        let media = WebRTCMedia(video: .vp8, audio: false)
        let fec = BrowserOffers.video()
            .replacingOccurrences(of: " 104 105 98\r\n", with: " 104 105 98 99 100\r\n")
            .replacingOccurrences(
                of: "a=rtpmap:98 VP9/90000\r\n",
                with: "a=rtpmap:98 VP9/90000\r\na=rtpmap:99 red/90000\r\na=rtpmap:100 ulpfec/90000\r\n")
        let bare = BrowserOffers.video()
            .replacingOccurrences(of: " 97 102", with: " 102")
            .replacingOccurrences(of: "a=rtpmap:97 rtx/90000\r\na=fmtp:97 apt=96\r\n", with: "")
        var answers: [String] = []
        for offer in [fec, bare] {
            let read = try ViewerOffer(offer, sending: media)
            let viewer = try WebRTCViewer(id: "test", number: 1, media: media, offer: read)
            answers.append(try await viewer.answer(read, ice: ICESettings(localAddresses: ["127.0.0.1"])))
            viewer.close()
        }
        let repaired = WebRTCTests.sections(of: answers[0])["video"] ?? []
        #expect(repaired.contains("a=rtpmap:97 rtx/90000") && repaired.contains("a=fmtp:97 apt=96"), "\(answers[0])")
        #expect(repaired.contains("a=rtpmap:99 red/90000"), "\(answers[0])")
        #expect(repaired.contains("a=rtpmap:100 ulpfec/90000"), "\(answers[0])")
        #expect(repaired.contains { $0.hasPrefix("a=rtcp-fb:96 nack") }, "\(answers[0])")
        let plain = WebRTCTests.sections(of: answers[1])["video"] ?? []
        let repairs = plain.filter { $0.contains("rtx/") || $0.contains("red/") || $0.contains("ulpfec/") }
        #expect(repairs.isEmpty, "\(answers[1])")
    }

    @Test("webrtc:// URIs: a path is needed, the port defaults to 8890, no host is every address, one option")
    func uris() throws {
        let plain = try #require(try StreamOutputs.output(named: "webrtc://127.0.0.1:8890/live") as? WebRTCOutput)
        let address = plain.address
        #expect(address.host == "127.0.0.1" && address.port == 8890 && address.path == "/live")
        // The ladder's tee, the top rung's valve (open while watched), then its encoder behind a one-frame
        // queue, on a thread of its own; H.264's ladder beside it for the viewers who prefer it.
        #expect(
            plain.format.videoChain.prefix(12) == [
                "tee", "!", "valve", "drop=true", "drop-mode=forward-sticky-events", "!", "queue", "max-size-buffers=1",
                "max-size-bytes=0", "max-size-time=0", "!", "vp8enc"
            ])
        #expect(plain.codec == .vp8 && plain.alternativeCodecs == [.h264])
        let everywhere = try #require(
            try StreamOutputs.output(named: "webrtc://:9000/cam?codec=H264") as? WebRTCOutput)
        #expect(everywhere.address.host.isEmpty && everywhere.address.port == 9000)
        #expect(everywhere.format.videoChain.dropFirst(11).first == "x264enc")
        #expect(everywhere.codec == .h264 && everywhere.alternativeCodecs.isEmpty)
        // Listening everywhere: this machine's interfaces' addresses, loopback last (`WebRTCTests` checks
        // an address of a second interface in an answer).
        let everywhereAddresses = WebRTCServer.iceAddresses(for: "")
        #expect(everywhereAddresses.last == "127.0.0.1" && everywhereAddresses.filter { $0 == "127.0.0.1" }.count == 1)
        #expect(WebRTCServer.iceAddresses(for: "0.0.0.0") == everywhereAddresses)
        #expect(WebRTCServer.iceAddresses(for: "::").suffix(2) == ["::1", "127.0.0.1"])
        #expect(WebRTCServer.iceAddresses(for: "10.1.2.3") == ["10.1.2.3"])
        #expect(try StreamOutputs.output(named: "webrtc://localhost/live")?.address.port == 8890)
        #expect(throws: FileJob.Failure.self) { try StreamOutputs.output(named: "webrtc://127.0.0.1:8890") }
        #expect(throws: FileJob.Failure.self) {
            try StreamOutputs.output(named: "webrtc://127.0.0.1:8890/live?codec=av1")
        }
        #expect(throws: FileJob.Failure.self) {
            try StreamOutputs.output(named: "webrtc://127.0.0.1:8890/live?bitrate=1")
        }
    }

    @Test("A publisher's offer: what it sends, and refusals a publisher's developer can act on")
    func publisherOffers() throws {
        let offer = WebRTCInputTests.offer
        #expect(try PublisherOffer(offer).sent == ["audio", "video"])
        let videoOnly = offer.replacingOccurrences(of: "a=mid:0\r\na=sendonly", with: "a=mid:0\r\na=inactive")
        #expect(try PublisherOffer(videoOnly).sent == ["video"])
        func refusal(_ text: String) -> String? {
            do {
                _ = try PublisherOffer(text)
                return nil
            } catch {
                return error.reason
            }
        }
        #expect(refusal("hello") == "the offer is not a session description (SDP begins with v=0)")
        #expect(
            refusal(offer.replacingOccurrences(of: "a=sendonly", with: "a=recvonly"))?.hasPrefix(
                "the offer sends neither video nor audio") == true)
        let noCredentials = offer.split(separator: "\r\n").filter { !$0.hasPrefix("a=ice-") }.joined(separator: "\r\n")
        #expect(refusal(noCredentials) == "the offer has no ICE credentials (a=ice-ufrag and a=ice-pwd)")
        let noFingerprint = offer.split(separator: "\r\n").filter { !$0.hasPrefix("a=fingerprint") }
            .joined(separator: "\r\n")
        #expect(refusal(noFingerprint)?.hasPrefix("the offer has no DTLS fingerprint") == true)
    }

    @Test("webrtc:// first is an input: a path is needed, no options, the port defaults to 8891")
    func inputAddresses() throws {
        let input = try #require(StreamInput.named("webrtc://:8891/in"))
        try input.check("webrtc://:8891/in")
        #expect(throws: FileJob.Failure.self) { try input.check("webrtc://127.0.0.1:8891") }
        #expect(throws: FileJob.Failure.self) { try input.check("webrtc://127.0.0.1:8891/in?codec=h264") }
        #expect(WebRTCInput.pageURL(of: "webrtc://127.0.0.1/in") == "http://127.0.0.1:8891/in")
        let result = try CLI.run(["webrtc://127.0.0.1:8891", "!", "gray", "!", "fakesink"], timeout: 30)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("has no path"), "\(result.stderr)")
    }
}

extension TrickleOutcome {
    var isNoSession: Bool { if case .noSession = self { true } else { false } }
}
