import Foundation
import GstPipeParsing

/// `srt://HOST:PORT` calls a receiver (caller); `srt://:PORT` waits for receivers to call
/// (listener). H.264, and a file's AAC, in MPEG-TS, through srtsink; the query's options go to it,
/// checked first, since GStreamer ignores one it does not know.
struct SRTOutput: StreamOutput {
    static let scheme = OutputScheme(
        naming: .uri(["srt"]), help: "srt://HOST:PORT (caller) or srt://:PORT (listener)",
        example: "srt://HOST:9000 (caller) or srt://:9000 (listener)", needsHost: false,
        options: .checked(checkOptions))

    let address: StreamAddress

    init(_ address: StreamAddress) {
        self.address = address
    }

    var format: OutputFormat { .streamingTransportStream }

    /// An address with no host waits for receivers to call (listener); one with a host calls it.
    var isListener: Bool { address.host.isEmpty || address.option("mode") == "listener" }

    /// A listener does not hold the pipeline until a receiver calls: what comes before is dropped,
    /// as a camera keeps running with nobody watching.
    var sinkChain: [ElementSpec] {
        var uri = "srt://\(address.host):\(address.port)"
        var query = address.options.map { "\($0.name)=\($0.value)" }
        if address.host.isEmpty && address.option("mode") == nil { query.insert("mode=listener", at: 0) }
        if !query.isEmpty { uri += "?" + query.joined(separator: "&") }
        return [
            ElementSpec(
                "srtsink",
                [("uri", .string(uri)), ("async", .text("false"))]
                    + (isListener ? [("wait-for-connection", .text("false"))] : []))
        ]
    }

    func startNote(_ settings: StreamSettings) -> String? {
        guard isListener else { return "sending MPEG-TS to \(address.uri) (SRT caller)" }
        let port = address.port
        return "waiting for SRT receivers on port \(port): srt://THIS-HOST:\(port) "
            + "(MPEG-TS; nothing is sent before one calls)"
    }

    var failureAdvice: String {
        let port = address.port
        guard !isListener else {
            return "check that port \(port) is free (another listener?) and that the receiver calls in caller mode"
        }
        return "nothing answered at \(address.uri): start the receiver first, in listener mode "
            + "(ffplay 'srt://:\(port)?mode=listener'), or let gstpipe listen with srt://:\(port)"
    }

    /// Receivers hold the last packets for the latency before playing them: closing the socket at
    /// once would lose them.
    var lingerAfterEnd: TimeInterval {
        let latency = Int(address.option("latency") ?? "") ?? 125
        return (Double(latency) * 2 + 300) / 1000
    }

    /// The options an `srt://` URI takes (GStreamer's srt elements read these from the query, and
    /// libsrt's socket options by their names); any other is ignored by GStreamer without a word, so
    /// a misspelt `latnecy=80` would run with the default latency.
    static let options: Set<String> = [
        "mode", "localaddress", "localport", "poll-timeout", "latency", "rcvlatency", "peerlatency", "passphrase",
        "pbkeylen", "streamid", "mss", "fc", "sndbuf", "rcvbuf", "maxbw", "inputbw", "oheadbw", "ipttl", "iptos",
        "tlpktdrop", "snddropdelay", "nakreport", "conntimeo", "drifttracer", "lossmaxttl", "minversion", "congestion",
        "messageapi", "payloadsize", "transtype", "kmrefreshrate", "kmpreannounce", "enforcedencryption", "ipv6only",
        "peeridletimeo", "bindtodevice", "packetfilter", "retransmitalgo", "tsbpdmode"
    ]

    /// Refuses an option of an `srt://` URI (an output, or an input) that SRT would ignore or
    /// misread: an unknown name, a mode other than caller, listener or rendezvous, a passphrase
    /// libsrt refuses, a key length other than 16, 24 or 32 bytes.
    @Sendable
    static func checkOptions(_ options: [(name: String, value: String)], in token: String) throws(FileJob.Failure) {
        for (name, value) in options {
            guard Self.options.contains(name) else {
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
            // What libsrt takes: an int of milliseconds, a 16-bit port (a larger number trapped in the
            // arithmetic of `lingerAfterEnd`, or went to GStreamer's gint property truncated).
            let whole = [
                "latency": Int(Int32.max), "rcvlatency": Int(Int32.max), "peerlatency": Int(Int32.max),
                "localport": 65535
            ]
            if let most = whole[name], !(0...most).contains(Int(value) ?? -1) {
                let what = name == "localport" ? "a port" : "a number of milliseconds"
                throw .usage("\(token): \(name)=\(value) is not \(what) (0 to \(most))")
            }
        }
    }
}
