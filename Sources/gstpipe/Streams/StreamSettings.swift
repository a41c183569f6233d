import GstPipeParsing
import GstPipeWebRTC

/// What the command line says about streams (`--hls-window`, `--sdp`, `--rtsp-tcp`, `--timeout`, `--stun`, `--turn`, `--public-ip`,
/// read by `StreamOptions`), handed to the stream outputs and inputs. A new scheme takes its settings
/// in its URI's query (`StreamAddress.options`) instead.
struct StreamSettings: Sendable {
    /// Segments an HLS playlist lists (`--hls-window`); 0 lists and keeps them all.
    var hlsWindow = 6
    /// Where to write the session description of an `rtp://` output (`--sdp`), instead of printing it.
    var sdpFile: String?
    /// Ask an `rtsp://` input's server for RTP over the RTSP connection (`--rtsp-tcp`).
    var rtspTCP = false
    /// The users file of `rtsp://` outputs (`--rtsp-users`), `RTSPUser.read`.
    var rtspUsers: String?
    /// The PEM certificate and key of an `rtsps://` output (`--tls-cert`, `--tls-key`).
    var tlsCertificate: String?
    var tlsKey: String?
    /// Accept any certificate from an `rtsps://` input's server (`--tls-no-verify`), said loudly.
    var tlsNoVerify = false
    /// How long a network input may send nothing before the run fails (`--timeout`); nil waits forever.
    var inputTimeout: Duration? = .seconds(10)
    /// Open a network input again when it is lost, the outputs going on meanwhile (`--reconnect`,
    /// `ReconnectingInput`).
    var reconnect = false
    /// How long a lost input may stay away before the run ends (`--reconnect-max`); nil: no limit.
    var reconnectMax: Duration?
    /// File outputs share the encoder of the stream outputs beside them (`--one-encode`, `SharedEncodes`).
    var oneEncode = false
    /// STUN and TURN servers and a public address for WebRTC (`--stun`, `--turn`, `--public-ip`).
    var ice = ICESettings()

    /// Why `--tls-no-verify` is refused with a WHIP or WHEP address: their HTTP client (`HTTPExchange`)
    /// always checks the server's certificate, so the flag would be ignored, and a user who gave it
    /// would believe the run connected as asked.
    static let tlsNoVerifyRefusal =
        "--tls-no-verify is for rtsps:// inputs: whep+https:// and whip+https:// always check the server's "
        + "certificate (for a test server, put its certificate in /usr/local/share/ca-certificates and run "
        + "update-ca-certificates)"

    /// True when `words` (a description's) name a WHIP or WHEP address, which `--tls-no-verify` cannot
    /// apply to: checked before the run starts, since a WHEP input connects as its element is made.
    static func namesWebRTCClient(_ words: [String]) -> Bool {
        words.contains { word in ["whep+", "whip+"].contains { word.lowercased().hasPrefix($0) } }
    }

    /// Refuses a setting that describes an output (or a WebRTC input) the description does not have.
    func check(against outputs: [any StreamOutput], input: (any InputSession)? = nil) throws(FileJob.Failure) {
        if sdpFile != nil && !outputs.contains(where: { $0 is RTPOutput }) {
            throw .usage("--sdp FILE describes an rtp:// output, and this description has none")
        }
        let rtsp = outputs.compactMap { $0 as? RTSPOutput }
        if rtspUsers != nil && rtsp.isEmpty {
            throw .usage("--rtsp-users FILE names who may watch an rtsp:// output, and this description has none")
        }
        if (tlsCertificate != nil || tlsKey != nil) && !rtsp.contains(where: \.isTLS) {
            throw .usage("--tls-cert and --tls-key are for rtsps:// outputs, and this description has none")
        }
        let webRTCOutput = outputs.contains { $0 is WebRTCOutput || $0 is WHIPOutput }
        let webRTCInput = input is WebRTCInput || input is WHEPSource || (input as? ReconnectingInput)?.isWHEP == true
        let whepInput = input is WHEPSource || (input as? ReconnectingInput)?.isWHEP == true
        if tlsNoVerify && (whepInput || outputs.contains { $0 is WHIPOutput }) {
            throw .usage(Self.tlsNoVerifyRefusal)
        }
        if !ice.isEmpty && !webRTCOutput && !webRTCInput {
            throw .usage(
                "--stun, --turn and --public-ip are for WebRTC (webrtc://, whip+http:// or whep+http://), "
                    + "and this description has none")
        }
    }
}
