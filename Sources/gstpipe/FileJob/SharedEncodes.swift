import MediaIO

/// Outputs in the branches of one `tee` that want the same H.264 share one encoder: the pictures are
/// converted and encoded once, and a tee after the encoder hands the encoded frames to each output
/// (a queue, h264parse for the stream format its muxer takes, then its muxer and sink). The branches
/// the description wrote from its tee to those outputs are taken out but the first.
///
/// Which outputs share:
///
/// - stream outputs whose H.264 is the same: the same elements and properties up to the encoder, and
///   the same settings the output sets on it as it runs (`StreamOutput.encoderSettings`): `rtsp://`,
///   `srt://`, `udp://`, `rtp://` and HLS all encode for streaming alike; two `rtmp://` outputs of the
///   same bitrate share, but not with the others (a bitrate suited to the size, constant frame rate and
///   4:2:0, where the others go at 2 Mbit/s) unless `--one-encode` gives them its encoding;
/// - with `--one-encode`, a file output too: it takes the encoding of the first stream output on its
///   tee (zero latency, the stream's bitrate, 4:2:0 after `gray` too), or, with none, shares one with
///   the files beside it that are encoded alike. Without it, a file keeps its own encoder, tuned for
///   quality (x264's lookahead, constant quality), which a stream cannot wait for;
/// - never `webrtc://` and `whip+` (their encoders follow their viewers: a ladder of VP8 or H.264
///   rungs, key frames as viewers join), VP8, images, y4m, audio alone, nor an output fed by anything
///   but queues from the tee (its pictures are not the others').
///
/// The input's audio follows: where the output that gets it (`FileJob`) is in a group, its encoded
/// audio goes to every output of the group whose muxer takes the same encoding, one encoder for all.
struct SharedEncodes {
    /// One group's outputs (by `FileJob.Output.index`), the one whose chain is built first.
    struct Group {
        /// The output whose junction feeds the shared encoder: a stream output.
        let leader: Int
        let members: [Int]
    }

    let groups: [Group]

    /// The group `index` is in, if any.
    func group(of index: Int) -> Group? { groups.first { $0.members.contains(index) } }

    /// The groups of `job`'s outputs, from its description parsed into `pipeline` (before the outputs'
    /// chains are built): each junction is followed up through queues to the tee that feeds it.
    static func plan(_ job: FileJob, in pipeline: Pipeline) -> SharedEncodes {
        struct Candidate {
            let index: Int
            let tee: String
            var key: String
            let isStream: Bool
            let leads: Bool
        }
        var candidates: [Candidate] = []
        for output in job.outputs where output.media == .video && (output.stream?.sharesEncoder ?? true) {
            guard output.stream != nil || job.streamSettings.oneEncode,
                let junction = pipeline.element(named: output.junction), let tee = teeFeeding(junction),
                let key = encodingKey(of: output)
            else { continue }
            candidates.append(
                Candidate(
                    index: output.index, tee: tee.name, key: key, isStream: output.stream != nil,
                    leads: output.stream?.leadsSharedEncode == true))
        }
        // A file takes the encoding of the first stream output on its tee (the description's order:
        // outputs are numbered from its end).
        for position in candidates.indices where !candidates[position].isStream {
            let streams = candidates.filter { $0.isStream && $0.tee == candidates[position].tee }
            if let first = streams.max(by: { $0.index < $1.index }) { candidates[position].key = first.key }
        }
        // With --one-encode, the outputs of a tee with an output that demands its encoding (`rtmp://`) take
        // that one (the first such in the description's order): its key frames every 2 s are the streams'
        // own, its 4:2:0 and constant rate suit them, and its bitrate is suited to the size.
        if job.streamSettings.oneEncode {
            for position in candidates.indices where !candidates[position].leads {
                let demanding = candidates.filter { $0.leads && $0.tee == candidates[position].tee }
                if let first = demanding.max(by: { $0.index < $1.index }) { candidates[position].key = first.key }
            }
        }
        var groups: [Group] = []
        var seen: Set<String> = []
        for candidate in candidates.sorted(by: { $0.index > $1.index }) {
            let id = candidate.tee + "\n" + candidate.key
            guard seen.insert(id).inserted else { continue }
            let members = candidates.filter { $0.tee + "\n" + $0.key == id }.sorted { $0.index > $1.index }
            guard members.count > 1 else { continue }
            let leader = members.first { $0.leads } ?? members.first { $0.isStream } ?? members[0]
            groups.append(Group(leader: leader.index, members: members.map(\.index)))
        }
        return SharedEncodes(groups: groups)
    }

    /// The tee whose branch leads to `junction` through queues alone, if there is one.
    static func teeFeeding(_ junction: Element) -> Element? {
        var element = junction
        while let upstream = element.pad(named: "sink")?.peer?.parentElement {
            if upstream.factoryName == "tee" { return upstream }
            guard upstream.factoryName == "queue" else { return nil }
            element = upstream
        }
        return nil
    }

    /// The elements between `tee` and `junction` (queues, and the junction itself): taken out of their
    /// bin, the tee's pad given back, for an output fed by the shared encoder instead.
    static func removeBranch(to junction: Element) {
        var branch = [junction]
        var tee: (element: Element, pad: Pad)?
        while let peer = branch.last?.pad(named: "sink")?.peer, let upstream = peer.parentElement {
            if upstream.factoryName == "tee" {
                tee = (upstream, peer)
                break
            }
            branch.append(upstream)
        }
        if let tee { tee.element.releaseRequestPad(tee.pad) }
        for element in branch {
            _ = try? element.setState(.null)
            if let bin = element.parent as? Bin { try? bin.remove(element) }
        }
    }

    /// The specs of `output`'s video chain up to its encoder (caps, a queue or a rate keeper before
    /// it, or the tee and scaler of a `webrtc://` ladder's top rung), and after it (a payloader); the
    /// encoder's position.
    static func split(_ output: FileJob.Output) -> (specs: [ElementSpec], encoderAt: Int) {
        let specs = ElementSpec.chain(output.videoChain)
        let skipped = ["capsfilter", "queue", "videorate", "tee", "videoscale"]
        let encoderAt = specs.firstIndex { !skipped.contains($0.factory) } ?? 0
        return (specs, encoderAt)
    }

    /// What makes two outputs' H.264 the same: the chain up to the encoder, written out, and what the
    /// output sets on the encoder as it runs. Nil for an encoder other than x264enc.
    private static func encodingKey(of output: FileJob.Output) -> String? {
        let (specs, encoderAt) = split(output)
        guard specs.indices.contains(encoderAt), specs[encoderAt].factory == "x264enc" else { return nil }
        let written = specs[...encoderAt].map { spec in
            ([spec.factory]
                + spec.properties.map { property in
                    switch property.value {
                    case .text(let text), .string(let text): "\(property.name)=\(text)"
                    }
                }).joined(separator: " ")
        }
        return (written + [output.stream?.encoderSettings ?? ""]).joined(separator: " ! ")
    }

    /// The encoded pictures after a shared encoder, for one output: a queue (so that a slow output does
    /// not hold the others; sized in time, as an audio branch's), then h264parse, which turns the
    /// encoder's stream format into the one the output's muxer takes, and for a stream puts SPS and PPS
    /// before each key frame (a receiver joining late needs them).
    static func branchSpecs(for output: FileJob.Output) -> [ElementSpec] {
        let parser = ElementSpec("h264parse", output.stream != nil ? [("config-interval", .text("-1"))] : [])
        return [queue, parser]
    }

    /// A queue after a shared encoder's tee, video or audio: sized in time alone, far above what one
    /// muxer holds of one stream while it waits for the other, so that no output's queue fills and
    /// stops the tee (and every output with it).
    static let queue = ElementSpec(
        "queue",
        [("max-size-buffers", .text("0")), ("max-size-bytes", .text("0")), ("max-size-time", .text("5000000000"))])

    /// The outputs that get the input's audio from another output of their group (to that output's
    /// index): the group's output that gets the input's audio (`FileJob`: one does), for each other
    /// output of the group whose muxer takes the same encoding of it. An output with a sink of its own
    /// for audio (`StreamOutput.audioSinkChain`) or with no muxer takes none.
    func audioReceivers(in job: FileJob) -> [Int: Int] {
        var receivers: [Int: Int] = [:]
        for group in groups {
            let outputs = job.outputs.filter { group.members.contains($0.index) }
            guard let source = outputs.first(where: { $0.audioEncoder != nil }),
                source.stream?.audioSinkChain == nil, source.format.muxer != nil
            else { continue }
            for output in outputs where output.index != source.index && output.audioEncoder == nil {
                let encoder = (output.format.audioEncoders ?? []).first { GStreamer.hasElement(named: $0) }
                guard encoder == source.audioEncoder, output.format.audioInput == source.format.audioInput,
                    output.format.muxer != nil, output.stream?.audioSinkChain == nil
                else { continue }
                receivers[output.index] = source.index
            }
        }
        return receivers
    }
}
