import CLazyLibraries
import CX264
import GStreamer
import GstPipeSupport
import Synchronization

/// `x264grayenc`: gray video to monochrome (4:0:0) H.264 through libx264, the stream ffmpeg writes for
/// `-vf format=gray -c:v libx264`. GStreamer 1.22's x264enc takes no GRAY8, so gray video through it is
/// encoded as 4:2:0 with two planes of constant chroma, which costs x264 time for nothing.
///
/// It encodes the luma plane of its input and nothing else: chroma is dropped, so it belongs after
/// `gray` (or anything else whose chroma is neutral). Planar and semi-planar YUV come in without a
/// conversion, the luma read where it lies. The output is H.264, one access unit per buffer, in the
/// stream format downstream takes: a byte stream (start codes, headers inline) when it can, else `avc`
/// (length-prefixed, headers in `codec_data`), which MP4 and Matroska muxers take directly. Each frame
/// keeps its duration (from the next frame's timestamp when the input has none), so a muxer's last
/// sample is as long as the others; `h264parse` would replace it with the SPS's 1 ns tick.
///
/// Defaults are ffmpeg's for libx264: constant quality 23 at the medium preset.
public final class GrayH264Encoder: ElementImplementation {
    /// The element's properties, declared in one place.
    public static let properties: [PropertySpec] = [
        PropertySpec(
            "crf", blurb: "Constant quality as x264's --crf: lower is better and larger (ffmpeg's default: 23)",
            .double(range: 0...51, default: 23)),
        PropertySpec(
            "speed-preset", blurb: "x264's preset: \(presets.joined(separator: ", "))", .string(default: "medium")),
        PropertySpec(
            "tune",
            blurb: "x264's tuning, such as film, animation, grain, stillimage, fastdecode or zerolatency "
                + "(none by default)", .string(default: nil)),
        PropertySpec(
            "key-int-max", blurb: "Most frames from one key frame to the next (0: x264's default, 250)",
            .int(range: 0...Int(Int32.max), default: 0)),
        PropertySpec(
            "threads", blurb: "Encoding threads (0: as many as suit the machine's cores)",
            .int(range: 0...128, default: 0))
    ]

    /// x264's presets, fastest first (x264_preset_names).
    static let presets = [
        "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"
    ]

    /// Formats whose first plane is the luma, one byte a sample: read in place.
    public static let formats = ["GRAY8", "I420", "YV12", "NV12", "NV21", "Y42B", "Y444"]
    /// The sink pad's caps: raw video in any of ``formats``, any size and rate.
    public static let sinkCaps = "video/x-raw, format=(string){ \(formats.joined(separator: ", ")) }"
    /// The source pad's caps: H.264, one access unit per buffer, as a byte stream or `avc`.
    public static let srcCaps = "video/x-h264, stream-format=(string){ byte-stream, avc }, alignment=(string)au"

    /// Added to every output timestamp, and to the segment, as GstVideoEncoder does for x264enc: B-frames
    /// make the first decoding timestamps earlier than the first presentation timestamp, and GStreamer's
    /// timestamps cannot go below zero. Running and stream times are unchanged.
    static let timestampOffset: ClockTime = 1000 * 3600 * 1_000_000_000

    /// Registers `x264grayenc` (once per process), or into `plugin` from a plugin's init function.
    ///
    /// - Parameter plugin: The `GstPlugin` pointer a plugin's init function was given; nil registers the
    ///   element for this process only.
    /// - Throws: `GStreamerError` when GStreamer cannot be initialized, the app plugin is missing, or the name
    ///   is taken by an element of another plugin.
    public static func register(plugin: UnsafeMutableRawPointer? = nil) throws(GStreamerError) {
        let description = ElementTypeDescription(
            name: "x264grayenc", longName: "H.264 encoder for gray video (libx264, 4:0:0)",
            classification: "Codec/Encoder/Video",
            description: "Encodes the luma of raw video as monochrome H.264, as ffmpeg's -vf format=gray -c:v libx264 "
                + "(gstpipe, Swift)",
            kind: .filter, sinkCaps: sinkCaps, srcCaps: srcCaps, properties: properties)
        try ElementType.register(description, plugin: plugin) { GrayH264Encoder(element: $0) }
    }

    // The element owns this encoder: holding it strongly would keep both alive forever. Weak,
    // not unowned: an encoder kept after its element is gone (`element.implementation`) does nothing.
    private weak let element: SwiftElement?
    private let state = Locked(State())
    /// The open encoder's delay, kept apart from `state`: a latency query may come while `render`
    /// holds `state`, waiting for downstream.
    private let delay = Locked<ClockTime>(0)

    private struct State {
        var session: X264Session?
        /// The last input, whose segment the output keeps (frames still inside x264 at end of stream
        /// go out with it).
        var lastInput: Sample?
    }

    init(element: SwiftElement) {
        self.element = element
    }

    /// Checks the `speed-preset` and `tune` properties against x264's lists, at NULL → READY; the encoder
    /// itself opens with the first frame, once the caps are known.
    ///
    /// - Throws: `GStreamerError` (invalid argument) for an unknown preset or tuning; the state change then
    ///   fails.
    public func initialize() throws {
        guard let element else { throw GStreamerError(kind: .stateChange, message: "the x264grayenc element is gone") }
        if let missing = CLazyLibraries_x264Missing() {
            throw GStreamerError(kind: .stateChange, message: "\(element.name): \(String(cString: missing))")
        }
        var param = x264_param_t()
        let preset = element.properties.string("speed-preset") ?? "medium"
        guard x264_param_default_preset(&param, preset, nil) == 0 else {
            throw GStreamerError(
                kind: .invalidArgument,
                message:
                    "\(element.name): unknown speed-preset \"\(preset)\"; use one of \(Self.presets.joined(separator: ", "))"
            )
        }
        if let tune = element.properties.string("tune"), x264_param_default_preset(&param, preset, tune) != 0 {
            throw GStreamerError(
                kind: .invalidArgument,
                message:
                    "\(element.name): unknown tune \"\(tune)\"; use film, animation, grain, stillimage, psnr, ssim, "
                    + "fastdecode or zerolatency, or leave it out")
        }
    }

    /// Raw video on one side, H.264 on the other: any size and rate either way, the output's fields set
    /// from the input's once it comes.
    ///
    /// - Parameters:
    ///   - caps: Caps on one side of the element.
    ///   - towardsSink: True to get the sink side's caps from the source side's, false the other way.
    /// - Returns: ``sinkCaps`` or ``srcCaps``, whatever `caps` holds.
    public func transformCaps(_ caps: Caps, towardsSink: Bool) -> Caps {
        (try? Caps(towardsSink ? Self.sinkCaps : Self.srcCaps)) ?? caps
    }

    /// Encodes one frame's luma on the streaming thread and pushes what x264 hands back (nothing while it
    /// fills its lookahead). New caps, or time going back, first drain the running stream and start a new
    /// one.
    ///
    /// - Parameter sample: A raw video frame in one of ``formats``, with its caps and segment.
    /// - Returns: How the push went; `FlowResult.error` after posting an error when the sample has
    ///   no buffer or caps, or x264 fails.
    public func render(_ sample: Sample) -> FlowResult {
        guard let element else { return .flushing }
        guard let buffer = sample.buffer, let caps = sample.caps else { return .error }
        return state.withLock { state in
            do {
                if let session = state.session, session.inputCaps != caps || session.goesBack(to: buffer.pts) {
                    // New caps (a size change), or time going back (a new segment from concat or a playlist:
                    // x264 takes only increasing timestamps): what x264 still holds goes out first, in the
                    // segment it came in, then a new stream begins.
                    if let last = state.lastInput {
                        let flow = deliver(from: session, segmentFrom: last) { try session.flush() }
                        guard flow == .ok else { return flow }
                    }
                    state.session = nil
                }
                let session =
                    try state.session
                    ?? X264Session(
                        caps: caps, properties: element.properties, name: element.name, avc: downstreamWantsAVC())
                if state.session !== session {
                    let changed = delay.withLock { delay in
                        defer { delay = session.latency }
                        return delay != session.latency
                    }
                    if changed { element.postLatencyChanged() }
                }
                state.session = session
                state.lastInput = sample
                return deliver(from: session, segmentFrom: sample) { try session.encode(buffer) }
            } catch {
                element.postError("\(error)")
                return .error
            }
        }
    }

    /// True when downstream takes `avc` and no byte stream (a muxer).
    private func downstreamWantsAVC() -> Bool {
        guard let element,
            let byteStream = try? Caps("video/x-h264, stream-format=(string)byte-stream, alignment=(string)au")
        else { return false }
        let allowed = element.downstreamCaps(filter: (try? Caps(Self.srcCaps)) ?? byteStream)
        return !allowed.isEmpty && !allowed.canIntersect(byteStream)
    }

    /// x264's lookahead, B-frames and frame threads: the most frames it holds, in time.
    public var latency: ClockTime { delay.withLock { $0 } }

    /// The frames x264 still holds (B-frames and its lookahead) go out before the end of stream.
    public func endOfStream() {
        state.withLock { state in
            guard let session = state.session, let last = state.lastInput else { return }
            _ = deliver(from: session, segmentFrom: last) { try session.flush() }
            state.session = nil
        }
    }

    /// After a flush (a seek), or down to READY, the frames x264 holds belong to the old position or
    /// the old run: dropped.
    public func flushed() {
        closeSession()
    }

    /// Closes the encoder, dropping what it still holds.
    public func dispose() {
        closeSession()
    }

    private func closeSession() {
        state.withLock { state in
            state.session = nil
            state.lastInput = nil
        }
    }

    /// Pushes what `encoded` gets out of x264 (a frame's output, or the rest at a drain) downstream,
    /// in the segment of `sample`; an x264 failure becomes an error on the bus.
    private func deliver(
        from session: X264Session, segmentFrom sample: Sample, _ encoded: () throws -> [Buffer]
    ) -> FlowResult {
        guard let element else { return .flushing }
        do {
            for output in try encoded() {
                let flow = element.push(
                    output, caps: session.outputCaps, segmentFrom: sample, segmentOffset: Self.timestampOffset)
                guard flow == .ok else { return flow }
            }
            return .ok
        } catch {
            element.postError("\(error)")
            return .error
        }
    }
}
