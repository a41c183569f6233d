import GStreamer
import GstPipeMetrics
import GstPipeParsing
import GstPipeWebRTC

/// `webrtc://HOST:PORT/PATH`: served by gstpipe itself to browsers (`WebRTCServer`): a viewer page at
/// PATH and a WHEP endpoint at PATH/whep. The chain ends in an appsink whose encoded frames (VP8, or
/// H.264 with `?codec=h264`) every viewer shares, each payloaded for its own webrtcbin; without
/// `?codec=`, a ladder of H.264 encodes beside it serves the viewers whose offer prefers H.264; a file
/// input's audio, encoded once as Opus, ends in a second appsink (`audioSinkChain`), and a
/// description of sound alone (`audiotestsrc ! webrtc://…`) is encoded as Opus into the first.
struct WebRTCOutput: StreamOutput {
    static let scheme = OutputScheme(
        naming: .uri(["webrtc"]), help: "webrtc://HOST:PORT/PATH (a page and WHEP for browsers)",
        example: "webrtc://0.0.0.0:8890/live (or webrtc://:8890/live)", isServer: true, defaultPort: 8890,
        needsHost: false, needsPath: true, options: .checked(checkOptions))

    let address: StreamAddress

    init(_ address: StreamAddress) {
        self.address = address
    }

    /// The codec of the run's own encode: the one the address fixes (`?codec=`), VP8 without.
    var codec: WebRTCCodec { address.option("codec").flatMap(WebRTCCodec.init(option:)) ?? .vp8 }

    /// The other codecs a viewer may prefer, each a ladder beside the run's own that encodes only while
    /// watched: none when the address fixes the codec, else those this machine can encode.
    var alternativeCodecs: [WebRTCCodec] {
        address.option("codec") == nil ? WebRTCCodec.encodable.filter { $0 != codec } : []
    }

    /// The renditions asked for (`?ladder=`), the default ladder without the option (`WebRTCLadder`:
    /// the source's size, 640x360 and 320x180, those the source is larger than). `checkOptions` has
    /// refused a ladder that cannot be encoded.
    var ladder: WebRTCLadder {
        address.option("ladder").flatMap { try? WebRTCLadder(option: $0) } ?? .standard
    }

    /// The raw video into a tee, the top rung's encode after it; `start` adds the rungs below.
    var format: OutputFormat { .webrtc(codec: codec, ladder: ladder) }

    /// Its encoders follow its viewers (a ladder of rungs, a key frame as each joins): never shared.
    var sharesEncoder: Bool { false }

    /// sync: a file input is sent at its own pace, not as fast as it decodes.
    var sinkChain: [ElementSpec] {
        [ElementSpec("appsink", [("sync", .text("true")), ("async", .text("false")), ("max-buffers", .text("60"))])]
    }

    /// A file input's Opus, at 48 kHz (`WebRTCMedia.opusCaps`), in its own appsink, at the file's
    /// pace as the video is.
    var audioSinkChain: [ElementSpec]? {
        [
            ElementSpec(
                "appsink",
                [
                    ("caps", .text(WebRTCMedia.opusCaps)), ("sync", .text("true")), ("async", .text("false")),
                    ("max-buffers", .text("100"))
                ])
        ]
    }

    func startNote(_ settings: StreamSettings) -> String? { nil }

    var failureAdvice: String { "the WebRTC encoder stopped: run gstpipe again, with -v for GStreamer's details" }

    /// Viewers ask for key frames themselves, as they join and when they lose one.
    var wantsRegularKeyFrames: Bool { false }

    /// Listens, and says where to watch once it does.
    func start(
        _ chain: FileJobElements.Output, settings: StreamSettings, note: @escaping @Sendable (String) -> Void
    ) async throws(FileJob.Failure) -> (any StreamServer)? {
        guard let appsink = chain.sink else { return nil }
        let sources: WebRTCViewers.Sources
        let misfit = WebRTCServer.Misfit()
        if chain.file.media == .audio {
            // Sound alone: Opus at 48 kHz in the one appsink, which takes those caps before any flow.
            try? appsink.set("caps", fromString: WebRTCMedia.opusCaps)
            sources = WebRTCViewers.Sources(video: nil, audio: appsink)
        } else {
            let (ladder, alternatives) = try buildLadders(before: chain.encoder, top: appsink, misfit: misfit)
            sources = WebRTCViewers.Sources(
                video: appsink, audio: chain.audio?.sink, ladder: ladder, alternatives: alternatives)
        }
        var ice = settings.ice
        ice.localAddresses = WebRTCServer.iceAddresses(for: address.host)
        let server = try await WebRTCServer(
            address: address, codec: codec, ice: ice, sources: sources, limit: maxClients, misfit: misfit, note: note)
        note(server.startNote)
        let name = RunMetrics.name(of: chain.file)
        server.viewers.onChange { joined in
            if joined { Metrics.shared.viewerJoined(output: name) } else { Metrics.shared.viewerLeft(output: name) }
        }
        return server
    }

    /// The rungs below the top, off the tee before `encoder` (the top rung's, whose chain ends in `top`),
    /// and the ladders of the other codecs off the same tee; a rung larger than the source, seen once it
    /// plays, is told to `misfit`.
    private func buildLadders(
        before encoder: Element, top: Element, misfit: WebRTCServer.Misfit
    ) throws(FileJob.Failure) -> (WebRTCLadderEncode, [WebRTCLadderEncode]) {
        // Up from the encoder through its queue (and the top rung's scaler and caps) to the tee.
        var element: Element? = encoder
        while let current = element, current.factoryName != "tee" {
            element = current.pad(named: "sink")?.peer?.parentElement
        }
        let shown = Secrets.redact(address.uri)
        do throws(GStreamerError) {
            guard let tee = element else {
                throw GStreamerError(kind: .core, message: "the ladder's tee is not before the encoder")
            }
            let primary = try WebRTCLadderEncode(ladder: ladder, codec: codec, tee: tee, top: top) { failure in
                misfit.set("\(shown): \(failure.message)")
            }
            var alternatives: [WebRTCLadderEncode] = []
            for other in alternativeCodecs {
                alternatives.append(try WebRTCLadderEncode(codec: other, beside: primary, tee: tee))
            }
            return (primary, alternatives)
        } catch {
            throw .runtime("cannot encode the ladder of \(Secrets.redact(address.uri)): \(error.message)")
        }
    }

    /// The most viewers served at once (`?max-clients=N`).
    var maxClients: Int { address.option("max-clients").flatMap { Int($0) } ?? WebRTCViewers.defaultLimit }

    /// A `webrtc://` output takes the codec every viewer gets (`codec=vp8` or `codec=h264`; without, each
    /// viewer gets the one its offer prefers), the token viewers must send (`token=SECRET`,
    /// `BearerToken`), the most viewers at once (`max-clients=N`), and the renditions (`ladder=off` or
    /// `ladder=WxH:KBPS,...`, `WebRTCLadder`).
    /// The token is hidden in every message.
    private static func checkOptions(_ options: [(name: String, value: String)], in token: String) throws(FileJob
        .Failure)
    {
        let codecs = WebRTCCodec.allCases.map(\.rawValue).joined(separator: " or ")
        let shown = Secrets.redact(token)
        if let empty = BearerToken.emptiness(options.last(where: { $0.name == "token" })?.value) {
            throw .usage("\(shown): \(empty)")
        }
        for (name, value) in options {
            switch name {
            case "codec" where WebRTCCodec(option: value) == nil:
                throw .usage("\(shown): codec=\(value) is not sent over WebRTC: write codec=\(codecs)")
            case "max-clients" where !(1...10_000 ~= Int(value) ?? 0):
                throw .usage("\(shown): max-clients=\(value) is not a number of viewers: write one from 1 to 10000")
            case "ladder":
                do {
                    _ = try WebRTCLadder(option: value)
                } catch {
                    throw .usage("\(shown): \(error.message)")
                }
            case "codec", "max-clients", "token":
                continue
            default:
                throw .usage(
                    "\(shown): webrtc:// takes codec (\(codecs)), token, max-clients and ladder, not \(name)")
            }
        }
    }
}

extension OutputFormat {
    /// A `webrtc://` output: the raw video into a tee, and the top rung of `ladder` after it (its
    /// encoder behind the one-frame queue, `WebRTCLadderEncode.topChain`); the output adds the rungs
    /// below as it starts. Sound as Opus, as `webrtc(codec:bitrate:)`.
    static func webrtc(codec: WebRTCCodec, ladder: WebRTCLadder) -> OutputFormat {
        OutputFormat(
            extensions: [], name: "\(codec.encodingName) over WebRTC",
            videoChain: ["tee", "!"] + WebRTCLadderEncode.topChain(of: ladder, codec: codec), muxer: nil,
            audioEncoders: ["opusenc"], audioName: "Opus over WebRTC", isImage: false,
            encoderInput: "video/x-raw,format=I420")
    }

    /// A `webrtc://` output: encoded once for every viewer, on a thread of its own behind a one-frame
    /// queue (`WebRTCViewers.encoderQueue`), payloaded per viewer (`WebRTCViewer`); sound as Opus,
    /// beside the video (a file's audio) or alone (a description of sound); the video at `bitrate` bits a
    /// second.
    static func webrtc(codec: WebRTCCodec, bitrate: Int = WebRTCCodec.defaultBitrate) -> OutputFormat {
        OutputFormat(
            extensions: [], name: "\(codec.encodingName) over WebRTC",
            videoChain: WebRTCViewers.encoderQueue + codec.encoderChain(bitrate: bitrate), muxer: nil,
            audioEncoders: ["opusenc"], audioName: "Opus over WebRTC", isImage: false,
            encoderInput: "video/x-raw,format=I420")
    }
}
