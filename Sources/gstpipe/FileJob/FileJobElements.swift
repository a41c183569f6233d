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
    private static func buildInput(
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
    private static func buildOutput(
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
    private static func buildEnd(
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

    /// Silence for an output whose receivers refuse pictures alone, when nothing else feeds its audio.
    private static func silenceIfNeeded(
        for file: FileJob.Output, muxer: Element?, hasAudio: Bool, in bin: Bin
    ) throws(GStreamerError) -> [Element] {
        guard file.media == .video, file.stream?.needsAudio == true, let muxer, !hasAudio else { return [] }
        let silence = try buildSilence(index: file.index, format: file.format, into: muxer, in: bin)
        try endSilence(silence[0], withVideoInto: muxer)
        return silence
    }

    /// A shared encoder (`SharedEncodes`): from the junction of its group's leader, the converter, what
    /// the leader's chain has before its encoder, the encoder, and a tee that each output's chain starts at.
    struct SharedVideo {
        let converter: Element
        let encoder: Element
        let tee: Element
        let elements: [Element]
    }

    /// The shared encoder of the group `leader` leads.
    private static func buildSharedVideo(
        for leader: FileJob.Output, of job: FileJob, in pipeline: Pipeline
    ) throws(GStreamerError) -> SharedVideo {
        let junction = try element(named: leader.junction, in: pipeline)
        let bin = try parentBin(of: junction)
        let index = leader.index
        var chain = [try ElementSpec("videoconvert").make(named: "gstpipe-encode\(index)", in: bin)]
        if job.uprightOutputs { chain.append(try FileJob.upright.make(in: bin)) }
        let (specs, encoderAt) = SharedEncodes.split(leader)
        for (position, spec) in specs[...encoderAt].enumerated() {
            chain.append(try spec.make(named: position == encoderAt ? "gstpipe-videoencoder\(index)" : nil, in: bin))
        }
        let encoder = chain.last!
        let tee = try ElementSpec("tee").make(named: "gstpipe-encoded\(index)", in: bin)
        chain.append(tee)
        try checkCaps(through: junction, to: chain[0])
        try link([junction] + chain)
        return SharedVideo(converter: chain[0], encoder: encoder, tee: tee, elements: chain)
    }

    /// The chain of `file` after a shared encoder's tee: a queue and h264parse
    /// (`SharedEncodes.branchSpecs`), what `file`'s chain has after its encoder (a payloader), its muxer
    /// and sink. The branch the description wrote to `file` is taken out, but for the leader's.
    private static func buildOutput(
        _ file: FileJob.Output, of job: FileJob, after shared: SharedVideo, audioFromGroup: Bool, in pipeline: Pipeline
    ) throws(GStreamerError) -> Output {
        let bin = try parentBin(of: shared.tee)
        let junction = shared.converter.pad(named: "sink")?.peer?.parentElement
        if junction?.name != file.junction, let own = pipeline.element(named: file.junction) {
            SharedEncodes.removeBranch(to: own)
        }
        let (specs, encoderAt) = SharedEncodes.split(file)
        var chain: [Element] = []
        for spec in SharedEncodes.branchSpecs(for: file) + specs[(encoderAt + 1)...] {
            chain.append(try spec.make(named: chain.isEmpty ? "gstpipe-encodedqueue\(file.index)" : nil, in: bin))
        }
        let (muxer, sink) = try buildEnd(of: file, settings: job.streamSettings, sequence: false, onto: &chain, in: bin)
        try link([shared.tee] + chain)
        var audio: AudioBranch?
        if job.input != nil, let audioEncoder = file.audioEncoder {
            audio = try buildAudioBranch(
                index: file.index, encoder: audioEncoder, caps: file.format.audioInput,
                then: file.stream?.audioSinkChain ?? [], in: pipeline)
        }
        let silence = try silenceIfNeeded(
            for: file, muxer: muxer, hasAudio: audio != nil || audioFromGroup, in: bin)
        return Output(
            file: file, converter: shared.converter, encoder: shared.encoder, muxer: muxer, sink: sink, audio: audio,
            elements: shared.elements + chain + (audio?.elements ?? []) + silence)
    }

    /// The encoded audio of the output in each group that gets the input's audio, also into the muxers of
    /// the outputs of its group that take the same encoding (`receivers`: output to the one with the
    /// branch): a tee after the branch's encoder and a queue a muxer, linked to the muxers with the
    /// branch (`FileJobRun`).
    private static func shareAudio(among outputs: inout [Output], receivers: [Int: Int]) throws(GStreamerError) {
        for source in Set(receivers.values) {
            guard let from = outputs.firstIndex(where: { $0.file.index == source }), var branch = outputs[from].audio,
                branch.sink == nil, let muxer = outputs[from].muxer, let bin = branch.encoder.parent as? Bin
            else { continue }
            let tee = try ElementSpec("tee").make(named: "gstpipe-audioencoded\(source)", in: bin)
            try branch.encoder.link(to: tee)
            branch.tee = tee
            let targets = [from] + outputs.indices.filter { receivers[outputs[$0].file.index] == source }
            for target in targets {
                guard let targetMuxer = target == from ? muxer : outputs[target].muxer else { continue }
                let queue = try SharedEncodes.queue.make(
                    named: "gstpipe-audioencodedqueue\(outputs[target].file.index)", in: bin)
                try tee.link(to: queue)
                branch.muxerQueues.append((queue, targetMuxer))
                if target != from { outputs[target].elements.append(queue) }
            }
            outputs[from].audio = branch
            outputs[from].elements += [tee] + branch.muxerQueues.map(\.queue)
        }
    }

    /// The source of the silence an output gets when its receivers refuse a stream without sound
    /// (`StreamOutput.needsAudio`) and nothing else feeds its audio. Live, whatever the input: such an
    /// output's sink keeps the clock's pace (RTMP's), and a source that is not live runs ahead of the
    /// pictures as far as the queues let it. Measured with a 6 s file without audio into `rtmp://`: the
    /// input's audio branch (a queue of 30 s, sized for x264's lookahead) filled with silence, and after
    /// the last frame the muxer sent on the 30 s it held, at the sink's pace: the viewers saw the last
    /// frame held for half a minute (or until Ctrl-C), the stream's audio ending at 36.0 s. Live, the
    /// silence is made as the clock goes, and ends with the pictures (`endSilence`).
    static func silenceSource(index: Int, in bin: Bin) throws(GStreamerError) -> Element {
        try ElementSpec("audiotestsrc", [("wave", .text("silence")), ("is-live", .text("true"))]).make(
            named: "gstpipe-silence\(index)", in: bin)
    }

    /// Silence in `format`'s audio, into `muxer`, for an output whose receivers refuse a stream without
    /// sound when no input's audio can feed it: `silenceSource`, converted and encoded. The source comes
    /// first in the elements returned.
    static func buildSilence(
        index: Int, format: OutputFormat, into muxer: Element, in bin: Bin
    ) throws(GStreamerError) -> [Element] {
        let encoder = (format.audioEncoders ?? []).first { GStreamer.hasElement(named: $0) } ?? ""
        var specs = [ElementSpec("audioconvert"), ElementSpec("audioresample")]
        if let caps = format.audioInput { specs.append(ElementSpec("capsfilter", [("caps", .text(caps))])) }
        specs.append(ElementSpec(encoder))
        var elements = [try silenceSource(index: index, in: bin)]
        for spec in specs { elements.append(try spec.make(in: bin)) }
        try link(elements)
        try linkAudio(from: elements.last!, into: muxer)
        return elements
    }

    /// Silence into the audio branch of `output`, whose input turned out to have no audio (or none that
    /// decodes) as the pipeline starts: `silenceSource`, started in the starting pipeline, ended with
    /// the output's pictures. The branch is then linked to the muxer as the input's audio would be.
    static func feedSilence(into branch: AudioBranch, of output: Output) throws(GStreamerError) {
        guard let bin = branch.converter.parent as? Bin else {
            throw GStreamerError(kind: .core, message: "\(branch.converter.name) is in no bin")
        }
        let silence = try silenceSource(index: output.file.index, in: bin)
        try silence.link(to: branch.converter)
        guard let muxer = output.muxer else {
            throw GStreamerError(kind: .core, message: "\(output.file.path) has no muxer to put silence in")
        }
        try endSilence(silence, withVideoInto: muxer)
        try silence.syncStateWithParent()
    }

    /// Ends `silence` (an audiotestsrc) when the video that goes beside it ends at `muxer`'s video input:
    /// the muxer finishes once every input has. There, not where the video is converted: between the two,
    /// the queues after an encoder that outputs share (`SharedEncodes`) hold seconds of a file's video
    /// ahead of the clock, and its end came there while the silence had sent 0.9 s of a 6 s file's.
    static func endSilence(_ silence: Element, withVideoInto muxer: Element) throws(GStreamerError) {
        let linked = muxer.pads.filter { $0.direction == .sink }.compactMap { pad in pad.peer.map { (pad, $0) } }
        guard let input = linked.first(where: { $0.1.queryCaps().mediaType?.hasPrefix("video/") == true })?.0 else {
            throw GStreamerError(kind: .core, message: "\(muxer.name) has no video linked", source: muxer.name)
        }
        // The probe holds the source's wrapper (one made here: a weak one would be gone at once); the
        // pipeline's pads and elements live as long as the run.
        input.addProbe(.eventDownstream) { info in
            if info.event?.typeName == "eos" { _ = silence.send(.endOfStream) }
            return .ok
        }
    }

    /// Links `encoder`'s output to a pad `muxer` makes on request for audio: one named so (flvmux's
    /// "audio", mp4mux's "audio_%u"; hlssink2's "audio", whose templates take any caps, so that caps
    /// alone would choose its "video"), else the first whose caps take the encoder's (mpegtsmux's
    /// "sink_%d"). The muxer may be in a `( ... )` bin of the description, the encoder in the pipeline.
    static func linkAudio(from encoder: Element, into muxer: Element) throws(GStreamerError) {
        let encoded = try pad("src", of: encoder)
        let templates = muxer.padTemplates.filter { $0.direction == .sink && $0.presence == .request }
        let offered = encoded.queryCaps()
        guard
            let template = templates.first(where: { $0.name.hasPrefix("audio") })
                ?? templates.first(where: { $0.caps.canIntersect(offered) })
        else {
            throw GStreamerError(kind: .invalidArgument, message: "\(muxer.name) takes no audio", source: muxer.name)
        }
        let input = try muxer.requestPad(template.name)
        do {
            try encoded.linkAcrossBins(to: input)
        } catch {
            muxer.releaseRequestPad(input)
            throw error
        }
    }

    /// The branch that takes the input's audio to an output's muxer, beside its video; linked at
    /// neither end yet: `DecodedPads` links its input, `FileJobRun` its encoder once the input shows
    /// it has audio (a muxer pad that never gets data stalls the muxer, and mp4mux keeps an empty
    /// track for a pad given back). With `sinks` (an output whose audio has a sink of its own), the
    /// encoder is linked to them here: a sink that never gets data holds nothing up.
    private static func buildAudioBranch(
        index: Int, encoder: String, caps: String?, then sinks: [ElementSpec], in bin: Bin
    ) throws(GStreamerError) -> AudioBranch {
        var branch = AudioBranch(
            converter: try ElementSpec("audioconvert").make(named: "gstpipe-audio\(index)", in: bin),
            // Sized in time only, far above any encoder's latency: x264 holds seconds of frames while
            // the muxer waits for them, and a one-second audio queue would fill and block the demuxer
            // (a hang at 0% CPU).
            queue: try ElementSpec(
                "queue",
                [
                    ("max-size-buffers", .text("0")), ("max-size-bytes", .text("0")),
                    ("max-size-time", .text("30000000000"))
                ]
            ).make(named: "gstpipe-audioqueue\(index)", in: bin),
            resampler: try ElementSpec("audioresample").make(named: "gstpipe-audioresample\(index)", in: bin),
            encoder: try ElementSpec(encoder).make(named: "gstpipe-audioencoder\(index)", in: bin))
        if let caps {
            branch.caps = try ElementSpec("capsfilter", [("caps", .text(caps))]).make(in: bin)
        }
        for (position, spec) in sinks.enumerated() {
            let name = position == sinks.count - 1 ? "gstpipe-audiooutput\(index)" : nil
            branch.sinkChain.append(try spec.make(named: name, in: bin))
        }
        try link(branch.elements)
        return branch
    }

    /// One image from a stream a tee shares: the first frame goes into the encoder, then end of
    /// stream, and every later frame and event is dropped before it, answered as delivered. The other
    /// branches run on; an encoder's own snapshot (end of stream answered upstream) would stop them
    /// all, and so would an event (a tag update) refused by the ended encoder.
    private static func keepFirstFrame(into encoderInput: Pad) throws(GStreamerError) {
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

    private static func link(_ chain: [Element]) throws(GStreamerError) {
        for (upstream, downstream) in zip(chain, chain.dropFirst()) {
            try upstream.link(to: downstream)
        }
    }

    /// The junction (an identity) links to anything: throws, as gst_parse would have, when what
    /// reaches it from the description cannot go into `converter` (`noise ! audioconvert ! out.mp4`),
    /// naming the user's element. Checked before the junction is linked on, whose own link error
    /// would name the junction.
    private static func checkCaps(through junction: Element, to converter: Element) throws(GStreamerError) {
        let junctionInput = try pad("sink", of: junction)
        // What the description's element before the junction gives, against what the converter takes.
        guard junctionInput.peerCaps().canIntersect(try pad("sink", of: converter).queryCaps()) else {
            let upstream = junctionInput.peer?.parentElement?.name ?? junction.name
            throw GStreamerError(kind: .syntax, message: "could not link \(upstream) to \(converter.name)")
        }
    }

    /// As `checkCaps(through:to:)`, for the decoded stream going into the description's first element.
    private static func checkCaps(from converter: Element, through junction: Element) throws(GStreamerError) {
        let junctionOutput = try pad("src", of: junction)
        guard junctionOutput.peerCaps().canIntersect(try pad("src", of: converter).queryCaps()) else {
            let downstream = junctionOutput.peer?.parentElement?.name ?? junction.name
            throw GStreamerError(kind: .syntax, message: "could not link \(converter.name) to \(downstream)")
        }
    }

    private static func element(named name: String, in pipeline: Pipeline) throws(GStreamerError) -> Element {
        guard let element = pipeline.element(named: name) else {
            throw GStreamerError(kind: .core, message: "the description has no element \(name)")
        }
        return element
    }

    /// The bin the junction is in: the pipeline, or a `( ... )` bin of the description.
    private static func parentBin(of element: Element) throws(GStreamerError) -> Bin {
        guard let bin = element.parent as? Bin else {
            throw GStreamerError(kind: .core, message: "\(element.name) is in no bin", source: element.name)
        }
        return bin
    }

    private static func pad(_ name: String, of element: Element) throws(GStreamerError) -> Pad {
        guard let pad = element.pad(named: name) else {
            throw GStreamerError(kind: .core, message: "\(element.name) has no \(name) pad", source: element.name)
        }
        return pad
    }
}

/// Links the decoding source's pads as they appear (uridecodebin's pad-added, on a streaming
/// thread): the first stream of the description's kind to the decoded converter, and the input's
/// audio to each audio branch still waiting for it until the branches are decided (`closeAudio`,
/// at the first no-more-pads). Each is linked once: a chained file's later streams are not linked
/// again (their caps may differ from what the encoders started with).
final class DecodedPads: Sendable {
    private struct State {
        var decodedLinked = false
        var audioClosed = false
    }

    private let state = Locked(State())
    private let decodedInput: Pad
    private let media: MediaKind
    /// Held as long as the source holds its handler: the branches outlive their removal from the bin.
    let branches: [FileJobElements.AudioBranch]

    init(decodedInput: Pad, media: MediaKind, branches: [FileJobElements.AudioBranch]) {
        self.decodedInput = decodedInput
        self.media = media
        self.branches = branches
    }

    /// Links `pad` where its stream goes, if anywhere; a stream that cannot link (no decoder: caps
    /// that are not raw) stays unlinked, as do streams of other kinds (subtitles).
    func link(_ pad: Pad) {
        guard let type = pad.currentCaps?.mediaType ?? pad.queryCaps().mediaType else { return }
        state.withLock { state in
            if type.hasPrefix("\(media)/") {
                guard !state.decodedLinked else { return }
                state.decodedLinked = (try? pad.link(to: decodedInput)) != nil
            } else if media == .video && type.hasPrefix("audio/") && !state.audioClosed {
                for branch in branches {
                    guard let input = branch.converter.pad(named: "sink"), !input.isLinked else { continue }
                    // The branch is in the pipeline; the source may be in a `( ... )` bin.
                    if (try? pad.linkAcrossBins(to: input)) != nil { return }
                }
            }
        }
    }

    /// No audio branch is linked from now on: each has got the input's audio or been taken out.
    func closeAudio() {
        state.withLock { $0.audioClosed = true }
    }
}
