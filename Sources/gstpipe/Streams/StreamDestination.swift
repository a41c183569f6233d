import Foundation

/// A network destination, or an HLS playlist, named where a description ends in place of a file:
/// `rtsp://HOST:PORT/PATH` (served by gstpipe's RTSP server), `srt://HOST:PORT` (caller) and
/// `srt://:PORT` (listener), `udp://HOST:PORT` (MPEG-TS), `rtp://HOST:PORT` (RTP H.264) and
/// `DIR/NAME.m3u8` (HLS), and `webrtc://HOST:PORT/PATH` (served by gstpipe to browsers: a viewer
/// page and a WHEP endpoint, `WebRTCServer`). Video is encoded for streaming (`OutputFormat.streaming`).
struct StreamDestination: Sendable, Equatable {
    enum Kind: String, Sendable, CaseIterable {
        case rtsp, srt, udp, rtp, hls, webrtc
    }

    let kind: Kind
    /// The token as written.
    let uri: String
    /// The host: the address to bind (RTSP), to send to (UDP, RTP, SRT caller); empty for an SRT
    /// listener, or for HLS.
    let host: String
    let port: Int
    /// The RTSP mount path (`/gray`), or the HLS playlist's path.
    let path: String
    /// The query's options, in order (`latency=200`).
    let options: [(name: String, value: String)]
    /// `rtp://` only: the stream is MPEG-TS (H.264 and a file's AAC) in RTP (MP2T), not RTP H.264.
    var carriesTransportStream = false

    static func == (lhs: StreamDestination, rhs: StreamDestination) -> Bool { lhs.uri == rhs.uri }

    /// The RTSP server's port when the URI gives none, as ffmpeg's and VLC's.
    static let defaultRTSPPort = 8554
    /// The WebRTC server's port when the URI gives none.
    static let defaultWebRTCPort = 8890

    /// True for the outputs gstpipe serves itself (RTSP, WebRTC): a path names the stream, and the
    /// server says where to watch once it listens.
    var isServed: Bool { kind == .rtsp || kind == .webrtc }

    /// The destination `token` names, nil for anything else (a file name, an element, a URI of
    /// another scheme); throws for a stream URI that cannot be used as written.
    static func parse(_ token: String) throws(FileJob.Failure) -> StreamDestination? {
        if !TokenReader.isURI(token) {
            guard URL(fileURLWithPath: token).pathExtension.lowercased() == "m3u8" else { return nil }
            return StreamDestination(kind: .hls, uri: token, host: "", port: 0, path: token, options: [])
        }
        guard let scheme = token.split(separator: ":").first.map({ $0.lowercased() }),
            let kind = Kind(rawValue: scheme), kind != .hls
        else { return nil }
        let pattern = #"^[A-Za-z]+://(\[[^\]]*\]|[^/:?]*)(:([0-9]*))?(/[^?]*)?(\?(.*))?$"#
        guard let match = token.firstMatch(of: try! Regex(pattern)) else {
            throw .usage("cannot read \(token) as a \(kind.rawValue):// address: write it as \(example(kind))")
        }
        let host = match.output[1].substring.map(String.init) ?? ""
        let portText = match.output[3].substring.map(String.init) ?? ""
        let path = match.output[4].substring.map(String.init) ?? ""
        let query = match.output[6].substring.map(String.init) ?? ""
        let defaultPort = [Kind.rtsp: defaultRTSPPort, .webrtc: defaultWebRTCPort][kind]
        var port = Int(portText) ?? defaultPort ?? -1
        if let defaultPort, portText.isEmpty { port = defaultPort }
        guard port >= 0 else {
            throw .usage("\(token) has no port: add one, such as \(example(kind))")
        }
        guard (kind == .rtsp ? 0 : 1)...65535 ~= port else {
            throw .usage("\(token): the port must be between 1 and 65535")
        }
        // An SRT listener or a WebRTC server with no host listens on every address.
        if host.isEmpty && kind != .srt && kind != .webrtc {
            throw .usage("\(token) has no host: write it as \(example(kind))")
        }
        let served = kind == .rtsp || kind == .webrtc
        if served && (path.isEmpty || path == "/") {
            throw .usage("\(token) has no path: name the stream, such as \(example(kind))")
        }
        if !served && !path.isEmpty && path != "/" {
            throw .usage("\(token): a \(kind.rawValue):// address takes no path: write it as \(example(kind))")
        }
        var options: [(String, String)] = []
        for item in query.split(separator: "&") where !item.isEmpty {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                throw .usage("\(token): the option \(item) has no value: write it as name=value, such as latency=200")
            }
            if kind == .rtsp {
                throw .usage("\(token): rtsp:// outputs take no options (the server serves every client the same stream)")
            }
            options.append((parts[0], parts[1]))
        }
        if kind == .srt { try checkSRTOptions(options, in: token) }
        if kind == .webrtc { try checkWebRTCOptions(options, in: token) }
        return StreamDestination(kind: kind, uri: token, host: host, port: port, path: path, options: options)
    }

    /// The options an `srt://` URI takes (GStreamer's srt elements read these from the query, and
    /// libsrt's socket options by their names); any other is ignored by GStreamer without a word, so
    /// a misspelt `latnecy=80` would run with the default latency.
    static let srtOptions: Set<String> = [
        "mode", "localaddress", "localport", "poll-timeout", "latency", "rcvlatency", "peerlatency", "passphrase",
        "pbkeylen", "streamid", "mss", "fc", "sndbuf", "rcvbuf", "maxbw", "inputbw", "oheadbw", "ipttl", "iptos",
        "tlpktdrop", "snddropdelay", "nakreport", "conntimeo", "drifttracer", "lossmaxttl", "minversion", "congestion",
        "messageapi", "payloadsize", "transtype", "kmrefreshrate", "kmpreannounce", "enforcedencryption", "ipv6only",
        "peeridletimeo", "bindtodevice", "packetfilter", "retransmitalgo", "tsbpdmode",
    ]

    /// Refuses an option of an `srt://` URI (an output, or an input) that SRT would ignore or
    /// misread: an unknown name, a mode other than caller, listener or rendezvous, a passphrase
    /// libsrt refuses, a key length other than 16, 24 or 32 bytes.
    static func checkSRTOptions(_ options: [(name: String, value: String)], in token: String) throws(FileJob.Failure) {
        for (name, value) in options {
            guard srtOptions.contains(name) else {
                throw .usage(
                    "\(token): SRT has no option \(name) (GStreamer would ignore it): the usual ones are latency, "
                        + "passphrase, pbkeylen, streamid and mode (libsrt's socket options by name are taken too)")
            }
            switch name {
            case "mode" where !["caller", "listener", "rendezvous"].contains(value):
                throw .usage("\(token): mode=\(value) is not an SRT mode: write caller, listener or rendezvous")
            case "passphrase" where !(10...79 ~= value.count):
                throw .usage("\(token): an SRT passphrase has 10 to 79 characters, this one has \(value.count)")
            case "pbkeylen" where !["16", "24", "32"].contains(value):
                throw .usage("\(token): pbkeylen=\(value) is not an SRT key length: write 16, 24 or 32 (bytes)")
            default:
                break
            }
            let whole = ["latency", "rcvlatency", "peerlatency", "localport"]
            if whole.contains(name), (Int(value) ?? -1) < 0 {
                throw .usage("\(token): \(name)=\(value) is not \(name == "localport" ? "a port" : "a number of milliseconds")")
            }
        }
    }

    /// A `webrtc://` output takes one option: the codec every viewer gets (`codec=vp8`, the default,
    /// or `codec=h264`).
    static func checkWebRTCOptions(
        _ options: [(name: String, value: String)], in token: String
    ) throws(FileJob.Failure) {
        let codecs = WebRTCCodec.allCases.map(\.rawValue).joined(separator: " or ")
        for (name, value) in options {
            guard name == "codec" else {
                throw .usage("\(token): webrtc:// takes one option, codec (\(codecs)), not \(name)")
            }
            guard WebRTCCodec(option: value) != nil else {
                throw .usage("\(token): codec=\(value) is not sent over WebRTC: write codec=\(codecs)")
            }
        }
    }

    private static func example(_ kind: Kind) -> String {
        switch kind {
        case .rtsp: "rtsp://0.0.0.0:8554/live"
        case .srt: "srt://HOST:9000 (caller) or srt://:9000 (listener)"
        case .udp: "udp://127.0.0.1:5000 (or a multicast group, udp://239.0.0.1:5000)"
        case .rtp: "rtp://127.0.0.1:5004"
        case .hls: "live/stream.m3u8"
        case .webrtc: "webrtc://0.0.0.0:8890/live (or webrtc://:8890/live)"
        }
    }

    /// An SRT destination with no host waits for receivers to call (listener); one with a host calls it.
    var isListener: Bool { kind == .srt && (host.isEmpty || option("mode") == "listener") }

    func option(_ name: String) -> String? { options.last { $0.name == name }?.value }

    /// How it is written: container and codecs, by kind.
    var format: OutputFormat {
        guard kind == .webrtc else { return OutputFormat.streaming(kind) }
        return .webrtc(codec: option("codec").flatMap(WebRTCCodec.init(option:)) ?? .vp8)
    }

    /// The elements that end the output after its muxer (or its video chain, for RTSP and RTP), the
    /// sink last; empty for HLS, whose muxer (hlssink2) writes the files.
    var sinkChain: [ElementSpec] {
        switch kind {
        case .rtsp, .webrtc:
            // The RTSP server takes the access units from here (`RTSPServer`), the WebRTC viewers their
            // frames (`WebRTCViewers`). sync: a file input is sent at its own pace, not as fast as it
            // decodes.
            return [
                ElementSpec(
                    "appsink", [("sync", .text("true")), ("async", .text("false")), ("max-buffers", .text("60"))])
            ]
        case .srt:
            var uri = "srt://\(host):\(port)"
            var query = options.map { "\($0.name)=\($0.value)" }
            if host.isEmpty && option("mode") == nil { query.insert("mode=listener", at: 0) }
            if !query.isEmpty { uri += "?" + query.joined(separator: "&") }
            // A listener does not hold the pipeline until a receiver calls: what comes before is
            // dropped, as a camera keeps running with nobody watching.
            return [
                ElementSpec(
                    "srtsink",
                    [("uri", .string(uri)), ("async", .text("false"))]
                        + (isListener ? [("wait-for-connection", .text("false"))] : []))
            ]
        case .udp, .rtp:
            let payloader =
                kind == .rtp && carriesTransportStream ? [ElementSpec("rtpmp2tpay", [("pt", .text("33"))])] : []
            return payloader + [
                ElementSpec(
                    "udpsink",
                    [("host", .string(host)), ("port", .text(String(port))), ("async", .text("false"))]
                        + options.map { ($0.name, .text($0.value)) })
            ]
        case .hls:
            return []
        }
    }

    /// Properties of the muxer (hlssink2: where segments and playlist go, and how many it keeps).
    func muxerProperties(hlsWindow: Int) -> [(name: String, value: ElementSpec.Value)] {
        guard kind == .hls else { return [("alignment", .text("7"))] }
        let playlist = URL(fileURLWithPath: path)
        let segments = playlist.deletingPathExtension().path + "%05d.ts"
        return [
            ("location", .string(segments)), ("playlist-location", .string(playlist.path)),
            ("target-duration", .text("2")), ("playlist-length", .text(String(hlsWindow))),
            ("max-files", .text(String(hlsWindow == 0 ? 0 : hlsWindow + 2))),
        ]
    }

    /// The one-line note said as the output starts.
    func startNote(hlsWindow: Int) -> String {
        switch kind {
        case .rtsp, .webrtc: return "serving \(uri)"
        case .srt where isListener:
            return "waiting for SRT receivers on port \(port): srt://THIS-HOST:\(port) (MPEG-TS; nothing is sent before one calls)"
        case .srt: return "sending MPEG-TS to \(uri) (SRT caller)"
        case .udp: return "sending MPEG-TS to \(uri)"
        case .rtp where carriesTransportStream: return "sending RTP MPEG-TS (H.264, and AAC when the file has audio) to \(uri)"
        case .rtp: return "sending RTP H.264 to \(uri)"
        case .hls:
            let window = hlsWindow == 0 ? "every segment kept" : "a live window of \(hlsWindow) segments"
            return "writing HLS to \(path) (2 s segments beside it, \(window))"
        }
    }

    /// What to do when sending failed (the error names the element and GStreamer's reason).
    var failureAdvice: String {
        switch kind {
        case .srt where isListener:
            return "check that port \(port) is free (another listener?) and that the receiver calls in caller mode"
        case .srt:
            return "nothing answered at \(uri): start the receiver first, in listener mode "
                + "(ffplay 'srt://:\(port)?mode=listener'), or let gstpipe listen with srt://:\(port)"
        case .udp, .rtp:
            return "check the address \(host) (a host this machine can reach, or a multicast group) and the port"
        case .rtsp:
            return "the RTSP server stopped: run gstpipe again, with -v for GStreamer's details"
        case .webrtc:
            return "the WebRTC encoder stopped: run gstpipe again, with -v for GStreamer's details"
        case .hls:
            return "check that the folder of \(path) exists and that you may write to it"
        }
    }

    /// The session description a receiver of an `rtp://` output needs (ffmpeg -protocol_whitelist
    /// file,udp,rtp -i stream.sdp; gst-launch-1.0 filesrc location=stream.sdp ! sdpdemux). The
    /// payloader repeats SPS and PPS before each key frame, so none are in it; MPEG-TS repeats its
    /// tables, so a receiver may start at any time.
    var sessionDescription: String {
        let family = host.contains(":") ? "IP6" : "IP4"
        return """
            v=0
            o=- 0 0 IN \(family) \(host)
            s=gstpipe
            c=IN \(family) \(host)\(isMulticast ? "/\(option("ttl-mc") ?? "1")" : "")
            t=0 0
            \(carriesTransportStream ? transportStreamMedia : h264Media)

            """
    }

    private var h264Media: String {
        "m=video \(port) RTP/AVP 96\na=rtpmap:96 H264/90000\na=fmtp:96 packetization-mode=1"
    }

    /// MPEG-TS in RTP (RFC 2250, static payload type 33): video and audio in one stream.
    private var transportStreamMedia: String { "m=video \(port) RTP/AVP 33\na=rtpmap:33 MP2T/90000" }

    /// 224.0.0.0/4 or ff00::/8.
    var isMulticast: Bool {
        if host.lowercased().hasPrefix("ff") { return true }
        guard let first = host.split(separator: ".").first.flatMap({ Int($0) }) else { return false }
        return (224...239).contains(first)
    }
}
