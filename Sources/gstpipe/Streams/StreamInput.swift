import Foundation
import GstPipeParsing
import MediaIO

/// A live network source a description can start with in place of a file (`rtsp://`, `srt://`,
/// `udp://` as its first token): uridecodebin reads it like a file, and the run watches it for
/// silence (`--timeout`), since it has no length and may send nothing. One entry a scheme in `all`,
/// which `TokenReader`, the file job, the run and `--help` ask.
struct StreamInput: Sendable {
    /// The URI schemes, lowercased, without `://`; `--help` names the first.
    let schemes: [String]
    /// Checks the URI's query options before the run (a usage error naming what is wrong); nil when
    /// GStreamer's source reads them as it likes.
    var checkOptions: OutputScheme.OptionCheck? = nil
    /// Properties, by name and value as gst-launch-1.0 writes them, for the source element
    /// uridecodebin makes for the URI, from the command line's settings.
    var sourceProperties: @Sendable (StreamSettings) -> [(name: String, value: String)] = { _ in [] }
    /// True when the URI may carry a user and password (`rtsp://alice:secret@HOST/PATH`), which go to
    /// the source element as `user-id` and `user-pw`.
    var takesCredentials = false
    /// Checks the whole URI before the run (a usage error naming what is wrong), for an input gstpipe
    /// serves itself (`webrtc://`).
    var checkAddress: (@Sendable (String) throws(FileJob.Failure) -> Void)? = nil
    /// What to do when nothing arrived within `--timeout`, for the URI; nil: check the sender.
    var nothingArrived: (@Sendable (String) -> String)? = nil
    /// The source that stands in uridecodebin's place, with the session it runs beside the pipeline,
    /// added to the bin given; nil for an input uridecodebin reads.
    /// `media` is what the description works on (video, or audio alone).
    var makeSource:
        (@Sendable (_ uri: String, _ media: MediaKind, _ bin: Bin) throws(GStreamerError) -> any InputSession)? = nil

    /// Every live input, in the order `--help` names them.
    static let all: [StreamInput] = [
        // rtspsrc: RTP over the RTSP connection with --rtsp-tcp, for networks that block UDP; any
        // certificate with --tls-no-verify.
        StreamInput(
            schemes: ["rtsp", "rtsps"],
            sourceProperties: { settings in
                (settings.rtspTCP ? [("protocols", "tcp")] : [])
                    + (settings.tlsNoVerify ? [("tls-validation-flags", "no-flags")] : [])
            }, takesCredentials: true),
        // srtsrc ignores an option it does not know, as srtsink does.
        StreamInput(schemes: ["srt"], checkOptions: SRTOutput.checkOptions),
        // MPEG-TS.
        StreamInput(schemes: ["udp"]),
        // A stream an RTMP server (nginx-rtmp, an RTMP relay) plays, read by rtmp2src as its client.
        StreamInput(
            schemes: ["rtmp", "rtmps"],
            nothingArrived: { token in
                "check that something publishes to \(Secrets.redact(token)) (an RTMP server sends nothing for a "
                    + "stream nobody publishes)"
            }),
        // A browser publishing by WHIP to gstpipe's own server (`WebRTCInput`), not uridecodebin.
        StreamInput(
            schemes: ["webrtc"],
            checkAddress: { token throws(FileJob.Failure) in
                _ = try StreamAddress.parse(token, as: WebRTCInput.scheme)
            },
            nothingArrived: { token in
                "nobody published: open \(WebRTCInput.pageURL(of: token)) in a browser, or send a WHIP offer to "
                    + "\(WebRTCInput.pageURL(of: token))/whip"
            },
            makeSource: { uri, media, bin throws(GStreamerError) in try WebRTCInput(uri: uri, media: media, in: bin) }),
        // Another server's WHEP endpoint, watched by gstpipe as its client.
        StreamInput(
            schemes: ["whep+http", "whep+https"], checkOptions: WHEPSource.checkOptions,
            makeSource: { uri, _, bin throws(GStreamerError) in try WHEPSource(uri: uri, in: bin) })
    ]

    /// The live input `token` names, nil for anything else (a file, a URI of another scheme).
    static func named(_ token: String) -> StreamInput? {
        let lowercased = token.lowercased()
        return all.first { input in input.schemes.contains { lowercased.hasPrefix("\($0)://") } }
    }

    /// What to do when reading `uri` failed before anything came with GStreamer's `message`: rtspsrc
    /// says no more than "Unauthorized", or, for a certificate it does not trust, that it could not
    /// open the resource. Nil when there is nothing to add.
    static func advice(reading uri: String, failedWith message: String) -> String? {
        let lowercased = uri.lowercased()
        guard lowercased.hasPrefix("rtsp") else { return nil }
        if message.contains("Unauthorized") {
            return "check the user and password: rtsp://USER:PASS@HOST/PATH, or USER@ and "
                + URICredentials.passwordVariable
        }
        if lowercased.hasPrefix("rtsps://") && message.contains("Could not open resource") {
            return "nothing answers there, or its certificate is not one this machine trusts: --tls-no-verify reads "
                + "a test server's self-signed one"
        }
        return nil
    }

    /// "rtsp://", "srt://", "udp://": the schemes `--help` names.
    static var helpNames: [String] { all.map { $0.schemes[0] + "://" } }

    /// Refuses an option of `token`'s query that `checkOptions` finds wrong. An option written without
    /// a value has an empty one, which the check then names.
    func check(_ token: String) throws(FileJob.Failure) {
        try checkAddress?(token)
        guard let checkOptions, let query = token.split(separator: "?", maxSplits: 1).dropFirst().first else { return }
        let options = query.split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            return (name: parts[0], value: parts.count == 2 ? parts[1] : "")
        }
        try checkOptions(options, token)
    }
}

extension StreamInput {
    /// Sets `properties` (`sourceProperties`), and the user and password, on the source element
    /// `decoder` (uridecodebin) makes for the URI, as it makes it.
    static func setUpSource(
        of decoder: Element, properties: [(name: String, value: String)], credentials: URICredentials?
    ) {
        guard !properties.isEmpty || credentials != nil else { return }
        _ = try? decoder.connect("source-setup") { arguments in
            guard case .element(let source)? = arguments.first else { return }
            for (name, value) in properties { try? source.set(name, fromString: value) }
            // As strings, not parsed: a password "NULL" or in quotes is the password itself.
            if let credentials {
                try? source.set("user-id", credentials.user)
                try? source.set("user-pw", credentials.password)
            }
        }
    }
}

extension FileJobRun {
    /// For a live input: sets its `sourceProperties` on the source element uridecodebin makes for it
    /// (rtspsrc over TCP, for `--rtsp-tcp`), and its user and password.
    func setUpLiveInput(_ settings: StreamSettings, note: @escaping @Sendable (String) -> Void) {
        guard let input = job.input, let live = StreamInput.named(input.uri), let inputElement else { return }
        let properties = live.sourceProperties(settings)
        let credentials = input.credentials
        if settings.tlsNoVerify && input.uri.lowercased().hasPrefix("rtsps:") {
            note(
                "WARNING: --tls-no-verify: the certificate of \(input.name) is not checked, so anyone on the way can "
                    + "pose as the server and read the password and the stream; use it for test servers only")
        }
        // With --reconnect, the input's own pipeline sets them up on each connection (`InputAttempt`).
        guard !settings.reconnect else { return }
        StreamInput.setUpSource(of: inputElement, properties: properties, credentials: credentials)
    }

    /// For a network input, which may send nothing and never an end: an error from the input when
    /// nothing has been decoded `timeout` after the start, instead of a wait with no end; and, once
    /// it has sent, end of stream when it has been silent for `timeout` (the sender stopped: UDP
    /// carries no end, and srtsrc would wait to reconnect forever), so that outputs are finished.
    /// Cancel the task once the run ends.
    func watchSilence(timeout: Duration, note: @escaping @Sendable (String) -> Void) -> Task<Void, Never>? {
        guard let input = job.input, input.isNetwork, let decoded, let inputElement else { return nil }
        let end = self
        return Task {
            let clock = ContinuousClock()
            var lastCount = 0
            var lastChange = clock.now
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                let count = decoded.count
                if count != lastCount {
                    lastCount = count
                    lastChange = clock.now
                }
                guard clock.now - lastChange >= timeout else { continue }
                if count == 0 {
                    let advice =
                        StreamInput.named(input.uri)?.nothingArrived?(input.uri)
                        ?? "check that the sender is running and sends to this machine and port"
                    inputElement.postError(
                        "nothing arrived in \(Self.seconds(timeout)): \(advice) (--timeout sets the wait; 0 waits "
                            + "forever)")
                } else {
                    note(
                        "\(input.name) sent nothing for \(Self.seconds(timeout)): the sender stopped, "
                            + "ending the stream")
                    end.pipeline?.sendEndOfStream()
                    end.endInputStreams()
                }
                return
            }
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }
}
