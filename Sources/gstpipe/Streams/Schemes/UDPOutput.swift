import GstPipeParsing

/// `udp://HOST:PORT`: H.264, and a file's AAC, in MPEG-TS, sent to a host or a multicast group
/// (udpsink). The query's options are udpsink's properties (`ttl-mc=3`).
struct UDPOutput: StreamOutput {
    static let scheme = OutputScheme(
        naming: .uri(["udp"]), help: "udp://HOST:PORT (MPEG-TS)",
        example: "udp://127.0.0.1:5000 (or a multicast group, udp://239.0.0.1:5000)")

    let address: StreamAddress

    init(_ address: StreamAddress) {
        self.address = address
    }

    var format: OutputFormat { .streamingTransportStream }

    var sinkChain: [ElementSpec] { [Self.sink(to: address)] }

    func startNote(_ settings: StreamSettings) -> String? { "sending MPEG-TS to \(address.uri)" }

    var failureAdvice: String { Self.failureAdvice(for: address) }

    /// udpsink sending to `address`, with the query's options as its properties (`rtp://` too).
    static func sink(to address: StreamAddress) -> ElementSpec {
        ElementSpec(
            "udpsink",
            [("host", .string(address.host)), ("port", .text(String(address.port))), ("async", .text("false"))]
                + address.options.map { ($0.name, .text($0.value)) })
    }

    /// UDP tells the sender nothing of the receiver: what can fail is the address itself.
    static func failureAdvice(for address: StreamAddress) -> String {
        "check the address \(address.host) (a host this machine can reach, or a multicast group) and the port"
    }
}
