import ArgumentParser
import GstPipeWebRTC

/// The command line's options for stream outputs and live inputs, read into `StreamSettings`. They
/// stand in `gstpipe --help` where the command declares this group (after --graph).
struct StreamOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Segments (2 s each) a .m3u8 playlist lists while live; older ones are deleted. 0 lists and keeps "
                + "every segment (a full playlist).",
            valueName: "segments"))
    var hlsWindow = 6

    @Option(
        help: ArgumentHelp(
            "Write the session description of an rtp:// output to FILE instead of printing it.", valueName: "FILE"))
    var sdp: String?

    @Flag(help: "Receive an rtsp:// input's RTP over the RTSP connection (TCP), for networks that block UDP.")
    var rtspTCP = false

    @Option(
        help: ArgumentHelp(
            "Who may watch rtsp:// outputs: a file of user:password lines (or user:gstpipe:HASH, as htdigest "
                + "writes), yours and readable by you alone.",
            valueName: "FILE"))
    var rtspUsers: String?

    @Option(help: ArgumentHelp("The certificate of an rtsps:// output (PEM).", valueName: "FILE"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The private key of --tls-cert (PEM).", valueName: "FILE"))
    var tlsKey: String?

    @Flag(help: "Accept any certificate from an rtsps:// input's server (a self-signed test server): unsafe.")
    var tlsNoVerify = false

    @Option(
        help: ArgumentHelp(
            "Seconds a network input (\(StreamInput.helpNames.joined(separator: ", "))) may send nothing before "
                + "gstpipe gives up; 0 waits forever.",
            valueName: "seconds"))
    var timeout: Double = 10

    @Flag(
        help: ArgumentHelp(
            "When the network input fails, ends or sends nothing for --timeout, open it again (after 1, 2, 4 ... "
                + "30 s) while the outputs go on: the last frame, then a \"no signal\" slate."))
    var reconnect = false

    @Option(
        help: ArgumentHelp(
            "With --reconnect: give up (exit 1) once the input has been away this long.", valueName: "seconds"))
    var reconnectMax: Double?

    @Flag(
        help: ArgumentHelp(
            "Encode a tee's outputs once: a file output with the stream outputs beside it (their H.264: zero "
                + "latency, their bitrate) instead of on its own for quality, and the stream outputs beside an "
                + "rtmp:// output with its encoding. Stream outputs that want the same H.264 always share one."))
    var oneEncode = false

    @Option(
        help: ArgumentHelp(
            "A STUN server for webrtc:// (stun://HOST:PORT): the server and its pages learn their addresses as "
                + "seen from beyond a NAT.",
            valueName: "uri"))
    var stun: String?

    @Option(
        help: ArgumentHelp(
            "A TURN server for webrtc:// (turn://USER:PASS@HOST:PORT, or turns://): media relayed where no direct "
                + "path exists; the served pages use it too.",
            valueName: "uri"))
    var turn: String?

    @Option(
        help: ArgumentHelp(
            "The address a NAT forwards to this machine: webrtc:// also offers its candidates there.",
            valueName: "address"))
    var publicIP: String?

    /// The longest `--timeout`, in seconds: a year.
    static let longestTimeout: Double = 31_536_000

    /// Refuses a value out of range. Not `validate()`, which ArgumentParser would call before the
    /// command's own: the command calls this after its checks of the description, so that with two
    /// mistakes the same one is said first.
    func check() throws {
        if hlsWindow < 0 {
            throw ValidationError("--hls-window takes a number of segments (0 keeps them all), not \(hlsWindow).")
        }
        // A bound that milliseconds in an Int hold: `inf` and 1e300 would trap there.
        if !(timeout >= 0 && timeout <= Self.longestTimeout) {
            throw ValidationError(
                "--timeout takes seconds (0 waits forever, at most \(Int(Self.longestTimeout))), not \(timeout).")
        }
        if let reconnectMax {
            // Bounded as --timeout is: milliseconds of `inf` or 1e300 in an Int would trap.
            guard reconnectMax > 0 && reconnectMax <= Self.longestTimeout else {
                throw ValidationError(
                    "--reconnect-max takes seconds above 0 (at most \(Int(Self.longestTimeout))), not \(reconnectMax).")
            }
            guard reconnect else {
                throw ValidationError("--reconnect-max says when --reconnect gives up: add --reconnect.")
            }
        }
        do {
            _ = try readICE()
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// `--stun`, `--turn` and `--public-ip`, read and checked.
    private func readICE() throws(ICESettings.Invalid) -> ICESettings {
        var ice = ICESettings()
        if let stun { ice.stun = try ICESettings.stunServer(stun) }
        if let turn { ice.turn = try ICESettings.turnServer(turn) }
        if let publicIP { ice.publicAddress = try ICESettings.publicAddress(publicIP) }
        return ice
    }

    var settings: StreamSettings {
        StreamSettings(
            hlsWindow: hlsWindow, sdpFile: sdp, rtspTCP: rtspTCP, rtspUsers: rtspUsers, tlsCertificate: tlsCert,
            tlsKey: tlsKey, tlsNoVerify: tlsNoVerify,
            inputTimeout: timeout == 0 ? nil : .milliseconds(Int(timeout * 1000)), reconnect: reconnect,
            reconnectMax: reconnectMax.map { .milliseconds(Int($0 * 1000)) }, oneEncode: oneEncode,
            ice: (try? readICE()) ?? ICESettings())
    }
}
