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
        try tieSilence(silence[0], encodedBy: silence[silence.count - 1], toVideoInto: muxer)
        return silence
    }

    /// The source of the silence an output gets when its receivers refuse a stream without sound
    /// (`StreamOutput.needsAudio`) and nothing else feeds its audio. Not live, and kept level with the
    /// pictures by `tieSilence`: alone, a source that is not live runs ahead of the pictures as far as the
    /// queues let it (measured with a 6 s file without audio into `rtmp://`: the input's audio branch, a
    /// queue of 30 s, filled with silence, and the viewers saw the last frame held for half a minute),
    /// and a live one lets the muxer go on without the pictures when they come late (a file's first ones
    /// came 0.16 to 0.21 s after the silence's with both cores busy, and flvmux gave them the time it had
    /// reached: three frames at 0.186 s).
    static func silenceSource(index: Int, in bin: Bin) throws(GStreamerError) -> Element {
        try ElementSpec("audiotestsrc", [("wave", .text("silence"))]).make(named: "gstpipe-silence\(index)", in: bin)
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
        try tieSilence(silence, encodedBy: branch.encoder, toVideoInto: muxer)
        try silence.syncStateWithParent()
    }

    /// Keeps `silence` (an audiotestsrc), as `encoder` outputs it, at most `SilenceTie.lead` ahead of the
    /// pictures that reached `muxer`'s video input, and ends it where they end: the muxer finishes once
    /// every input has.
    /// - Kept level: with a lead of 0.5 s at the source, the sound in the recording ended 0.5 s after
    ///   the pictures; and live, the muxer went on without pictures that came late.
    /// - Where they end, not when: the queues after an encoder that outputs share (`SharedEncodes`) hold
    ///   seconds of a file's video ahead of the clock, and silence ended when the pictures' end came
    ///   there stopped 0.9 s into a 6 s file.
    static func tieSilence(
        _ silence: Element, encodedBy encoder: Element, toVideoInto muxer: Element
    ) throws(GStreamerError) {
        let linked = muxer.pads.filter { $0.direction == .sink }.compactMap { pad in pad.peer.map { (pad, $0) } }
        guard let input = linked.first(where: { $0.1.queryCaps().mediaType?.hasPrefix("video/") == true })?.0 else {
            throw GStreamerError(kind: .core, message: "\(muxer.name) has no video linked", source: muxer.name)
        }
        let encoded = try pad("src", of: encoder)
        let tie = SilenceTie()
        // The pads come with each call: captured, a pad would hold the probe that holds it.
        input.addProbe([.buffer, .eventDownstream]) { input, info in
            if let buffer = info.buffer, let pts = buffer.pts, let time = input.runningTime(of: pts) {
                tie.pictures(reach: time + (buffer.duration ?? 0))
            } else if info.event?.typeName == "eos" {
                tie.endPictures()
            }
            return .ok
        }
        // The probe holds the source's wrapper (one made here: a weak one would be gone at once); the
        // pipeline's pads and elements live as long as the run.
        encoded.addProbe(.buffer) { encoded, info in
            guard let pts = info.buffer?.pts, let time = encoded.runningTime(of: pts) else { return .ok }
            // A stopping pipeline deactivates the pad, then waits for this thread: the wait ends then.
            switch tie.sound(at: time, stopping: { encoded.isFlushing }) {
            case .goesOn: return .ok
            case .ends:
                // The source ends, from another thread than its own; what it made meanwhile is dropped here.
                DispatchQueue.global().async { _ = silence.send(.endOfStream) }
                return .drop
            case .ended: return .drop
            }
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

/// The silence beside an output's pictures, kept level with them from the probes on the streaming
/// threads of both: its sound waits while it is more than `lead` ahead of the pictures that reached the
/// muxer, and ends where they end.
private final class SilenceTie: @unchecked Sendable {
    enum Step { case goesOn, ends, ended }

    /// How far the sound may be ahead: more than an AAC frame (1,024 samples: 21 ms at 48 kHz, 23 ms at
    /// 44.1 kHz), so that the muxer has sound after each picture to order them by.
    static let lead: ClockTime = 50_000_000

    // Read and written under `condition`'s lock.
    private let condition = NSCondition()
    /// The running time the pictures reached at the muxer.
    private var picturesEnd: ClockTime = 0
    private var picturesEnded = false
    private var soundEnded = false

    func pictures(reach time: ClockTime) {
        condition.lock()
        picturesEnd = max(picturesEnd, time)
        condition.broadcast()
        condition.unlock()
    }

    func endPictures() {
        condition.lock()
        picturesEnded = true
        condition.broadcast()
        condition.unlock()
    }

    /// What sound starting at running time `time` does, once the pictures allow it or `stopping` says
    /// so: it goes on, or ends once, at the pictures' end.
    func sound(at time: ClockTime, stopping: () -> Bool) -> Step {
        condition.lock()
        defer { condition.unlock() }
        while !picturesEnded, !soundEnded, time > picturesEnd + Self.lead {
            if stopping() { return .ended }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1))
        }
        if soundEnded { return .ended }
        guard picturesEnded, time >= picturesEnd else { return .goesOn }
        soundEnded = true
        return .ends
    }
}
