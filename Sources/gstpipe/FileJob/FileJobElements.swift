import Foundation
import GstPipeSupport
import MediaIO
import Synchronization

/// The elements a `FileJob` adds to the pipeline parsed from the user's description, made and linked
/// in code and held here by reference:
///
/// - for an input, `uridecodebin`, whose pads are linked as they appear (`DecodedPads`) to a
///   converter, `FileJob.upright` and a converter again, into the input's junction;
/// - for each output, from its junction on: a converter, the encoder (and caps before it), the
///   muxer, the sink; and for the output that gets the input's audio beside its video, an audio
///   branch (converter, queue, resampler, encoder), which `FileJobRun` links to the muxer once the
///   input shows it has audio, or which ends in a sink of its own (`StreamOutput.audioSinkChain`).
///
/// Elements get labels (gstpipe-mux0, gstpipe-output0, ...) for the user's messages ("from element
/// gstpipe-output0: ..."), `-m` and `--graph`; nothing looks them up by name.
struct FileJobElements {
    /// The decoding source and where its stream enters the rest of the pipeline.
    struct Input {
        /// uridecodebin: it makes a pad for each stream it finds in the input.
        let source: Element
        /// The converter the decoded video (or audio, for an audio description) enters.
        let decoded: Element
        /// Links the source's pads to `decoded` and to the audio branches as they appear.
        let pads: DecodedPads
        /// The session a live input runs beside the pipeline (a WHIP server, a WHEP client), nil for
        /// uridecodebin.
        var session: (any InputSession)? = nil
    }

    /// The input's audio on its way to an output's muxer, beside the video.
    struct AudioBranch: Sendable {
        let converter: Element
        let queue: Element
        let resampler: Element
        let encoder: Element
        /// The format's caps before the encoder (`OutputFormat.audioInput`), if it has some.
        var caps: Element? = nil
        /// The elements after the encoder, the sink last, when the audio goes to a sink of its own
        /// rather than into the muxer (`StreamOutput.audioSinkChain`); empty otherwise.
        var sinkChain: [Element] = []
        /// A tee after the encoder when the encoded audio goes to the muxers of several outputs that share
        /// their video encoder (`SharedEncodes`), and a queue into each muxer; nil and empty otherwise.
        var tee: Element? = nil
        var muxerQueues: [(queue: Element, muxer: Element)] = []

        /// The sink the audio ends in, when it has its own.
        var sink: Element? { sinkChain.last }

        var elements: [Element] {
            [converter, queue, resampler] + (caps.map { [$0] } ?? []) + [encoder] + sinkChain + (tee.map { [$0] } ?? [])
                + muxerQueues.map(\.queue)
        }
    }

    /// One output's chain, from its junction to the sink.
    struct Output {
        let file: FileJob.Output
        /// The converter where the chain begins (videoconvert, or audioconvert for an audio chain):
        /// buffers are counted and end of stream is sent there.
        let converter: Element
        /// The video encoder (or the audio encoder, for an audio chain).
        let encoder: Element
        /// The muxer, nil when the encoder writes the file alone (y4m, images, WAV) or for RTSP and RTP
        /// without audio.
        let muxer: Element?
        /// The element the chain ends in (filesink, appsink, udpsink, ...); nil for HLS, whose muxer
        /// writes the files.
        let sink: Element?
        /// The input's audio beside the video, nil when the output gets none (or gets it from the branch
        /// of another output sharing its encoders: `AudioBranch.muxerQueues`).
        var audio: AudioBranch?
        /// Every element of the chain and the audio branch: an error from one of them means the output
        /// is broken. An encoder shared with other outputs (`SharedEncodes`) is in each one's.
        var elements: [Element]

        /// The names of `elements`, to match an error's source (a bus message names its element).
        var elementNames: Set<String> { Set(elements.map(\.name)) }
    }

    let input: Input?
    let outputs: [Output]

    /// Builds the job's elements around the junctions of `job.tokens`, parsed into `pipeline`. Throws
    /// when an element cannot be made or linked (what the description feeds an output cannot be
    /// converted for it: "could not link audioconvert0 to gstpipe-encode0", as gst_parse would say).
    static func build(_ job: FileJob, in pipeline: Pipeline) throws(GStreamerError) -> FileJobElements {
        let plan = SharedEncodes.plan(job, in: pipeline)
        let audioReceivers = plan.audioReceivers(in: job)
        var encodes: [Int: SharedVideo] = [:]
        var outputs: [Output] = []
        for file in job.outputs {
            var shared: SharedVideo?
            if let group = plan.group(of: file.index) {
                if encodes[group.leader] == nil, let leader = job.outputs.first(where: { $0.index == group.leader }) {
                    encodes[group.leader] = try buildSharedVideo(for: leader, of: job, in: pipeline)
                }
                shared = encodes[group.leader]
            }
            outputs.append(
                try buildOutput(
                    file, of: job, sharing: shared, audioFromGroup: audioReceivers[file.index] != nil, in: pipeline))
        }
        try shareAudio(among: &outputs, receivers: audioReceivers)
        guard let input = job.input else { return FileJobElements(input: nil, outputs: outputs) }
        return FileJobElements(input: try buildInput(input, of: job, outputs: outputs, in: pipeline), outputs: outputs)
    }

    /// uridecodebin, converters and `upright` into the input's junction; the audio branches beside it.
    static func buildInput(
        _ input: FileJob.Input, of job: FileJob, outputs: [Output], in pipeline: Pipeline
    ) throws(GStreamerError) -> Input {
        let junction = try element(named: FileJob.inputJunction, in: pipeline)
        let bin = try parentBin(of: junction)
        var session: (any InputSession)?
        if job.streamSettings.reconnect, let live = StreamInput.named(input.uri) {
            session = try ReconnectingInput(
                input: input, live: live, carriesAudio: outputs.contains { $0.audio != nil }, in: bin)
        } else if let makeSource = StreamInput.named(input.uri)?.makeSource {
            session = try makeSource(input.uri, job.media, bin)
        }
        let source: Element
        if let session {
            source = session.element
        } else {
            source = try ElementSpec("uridecodebin", [("uri", .string(input.uri))]).make(
                named: "gstpipe-input", in: bin)
        }
        var chain: [Element]
        if job.media == .audio {
            chain = [try ElementSpec("audioconvert").make(named: "gstpipe-decoded", in: bin)]
        } else {
            chain = [try ElementSpec("videoconvert").make(named: "gstpipe-decoded", in: bin)]
            if job.autorotate {
                chain += [try FileJob.upright.make(in: bin), try ElementSpec("videoconvert").make(in: bin)]
            }
        }
        try checkCaps(from: chain.last!, through: junction)
        try link(chain + [junction])
        let decodedInput = try pad("sink", of: chain[0])
        let pads = DecodedPads(decodedInput: decodedInput, media: job.media, branches: outputs.compactMap(\.audio))
        // The handler holds the pads and branches, not the source: the source holds the handler.
        source.onPadAdded { pad in pads.link(pad) }
        return Input(source: source, decoded: chain[0], pads: pads, session: session)
    }

    /// The chain of `file` after its junction: converter, encoder, muxer, sink, and its audio branch.
    static func buildOutput(
        _ file: FileJob.Output, of job: FileJob, sharing shared: SharedVideo? = nil, audioFromGroup: Bool = false,
        in pipeline: Pipeline
    ) throws(GStreamerError) -> Output {
        if let shared {
            return try buildOutput(file, of: job, after: shared, audioFromGroup: audioFromGroup, in: pipeline)
        }
        let junction = try element(named: file.junction, in: pipeline)
        let bin = try parentBin(of: junction)
        let index = file.index
        let format = file.format
        let sequence = format.isImage && OutputFormat.isSequence(file.path)
        // One picture from a stream a tee shares with other outputs (`keepFirstFrame`).
        let oneImage = file.media == .video && format.isImage && !sequence
        let sharedStream = job.tokens.contains("tee")
        var chain: [Element]
        let encoder: Element
        if file.media == .video {
            chain = [try ElementSpec("videoconvert").make(named: "gstpipe-encode\(index)", in: bin)]
            if job.uprightOutputs { chain.append(try FileJob.upright.make(in: bin)) }
            var specs = ElementSpec.chain(file.videoChain)
            // One image: the encoder ends the stream after the first frame, and says so upstream,
            // which stops the decoding at once. Not where a tee shares the stream with other outputs:
            // tee hands an end of stream from one branch back to its source, and every branch would
            // stop after a few frames (`keepFirstFrame` ends this branch alone).
            if oneImage && !sharedStream {
                specs[specs.count - 1].properties.append(("snapshot", .text("true")))
            }
            // The encoder: the first element that is neither caps nor a queue (`webrtc://`'s) nor a rate
            // keeper (RTMP's) before it, nor the tee and scaler of a `webrtc://` ladder's top rung.
            let encoderAt = SharedEncodes.split(file).encoderAt
            var made: [Element] = []
            for (position, spec) in specs.enumerated() {
                made.append(try spec.make(named: position == encoderAt ? "gstpipe-videoencoder\(index)" : nil, in: bin))
            }
            encoder = made[encoderAt]
            chain += made
        } else {
            // audioconvert and audioresample, so that any raw audio meets the encoder (Opus takes 48 kHz,
            // FLAC integers, AAC at most 96 kHz); the first installed encoder (`FileJob` checked there is one).
            let name = (format.audioEncoders ?? []).first { GStreamer.hasElement(named: $0) } ?? ""
            encoder = try ElementSpec(name).make(named: "gstpipe-audioencoder\(index)", in: bin)
            chain = [
                try ElementSpec("audioconvert").make(named: "gstpipe-encode\(index)", in: bin),
                try ElementSpec("audioresample").make(named: "gstpipe-audioresample\(index)", in: bin), encoder
            ]
        }
        let (muxer, sink) = try buildEnd(
            of: file, settings: job.streamSettings, sequence: sequence, onto: &chain, in: bin)
        try checkCaps(through: junction, to: chain[0])
        try link([junction] + chain)
        if format.needsPackedFrames { try pad("sink", of: encoder).packVideoBuffers() }
        if oneImage && sharedStream { try keepFirstFrame(into: pad("sink", of: encoder)) }
        var audio: AudioBranch?
        if job.input != nil, let audioEncoder = file.audioEncoder {
            // In the pipeline itself, beside the decoding source whose pad it links to.
            audio = try buildAudioBranch(
                index: index, encoder: audioEncoder, caps: format.audioInput, then: file.stream?.audioSinkChain ?? [],
                in: pipeline)
        }
        let silence = try silenceIfNeeded(
            for: file, muxer: muxer, hasAudio: audio != nil || audioFromGroup, in: bin)
        return Output(
            file: file, converter: chain[0], encoder: encoder, muxer: muxer, sink: sink, audio: audio,
            elements: chain + (audio?.elements ?? []) + silence)
    }

    /// The muxer (if the format has one) and the sink elements of `file`'s chain, appended to `chain`.
    static func buildEnd(
        of file: FileJob.Output, settings: StreamSettings, sequence: Bool, onto chain: inout [Element], in bin: Bin
    ) throws(GStreamerError) -> (muxer: Element?, sink: Element?) {
        let index = file.index
        let format = file.format
        var muxer: Element?
        if let factory = format.muxer {
            var spec = ElementSpec(factory)
            if file.crashSafe, let properties = format.crashSafeMuxing {
                spec.properties += ElementSpec.properties(properties)
            }
            spec.properties += file.stream?.muxerProperties(settings) ?? []
            muxer = try spec.make(named: "gstpipe-mux\(index)", in: bin)
            chain.append(muxer!)
        }
        // async=false: the file need not preroll, so a branch beside it (tee ! queue ! autovideosink)
        // cannot fill its queue and stall while the encoder gathers its lookahead.
        let fileSink = ElementSpec(
            sequence ? "multifilesink" : "filesink", [("location", .string(file.path)), ("async", .text("false"))])
        let sinks = file.stream?.sinkChain ?? [fileSink]
        var sink: Element?
        for (position, spec) in sinks.enumerated() {
            let made = try spec.make(named: position == sinks.count - 1 ? "gstpipe-output\(index)" : nil, in: bin)
            chain.append(made)
            sink = made
        }
        return (muxer, sink)
    }

    /// One image from a stream a tee shares: the first frame goes into the encoder, then end of
    /// stream, and every later frame and event is dropped before it, answered as delivered. The other
    /// branches run on; an encoder's own snapshot (end of stream answered upstream) would stop them
    /// all, and so would an event (a tag update) refused by the ended encoder.
    static func keepFirstFrame(into encoderInput: Pad) throws(GStreamerError) {
        guard let feeder = encoderInput.peer else {
            throw GStreamerError(kind: .core, message: "the image encoder's input is not linked")
        }
        let frames = Locked(0)
        feeder.addProbe([.buffer, .eventDownstream]) { info in
            let seen = frames.withLock { count -> Int in
                if info.buffer != nil { count += 1 }
                return count
            }
            if seen < 2 { return .ok }
            if seen == 2 && info.buffer != nil { encoderInput.send(.endOfStream) }
            return .drop
        }
    }

    static func link(_ chain: [Element]) throws(GStreamerError) {
        for (upstream, downstream) in zip(chain, chain.dropFirst()) {
            try upstream.link(to: downstream)
        }
    }

    /// The junction (an identity) links to anything: throws, as gst_parse would have, when what
    /// reaches it from the description cannot go into `converter` (`noise ! audioconvert ! out.mp4`),
    /// naming the user's element. Checked before the junction is linked on, whose own link error
    /// would name the junction.
    static func checkCaps(through junction: Element, to converter: Element) throws(GStreamerError) {
        let junctionInput = try pad("sink", of: junction)
        // What the description's element before the junction gives, against what the converter takes.
        guard junctionInput.peerCaps().canIntersect(try pad("sink", of: converter).queryCaps()) else {
            let upstream = junctionInput.peer?.parentElement?.name ?? junction.name
            throw GStreamerError(kind: .syntax, message: "could not link \(upstream) to \(converter.name)")
        }
    }

    /// As `checkCaps(through:to:)`, for the decoded stream going into the description's first element.
    static func checkCaps(from converter: Element, through junction: Element) throws(GStreamerError) {
        let junctionOutput = try pad("src", of: junction)
        guard junctionOutput.peerCaps().canIntersect(try pad("src", of: converter).queryCaps()) else {
            let downstream = junctionOutput.peer?.parentElement?.name ?? junction.name
            throw GStreamerError(kind: .syntax, message: "could not link \(converter.name) to \(downstream)")
        }
    }

    static func element(named name: String, in pipeline: Pipeline) throws(GStreamerError) -> Element {
        guard let element = pipeline.element(named: name) else {
            throw GStreamerError(kind: .core, message: "the description has no element \(name)")
        }
        return element
    }

    /// The bin the junction is in: the pipeline, or a `( ... )` bin of the description.
    static func parentBin(of element: Element) throws(GStreamerError) -> Bin {
        guard let bin = element.parent as? Bin else {
            throw GStreamerError(kind: .core, message: "\(element.name) is in no bin", source: element.name)
        }
        return bin
    }

    static func pad(_ name: String, of element: Element) throws(GStreamerError) -> Pad {
        guard let pad = element.pad(named: name) else {
            throw GStreamerError(kind: .core, message: "\(element.name) has no \(name) pad", source: element.name)
        }
        return pad
    }
}
