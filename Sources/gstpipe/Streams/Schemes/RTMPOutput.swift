import Foundation
import GstPipeParsing
import MediaIO

/// `rtmp://HOST[:PORT]/APP/KEY` and `rtmps://…`: published to an RTMP ingest server (YouTube, Twitch,
/// Facebook, a CDN, nginx-rtmp) as the big services require: H.264 (4:2:0, a constant frame rate, a
/// key frame every two seconds) and AAC (stereo, 44.1 or 48 kHz) in FLV. Silence goes with pictures
/// that have no sound (`needsAudio`): YouTube refuses a stream without audio.
///
/// The last piece of the path is the stream key, a secret: written `***` in everything gstpipe
/// prints. It may be left out of the address (`rtmp://HOST/APP`) and set in `GSTPIPE_RTMP_KEY`,
/// which keeps it out of the process list. `?bitrate=KBPS` sets the video's bitrate; without it,
/// the bitrate suits the picture's size (`defaultBitrate`).
///
/// The connection is made and remade beside the pipeline (`RTMPPublisher`): a server that drops it
/// is published to again while the pipeline runs on.
struct RTMPOutput: StreamOutput {
    static let scheme = OutputScheme(
        naming: .uri(["rtmp", "rtmps"]), help: "rtmp(s)://HOST[:PORT]/APP/KEY (published to an RTMP server)",
        example: "rtmp://a.rtmp.youtube.com/live2/KEY", defaultPort: 1935, needsPath: true,
        options: .checked(checkOptions), pathEndsInSecret: true, pathName: "application and stream key")

    /// Where a key left out of the address comes from.
    static let keyVariable = "GSTPIPE_RTMP_KEY"

    let address: StreamAddress
    /// True for `rtmps://`: RTMP over TLS, the server's certificate checked against the system's.
    let isTLS: Bool
    /// The port: as written, else 1935 for RTMP and 443 for RTMPS.
    let port: Int
    /// The application: the path but its last piece (`live2`, or `app/instance`).
    let application: String
    /// The stream key.
    let key: String
    /// The video bitrate asked for in kbit/s (`?bitrate=`), nil for one suited to the size.
    let bitrate: Int?

    init(_ address: StreamAddress) throws(FileJob.Failure) {
        try self.init(address, environment: ProcessInfo.processInfo.environment)
    }

    /// Reads the application and key from `address`, the key from `environment`'s `GSTPIPE_RTMP_KEY`
    /// when the path names the application alone.
    init(_ address: StreamAddress, environment: [String: String]) throws(FileJob.Failure) {
        self.address = address
        isTLS = address.written.lowercased().hasPrefix("rtmps:")
        let portWritten = address.written.firstMatch(of: #/^[A-Za-z]+://(\[[^\]]*\]|[^/:?]*):[0-9]/#) != nil
        port = portWritten ? address.port : isTLS ? 443 : 1935
        var pieces = address.path.split(separator: "/").map(String.init)
        let shown = address.uri
        if pieces.count == 1 {
            guard let key = environment[Self.keyVariable], !key.isEmpty else {
                throw .usage(
                    "\(shown) has no stream key: write it as \(Self.scheme.example), or set \(Self.keyVariable) "
                        + "(which keeps it out of the process list) and write rtmp://HOST/APP alone")
            }
            Secrets.register(key)
            pieces.append(key)
        }
        key = pieces.removeLast()
        application = pieces.joined(separator: "/")
        bitrate = address.option("bitrate").flatMap { Int($0) }
    }

    var format: OutputFormat { .flv }

    /// Its receivers refuse pictures alone.
    var needsAudio: Bool { true }

    /// The bitrate it sets on its encoder (`start`): two outputs share one only at the same.
    var encoderSettings: String { "bitrate=\(bitrate.map(String.init) ?? "suited to the size")" }

    /// Ingest servers demand its encoding; the streams beside it do with one as well (`--one-encode`).
    var leadsSharedEncode: Bool { true }

    /// flvmux writes no index to seek by, which a stream has no use for.
    func muxerProperties(_ settings: StreamSettings) -> [(name: String, value: ElementSpec.Value)] {
        [("streamable", .text("true"))]
    }

    /// A sink that keeps the run's pace (a file input is sent in real time, as ingest servers want);
    /// the publisher takes the FLV from its input pad and sends it over its own connection.
    var sinkChain: [ElementSpec] {
        [ElementSpec("fakesink", [("sync", .text("true")), ("async", .text("false"))])]
    }

    /// The address with the key hidden, for messages.
    var shown: String { address.uri }

    /// The server and application, without the key: what a message about the server names.
    var server: String { "\(isTLS ? "rtmps" : "rtmp")://\(address.host):\(port)/\(application)" }

    func startNote(_ settings: StreamSettings) -> String? {
        let rate = bitrate.map { "\($0) kbit/s" } ?? "a bitrate suited to the size"
        return "publishing H.264 (\(rate)) and AAC in FLV to \(shown)"
    }

    var failureAdvice: String {
        "check the address and the stream key (a server closes the connection of a key it refuses), and that "
            + "\(address.host):\(port) takes \(isTLS ? "RTMPS" : "RTMP")"
    }

    /// Starts the publisher, which connects at once: nothing answering, or a key refused, fails the
    /// run (exit 1); a connection lost later is made again.
    func start(
        _ chain: FileJobElements.Output, settings: StreamSettings, note: @escaping @Sendable (String) -> Void
    ) async throws(FileJob.Failure) -> (any StreamServer)? {
        guard let sink = chain.sink else { return nil }
        if chain.file.media == .video { setBitrate(of: chain.encoder) }
        do {
            return try RTMPPublisher(
                output: self, sink: sink, schedule: ReconnectSchedule(giveUpAfter: settings.reconnectMax), note: note)
        } catch {
            throw .runtime("cannot publish to \(shown): \(error.message)")
        }
    }

    /// The bitrate asked for, or, once the caps say the size and rate, `defaultBitrate`: set on x264enc
    /// as its caps arrive, before it opens its encoder.
    private func setBitrate(of encoder: Element) {
        if let bitrate {
            try? encoder.set("bitrate", fromString: String(bitrate))
            return
        }
        guard let input = encoder.pad(named: "sink") else { return }
        // The encoder is reached through the pad the probe is on: captured, it would hold its own pad's probe, and
        // so itself, for the process's life.
        input.addProbe(.eventDownstream) { input, info in
            guard let caps = info.event?.caps, let video = try? VideoInfo(caps: caps) else { return .ok }
            let (numerator, denominator) = (video.framerate.numerator, video.framerate.denominator)
            let rate = denominator > 0 ? Double(numerator) / Double(denominator) : 30
            let kbps = Self.defaultBitrate(width: video.width, height: video.height, rate: rate)
            try? input.parentElement?.set("bitrate", fromString: String(kbps))
            return .ok
        }
    }

    /// A bitrate in kbit/s for pictures of this size at this rate, near the middle of what YouTube's
    /// ingest page recommends for H.264: 500 at 240p, 800 at 360p, 1200 at 480p, 2500 at 720p, 4500 at
    /// 1080p, 9000 at 1440p, 16000 above; half as much again above 30 frames a second.
    static func defaultBitrate(width: Int, height: Int, rate: Double) -> Int {
        let pixels = width * height
        let ladder = [
            (426 * 240, 500), (640 * 360, 800), (854 * 480, 1200), (1280 * 720, 2500), (1920 * 1080, 4500),
            (2560 * 1440, 9000)
        ]
        let base = ladder.first { pixels <= $0.0 }?.1 ?? 16000
        return rate > 31 ? base * 3 / 2 : base
    }

    /// The largest `?bitrate=`, in kbit/s: above what any ingest takes.
    static let largestBitrate = 100_000

    /// `bitrate` is the one option: a whole number of kbit/s.
    @Sendable
    static func checkOptions(_ options: [(name: String, value: String)], in token: String) throws(FileJob.Failure) {
        for (name, value) in options {
            guard name == "bitrate" else {
                throw .usage("\(token): an rtmp:// output has no option \(name): the one it takes is bitrate=KBPS")
            }
            guard let kbps = Int(value), 1...largestBitrate ~= kbps else {
                throw .usage(
                    "\(token): bitrate=\(value) is not a bitrate: write kbit/s as a whole number from 1 to "
                        + "\(largestBitrate), such as bitrate=4500")
            }
        }
    }
}

extension OutputFormat {
    /// H.264 and AAC in FLV, as RTMP ingest servers take them: a constant frame rate (videorate makes one
    /// where the source's timing wanders), 4:2:0 whatever comes in (gray's 4:0:0 too: ingest servers and
    /// players refuse it), AAC in stereo at 48 or 44.1 kHz.
    static let flv = OutputFormat(
        extensions: [], name: "H.264 and AAC in FLV", videoChain: ["videorate", "!"] + rtmpH264, muxer: "flvmux",
        audioEncoders: aac, audioName: "AAC in FLV", isImage: false, encoderInput: h264Input,
        audioInput: "audio/x-raw,channels=2,rate={48000,44100}")

    /// x264 as `streamingH264` sets it, but with key frames only where `StreamRun` asks for them, every two
    /// seconds of stream time (what YouTube and Twitch require): no key frame at a scene cut (noise would
    /// have one at every frame), and no limit in frames that comes sooner.
    static let rtmpH264 = [
        "x264enc", "tune=zerolatency", "speed-preset=veryfast", "key-int-max=600", "option-string=scenecut=0",
        "bitrate=2500"
    ]
}
