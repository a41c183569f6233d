import Foundation
import GstPipeSupport
import MediaIO
import Synchronization

/// The elements of outputs that share one encoder (`SharedEncodes`): the encoder, each output's branch after it,
/// and the audio encoding shared among a group's muxers.
extension FileJobElements {
    /// A shared encoder (`SharedEncodes`): from the junction of its group's leader, the converter, what
    /// the leader's chain has before its encoder, the encoder, and a tee that each output's chain starts at.
    struct SharedVideo {
        let converter: Element
        let encoder: Element
        let tee: Element
        let elements: [Element]
    }

    /// The shared encoder of the group `leader` leads.
    static func buildSharedVideo(
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
    static func buildOutput(
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
    static func shareAudio(among outputs: inout [Output], receivers: [Int: Int]) throws(GStreamerError) {
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
}
