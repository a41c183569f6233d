import Foundation
import GstPipeParsing

/// `rtp://HOST:PORT`: RTP H.264 sent over UDP to a host or a multicast group, with the session
/// description a receiver needs printed (or written to `--sdp FILE`); with a file input's audio,
/// H.264 and AAC in MPEG-TS in RTP (MP2T, payload type 33). The query's options are udpsink's
/// properties, as for `udp://`.
struct RTPOutput: StreamOutput {
    static let scheme = OutputScheme(
        naming: .uri(["rtp"]), help: "rtp://HOST:PORT (the SDP printed, or written by --sdp)",
        example: "rtp://127.0.0.1:5004")

    let address: StreamAddress
    /// The stream is MPEG-TS (H.264 and a file's AAC) in RTP (MP2T), not RTP H.264.
    private(set) var carriesTransportStream = false

    init(_ address: StreamAddress) {
        self.address = address
    }

    var format: OutputFormat {
        carriesTransportStream ? Self.withAudio : Self.videoOnly
    }

    /// SPS and PPS before every key frame: a receiver that starts late needs no SDP parameters.
    private static let videoOnly = OutputFormat.streamingVideo(
        "RTP H.264", then: ["!", "rtph264pay", "config-interval=-1", "pt=96"])
    private static let withAudio = OutputFormat.transportStream(over: "RTP")

    mutating func carryInputAudio() {
        carriesTransportStream = true
    }

    var sinkChain: [ElementSpec] {
        let payloader = carriesTransportStream ? [ElementSpec("rtpmp2tpay", [("pt", .text("33"))])] : []
        return payloader + [UDPOutput.sink(to: address)]
    }

    func startNote(_ settings: StreamSettings) -> String? {
        guard carriesTransportStream else { return "sending RTP H.264 to \(address.uri)" }
        return "sending RTP MPEG-TS (H.264, and AAC when the file has audio) to \(address.uri)"
    }

    var failureAdvice: String { UDPOutput.failureAdvice(for: address) }

    /// Says the session description: on standard output, or in `--sdp FILE`.
    func start(
        _ chain: FileJobElements.Output, settings: StreamSettings, note: @escaping @Sendable (String) -> Void
    ) async throws(FileJob.Failure) -> (any StreamServer)? {
        guard let sdpFile = settings.sdpFile else {
            note(
                "receivers of \(address.uri) need this session description (save it as stream.sdp; "
                    + "ffplay -protocol_whitelist file,udp,rtp stream.sdp):")
            // Unbuffered, before the progress line: a reader of a pipe gets it at once.
            FileHandle.standardOutput.write(Data(sessionDescription.utf8))
            return nil
        }
        do {
            try sessionDescription.write(toFile: sdpFile, atomically: true, encoding: .utf8)
        } catch {
            throw .runtime("cannot write the session description to \(sdpFile): \(error.localizedDescription)")
        }
        note(
            "session description for \(address.uri) written to \(sdpFile) "
                + "(ffplay -protocol_whitelist file,udp,rtp \(sdpFile))")
        return nil
    }

    /// The session description a receiver needs (ffmpeg -protocol_whitelist file,udp,rtp -i
    /// stream.sdp; gst-launch-1.0 filesrc location=stream.sdp ! sdpdemux). The payloader repeats SPS
    /// and PPS before each key frame, so none are in it; MPEG-TS repeats its tables, so a receiver may
    /// start at any time.
    var sessionDescription: String {
        let host = address.host
        let family = host.contains(":") ? "IP6" : "IP4"
        return """
            v=0
            o=- 0 0 IN \(family) \(host)
            s=gstpipe
            c=IN \(family) \(host)\(isMulticast ? "/\(address.option("ttl-mc") ?? "1")" : "")
            t=0 0
            \(carriesTransportStream ? transportStreamMedia : h264Media)

            """
    }

    private var h264Media: String {
        "m=video \(address.port) RTP/AVP 96\na=rtpmap:96 H264/90000\na=fmtp:96 packetization-mode=1"
    }

    /// MPEG-TS in RTP (RFC 2250, static payload type 33): video and audio in one stream.
    private var transportStreamMedia: String { "m=video \(address.port) RTP/AVP 33\na=rtpmap:33 MP2T/90000" }

    /// 224.0.0.0/4 or ff00::/8.
    var isMulticast: Bool {
        let host = address.host
        if host.lowercased().hasPrefix("ff") { return true }
        guard let first = host.split(separator: ".").first.flatMap({ Int($0) }) else { return false }
        return (224...239).contains(first)
    }
}
