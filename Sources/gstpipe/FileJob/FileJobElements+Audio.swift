import Foundation
import GstPipeSupport
import MediaIO
import Synchronization

/// The audio of a file job's outputs: the branch that takes the input's audio to a muxer, and silence for an
/// output whose receivers refuse pictures alone.
extension FileJobElements {
    /// Silence for an output whose receivers refuse pictures alone, when nothing else feeds its audio.
    static func silenceIfNeeded(
        for file: FileJob.Output, muxer: Element?, hasAudio: Bool, in bin: Bin
    ) throws(GStreamerError) -> [Element] {
        guard file.media == .video, file.stream?.needsAudio == true, let muxer, !hasAudio else { return [] }
        let silence = try buildSilence(index: file.index, format: file.format, into: muxer, in: bin)
        try endSilence(silence[0], withVideoInto: muxer)
        return silence
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
    static func buildAudioBranch(
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
}
