import Foundation
import GstPipeParsing

/// An output a description can end in in place of a file: a network destination (`rtsp://`,
/// `srt://`, `udp://`, `rtp://`, `rtmp://`) or an HLS playlist (`.m3u8`).
///
/// A conformer is the whole of one scheme: its entry in the table (`scheme`: how a token names it,
/// the address it needs, the query options it takes and how they are checked, whether it is a
/// server), what it sends (`format`), the elements that end its chain (`sinkChain`), what it says as
/// it starts and when it fails, and what runs beside the pipeline (`start`: a server). The file job
/// builds the encoder and muxer of `format` before `sinkChain`, as for a file.
///
/// `StreamOutputs.all` lists the conformers; the rest of the CLI (the file job, the run, `--help`)
/// asks that list and these requirements, never for a particular scheme. Defaults in the extension
/// below, so a scheme writes only what it does differently.
protocol StreamOutput: Sendable {
    /// The scheme's entry in the table.
    static var scheme: OutputScheme { get }

    /// The output for `address`, which `StreamAddress.parse` has read by `scheme` (form, port, host,
    /// path and options checked).
    init(_ address: StreamAddress) throws(FileJob.Failure)

    /// Where it goes, as the token wrote it.
    var address: StreamAddress { get }

    /// What it sends: codecs and container, as for a file (`OutputFormat`).
    var format: OutputFormat { get }

    /// Asked when the input is a file whose audio may go with the video: a scheme whose `format`
    /// holds video alone changes it to one that holds both. Default: nothing changes.
    mutating func carryInputAudio()

    /// The muxer's properties. Default: MPEG-TS in 7-packet units, a UDP datagram's 1316 bytes.
    func muxerProperties(_ settings: StreamSettings) -> [(name: String, value: ElementSpec.Value)]

    /// The elements after the muxer (or after the video chain, when `format` has no muxer), the sink
    /// last; empty when the muxer writes the output itself (hlssink2).
    var sinkChain: [ElementSpec] { get }

    /// The elements that take a file input's encoded audio, the sink last, when `format` has no
    /// muxer to put it in beside the video (WebRTC's second appsink, which its viewers share); nil
    /// when the audio goes into the muxer. Default: nil.
    var audioSinkChain: [ElementSpec]? { get }

    /// The one-line note said as the job is read; nil for a server, which says where it serves once
    /// it listens (`start`).
    func startNote(_ settings: StreamSettings) -> String?

    /// What to do when sending failed (the error names the element and GStreamer's reason).
    var failureAdvice: String { get }

    /// Starts what runs beside the pipeline, once `chain` (this output's elements) is built and
    /// before the pipeline plays: a server listening (said with `note`), a session description
    /// written. Returns the server, which the run finishes and closes at its end. Default: nothing.
    func start(
        _ chain: FileJobElements.Output, settings: StreamSettings, note: @escaping @Sendable (String) -> Void
    ) async throws(FileJob.Failure) -> (any StreamServer)?

    /// True when the run asks the encoder for a key frame every two seconds of stream time, for
    /// receivers that join late; false when the output asks for key frames itself (WebRTC viewers, as
    /// they join). Default: true.
    var wantsRegularKeyFrames: Bool { get }

    /// True when receivers refuse pictures without sound (RTMP ingest: YouTube): an output with nothing
    /// to carry as audio then gets silence (`FileJobElements.buildSilence`). Default: false.
    var needsAudio: Bool { get }

    /// True when the output may share its video encoder with other outputs of a tee that want the same
    /// (`SharedEncodes`); false when its encoders follow its receivers (WebRTC's ladder, key frames as
    /// viewers join). Default: true.
    var sharesEncoder: Bool { get }

    /// What the output sets on its encoder as it runs, beyond its chain's properties (RTMP's bitrate):
    /// outputs share an encoder only when this is the same. Default: empty.
    var encoderSettings: String { get }

    /// True when the output's receivers demand an encoding of their own (an ingest server's constant
    /// frame rate, 4:2:0 and bitrate suited to the size): with `--one-encode`, the other outputs of its
    /// tee take its encoding, rather than it theirs (`SharedEncodes`). Default: false.
    var leadsSharedEncode: Bool { get }

    /// Seconds the pipeline stays open after end of stream so that receivers get the last packets
    /// (SRT's live mode does not linger when its socket closes). Default: 0.
    var lingerAfterEnd: TimeInterval { get }
}

/// What a stream output runs beside the pipeline (`StreamOutput.start`), such as an RTSP server.
protocol StreamServer: AnyObject, Sendable {
    /// After end of stream reached the output: waits, bounded, until clients have been sent it.
    /// Async, so that a wait of seconds can suspend rather than hold a thread of Swift's cooperative
    /// pool (a synchronous `finish()` satisfies it too, for waits that are short).
    func finish() async
    /// Disconnects every client and stops listening: after the pipeline has stopped.
    func close()
    /// Set when the run's error comes from something the user asked for that the stream turned out
    /// not to allow (a `webrtc://` ladder rung larger than the source): the message, and exit 2.
    var usageFailure: String? { get }
}

extension StreamServer {
    var usageFailure: String? { nil }
}

extension StreamOutput {
    mutating func carryInputAudio() {}

    func muxerProperties(_ settings: StreamSettings) -> [(name: String, value: ElementSpec.Value)] {
        [("alignment", .text("7"))]
    }

    func start(
        _ chain: FileJobElements.Output, settings: StreamSettings, note: @escaping @Sendable (String) -> Void
    ) async throws(FileJob.Failure) -> (any StreamServer)? {
        nil
    }

    var lingerAfterEnd: TimeInterval { 0 }

    var audioSinkChain: [ElementSpec]? { nil }

    var wantsRegularKeyFrames: Bool { true }

    var needsAudio: Bool { false }

    var sharesEncoder: Bool { true }

    var encoderSettings: String { "" }

    var leadsSharedEncode: Bool { false }

    /// True when the output is written as files (HLS): checked and reported as a file is.
    var isFile: Bool { Self.scheme.isFile }
}
