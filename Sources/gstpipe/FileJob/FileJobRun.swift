import Foundation
import GstPipeSupport
import MediaIO
import Synchronization

/// A `FileJob` while its pipeline runs: counts the frames (or, for an audio description, the audio
/// buffers) decoded and written, refuses to present an empty or broken file as good, and finalizes
/// what was written when an error stops the run.
struct FileJobRun {
    struct Output {
        /// The output's elements, which write `file`.
        let elements: FileJobElements.Output
        /// Frames (or audio buffers) that reached the encoder.
        let written: BufferCounter?
        /// End of stream at the file sink: the muxer has finished the file.
        let finished: EndOfStreamWatch?
        /// Where end of stream goes in to finish the file's video (its audio: `endInputStreams`).
        let encoderInput: Pad?

        var file: FileJob.Output { elements.file }
    }

    let job: FileJob
    /// Frames (or audio buffers) the decoding source produced.
    let decoded: BufferCounter?
    let outputs: [Output]
    /// Where the decoded video (or audio) enters the rest of the pipeline.
    private let decodedInput: Pad?
    /// Where the input's audio enters each output's audio branch, and where it leaves its queue.
    /// Each audio branch's input, and its encoder's output, where Ctrl-C cuts it: past the queue, a
    /// muxer holds as much audio as the video encoder's latency (x264's lookahead, near 2 s), so a cut
    /// at the queue came too late.
    private let audioBranches: [(input: Pad, encoded: Pad)]
    /// What the input turned out to hold, learnt as its streams appear (on streaming threads).
    private let streams = InputStreams()

    private final class InputStreams: Sendable {
        private struct State {
            /// Caps of streams no installed decoder takes.
            var undecodable: [Caps] = []
            /// Set when the decoding source exposed no stream of the description's kind that it could take.
            var streamMissing = false
            /// Set once the first set of streams was looked at.
            var streamsSeen = false
        }
        private let state = Locked(State())

        var undecodable: [Caps] { state.withLock { $0.undecodable } }
        var streamMissing: Bool { state.withLock { $0.streamMissing } }
        func addUndecodable(_ caps: Caps) { state.withLock { $0.undecodable.append(caps) } }
        func setStreamMissing() { state.withLock { $0.streamMissing = true } }
        /// True the first time only: the branches are decided once, for the streams the input starts
        /// with; streams a chained file adds later are not linked (`DecodedPads`).
        func firstStreams() -> Bool {
            state.withLock { state in
                defer { state.streamsSeen = true }
                return !state.streamsSeen
            }
        }
    }

    /// The decoding source, and the pipeline to find an error's element in.
    let inputElement: Element?
    private(set) weak var pipeline: Pipeline?

    init(job: FileJob, elements: FileJobElements, pipeline: Pipeline, note: @escaping @Sendable (String) -> Void) {
        self.job = job
        self.pipeline = pipeline
        inputElement = elements.input?.source
        let decodedInput = elements.input?.decoded.pad(named: "sink")
        self.decodedInput = decodedInput
        // Before the frames are counted: the frames it holds back before its seek are none decoded.
        if let range = job.range, let decodedInput {
            let audio = elements.outputs.compactMap { $0.audio?.converter.pad(named: "sink") }
            RangeCut.apply(range, video: decodedInput, audio: audio, isVideo: job.media == .video) {
                [weak source = elements.input?.source] text in source?.postError(text)
            }
        }
        decoded = decodedInput?.countBuffers()
        audioBranches = elements.outputs.compactMap { output in
            guard let branch = output.audio, let input = branch.converter.pad(named: "sink"),
                let encoded = branch.encoder.pad(named: "src")
            else { return nil }
            return (input, encoded)
        }
        if let input = job.input, let inputElements = elements.input, let decodedInput {
            Self.watchStreams(
                of: inputElements, input: input, job: job, outputs: elements.outputs, pipeline: pipeline,
                decodedInput: decodedInput, streams: streams, note: note)
        }
        outputs = elements.outputs.map { output in
            let encoderInput = output.converter.pad(named: "sink")
            return Output(
                elements: output, written: encoderInput?.countBuffers(),
                finished: output.sink?.pad(named: "sink")?.watchEndOfStream(), encoderInput: encoderInput)
        }
    }

    /// True for a message from the decoding source itself (not the elements inside it).
    func isFromInput(_ source: String?) -> Bool {
        guard let source, let inputElement else { return false }
        return source == inputElement.name
    }

    /// Once the decoding source has exposed its streams, and before data flows: without video (or
    /// audio, for an audio description) the run fails (`inputFailure` says why); an audio branch that got the input's audio is linked to
    /// its muxer, one the input cannot feed (no audio, or no decoder for it) is taken out, so the
    /// muxer never waits for it.
    private static func watchStreams(
        of input: FileJobElements.Input, input file: FileJob.Input, job: FileJob, outputs: [FileJobElements.Output],
        pipeline: Pipeline, decodedInput: Pad, streams: InputStreams, note: @escaping @Sendable (String) -> Void
    ) {
        input.source.onUnknownType { caps in streams.addUndecodable(caps) }
        let pads = input.pads
        // The handlers live as long as the source, which the pipeline holds: they hold the source and
        // the pipeline weakly, or neither would ever be freed (the run holds the source meanwhile).
        input.source.onNoMorePads { [weak pipeline, weak source = input.source] in
            guard let pipeline, let source, streams.firstStreams() else { return }
            defer { pads.closeAudio() }
            let unknown = streams.undecodable
            guard decodedInput.isLinked else {
                streams.setStreamMissing()
                source.postError("no \(job.media) stream could be decoded")
                return
            }
            if job.media == .video, let alpha = AlphaVideo.note(inside: source, of: pipeline, name: file.name) {
                note(alpha)
            }
            // Caps asked for when not set yet: a webrtc:// input's pads have none before data flows.
            let hasAudio = source.sourcePads.contains {
                ($0.currentCaps ?? $0.queryCaps()).mediaType?.hasPrefix("audio/") == true
            }
            let undecodableAudio = unknown.first { $0.mediaType?.hasPrefix("audio/") == true }
            // An output that shares the audio encoder of the one that got the input's audio has audio too.
            let fedMuxers = Set(outputs.flatMap { $0.audio?.muxerQueues.map(\.muxer.name) ?? [] })
            let fed = outputs.filter { $0.muxer.map { fedMuxers.contains($0.name) } ?? false }
            let notes = job.notesIfAudio.filter { text in
                !fed.contains { FileJob.videoOnlyNote($0.file.path) == text }
            }
            if hasAudio || undecodableAudio != nil { notes.forEach(note) }
            for output in outputs {
                guard let branch = output.audio, let branchInput = branch.converter.pad(named: "sink") else { continue }
                if branchInput.isLinked {
                    connectAudioBranch(branch, of: output, note: note)
                    continue
                }
                // Receivers that refuse pictures alone (RTMP ingest) get silence where the input has no sound:
                // this output's, or those of the outputs its audio is shared with.
                let muxers = Set(branch.muxerQueues.map(\.muxer.name))
                let sharers = outputs.filter { $0.muxer.map { muxers.contains($0.name) } ?? false }
                if (sharers + [output]).contains(where: { $0.file.stream?.needsAudio == true }),
                    (try? FileJobElements.feedSilence(into: branch, of: output)) != nil
                {
                    connectAudioBranch(branch, of: output, note: note)
                    continue
                }
                removeAudioBranch(branch)
                if let undecodableAudio {
                    note(
                        "the audio of \(file.name) cannot be decoded (no \(undecodableAudio.decoderDescription) "
                            + "installed): writing video only")
                }
            }
        }
    }

    /// Links an audio branch that got the input's audio to a pad its muxer makes on request (the
    /// muxer has not started, no data has flowed yet); a branch with a sink of its own is linked
    /// already.
    private static func connectAudioBranch(
        _ branch: FileJobElements.AudioBranch, of output: FileJobElements.Output, note: @Sendable (String) -> Void
    ) {
        guard branch.sink == nil, let muxer = output.muxer else { return }
        do throws(GStreamerError) {
            if branch.muxerQueues.isEmpty {
                try FileJobElements.linkAudio(from: branch.encoder, into: muxer)
            }
            // Shared with the outputs of its group (`SharedEncodes`): a queue into each one's muxer.
            for (queue, muxer) in branch.muxerQueues {
                try FileJobElements.linkAudio(from: queue, into: muxer)
            }
        } catch {
            note("\(output.file.path) gets video only: \(error.message)")
            removeAudioBranch(branch)
        }
    }

    /// Takes an audio branch out before any data flows: stopped, and out of its bin. `DecodedPads`
    /// holds its elements on, and links no more audio once the branches are decided.
    private static func removeAudioBranch(_ branch: FileJobElements.AudioBranch) {
        for element in branch.elements {
            _ = try? element.setState(.null)
            if let bin = element.parent as? Bin { try? bin.remove(element) }
        }
    }

    /// Why the run failed, when the input is to blame: it is not media, holds no video (or audio)
    /// that can be decoded, or its reading failed before any came. Nil for any other error.
    func inputFailure(after error: GStreamerError) -> String? {
        guard let input = job.input else { return nil }
        let streamMissing = streams.streamMissing
        let beforeVideo = isFromInputBeforeVideo(error.source)
        guard streamMissing || error.isUnknownType || error.isMissingPlugin || beforeVideo else { return nil }
        let reason =
            FileJob.diagnose(input, media: job.media)
            ?? (streamMissing
                ? "cannot use the \(job.media) of \(input.name): it does not link to what follows it in the "
                    + "description (-v shows the caps)"
                : beforeVideo
                    ? "cannot read \(input.name): \(error.message)"
                        + (StreamInput.advice(reading: input.uri, failedWith: error.message).map { " (\($0))" } ?? "")
                    : nil)
        guard let reason else { return nil }
        // The outputs never got a frame: no note about them, as when the input is refused up front.
        outputs.forEach { _ = remove($0) }
        return reason
    }

    /// True for a message from the decoding source's own elements (demuxer, parser, decoder) while
    /// it has given no video (or audio) yet: it is about reading the input, which `inputFailure`
    /// speaks to.
    func isFromInputBeforeVideo(_ source: String?) -> Bool {
        guard (decoded?.count ?? 0) == 0, let source, let inputElement,
            let element = pipeline?.element(named: source)
        else { return false }
        return element.name == inputElement.name || element.isInside(inputElement)
    }

    /// Ends the input's streams where the video is now (Ctrl-C): end of stream into the decoded video,
    /// and the audio cut where the last video frame ends (for an audio description: end of stream
    /// into the decoded audio). End of stream sent to the pipeline alone is
    /// lost when a demuxer pulls from the file source.
    func endInputStreams() {
        // End of stream first: it waits for the frame passing the pad, and none passes after it. The last
        // frame read before it could be one short, and the audio then ended a frame before the video.
        decodedInput?.sendEndOfStream()
        // The cut is the last frame's end, not its start: audio cut at its start stopped up to a frame
        // (40 ms at 25 fps) before the picture did, and nothing can lengthen it after. Audio past the
        // video's end is shortened to it afterwards (`TrackEnds`, in an MP4's edit list).
        let cut = decoded?.lastEnd
        for branch in audioBranches where branch.input.isLinked {
            guard let cut else {
                _ = branch.input.sendEndOfStream()
                continue
            }
            // The encoder's output ends itself once the sound reaches the cut. End of stream into the sound
            // now would end it where it is, and a live input's sound can be behind the picture (it came up
            // to 40 ms short). A sound that has stopped coming gets end of stream a second later.
            branch.encoded.endStream(atTimestamp: cut)
            let input = branch.input
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(1)) { _ = input.sendEndOfStream() }
        }
    }

    /// A count of frames for the progress line: decoded, else written; nil for an audio
    /// description, whose buffers are no frames (the line shows time alone).
    var framesCounter: BufferCounter? {
        guard job.media == .video else { return nil }
        return decoded ?? outputs.first?.written
    }

    /// After end of stream: the error to report when the input gave no video (or audio) at all (the
    /// outputs, which hold nothing, are removed), or when it stopped well before the length the file
    /// claims (truncated: GStreamer's demuxers end quietly there; the outputs stay, finalized).
    func checkAfterEndOfStream(interrupted: Bool) -> String? {
        guard let input = job.input, let decoded else { return nil }
        if decoded.count == 0 {
            outputs.forEach { _ = remove($0) }
            if interrupted { return nil }
            if job.media == .audio {
                return "no audio was decoded from \(input.name): the file is damaged or holds no sound"
            }
            return "no video frames were decoded from \(input.name): the file is damaged or holds no pictures"
        }
        // A range ends where it was asked to, before the file does.
        guard !interrupted, job.range == nil else { return nil }
        // One image ends the stream on purpose: no truncation to look for.
        let stillImage = outputs.contains { $0.file.format.isImage && !OutputFormat.isSequence($0.file.path) }
        guard !stillImage, let duration = decodedInput?.peerDuration,
            let last = decoded.lastEnd, let position = decodedInput?.streamTime(of: last)
        else { return nil }
        // Slack for containers whose length counts a last frame shown for long (variable frame rate)
        // or a longer audio track: two seconds, or a tenth of the length.
        let slack = max(2_000_000_000, duration / 10)
        guard position + slack < duration else { return nil }
        var message =
            "\(input.name) ends early: its \(job.media) stops at \(ProgressLine.time(position)) of "
            + "\(ProgressLine.time(duration)) (the file is truncated or damaged)"
        for output in outputs {
            message += "\n  \(output.file.path) holds \(contents(of: output, "decoded")), and is finalized"
        }
        return message
    }

    /// After end of stream, once the pipeline has stopped and the files are closed, what the muxers
    /// of GStreamer 1.22 write wrongly or not at all:
    ///
    /// - the creation time: the input's (from an MP4, QuickTime, Matroska or WebM input) in place of
    ///   the time of writing;
    /// - in MP4 and QuickTime, the input's display matrix when pictures were kept as stored
    ///   (`--no-autorotate`), which mp4mux and qtmux leave out (`MovieHeader`);
    /// - in Matroska and WebM, tag values unquoted (`MatroskaMetadata`);
    /// - in MP4 and QuickTime from a network input, the audio's edit list ending with the video (`TrackEnds`).
    ///
    /// Notes what could not be written.
    func completeMetadata(note: (String) -> Void) {
        let inputPath = job.input.flatMap { URL(string: $0.uri) }.flatMap { $0.isFileURL ? $0.path : nil }
        var header = inputPath.flatMap(MovieHeader.read(from:)) ?? MovieHeader()
        if header.creationTime == nil, let date = inputPath.flatMap(MatroskaMetadata.creationDate(ofFileAt:)) {
            header.creationDate = date
        }
        if job.autorotate { header.videoMatrix = nil }
        for output in outputs where FileManager.default.fileExists(atPath: output.file.path) {
            let path = output.file.path
            switch output.file.format.muxer {
            case "matroskamux", "webmmux":
                do {
                    try MatroskaMetadata.repair(fileAt: path, creationDate: header.creationDate)
                } catch {
                    note("\(path) keeps its tags as matroskamux wrote them: \(error.localizedDescription)")
                }
            case "mp4mux", "qtmux":
                // A live run stopped at any moment: the audio's last buffers go past the video's last frame.
                if job.input?.isNetwork == true {
                    do {
                        try TrackEnds.endAudioWithVideo(inFileAt: path)
                    } catch {
                        note("\(path): its audio may end after its video: \(error.localizedDescription)")
                    }
                }
                guard header != MovieHeader() else { continue }
                do {
                    try MovieHeader.write(header, to: path)
                } catch {
                    note("\(path) keeps GStreamer's creation time and no display matrix: \(error.localizedDescription)")
                }
            default: continue
            }
        }
    }

    /// After an error: each output that got frames is finished (end of stream into its encoder and
    /// audio branch, then wait for the muxer to finish); each that got none is removed. An output
    /// whose own elements failed is said to be incomplete.
    func finishAfterError(_ error: GStreamerError, note: (String) -> Void) async {
        guard !outputs.isEmpty else { return }
        let failed = outputs.filter { output in error.source.map(output.elements.elementNames.contains) ?? false }
        let toFinish = outputs.filter { output in
            !failed.contains { $0.file.path == output.file.path } && (output.written?.count ?? 0) > 0
        }
        // End of stream goes in from a thread of its own: sending it waits for the streaming thread to
        // let go of the pad, and one stuck there must not hold the run. The wait below is bounded, and
        // stopping the pipeline afterwards releases such a thread.
        let encoderInputs = toFinish.compactMap(\.encoderInput)
        Thread { [self] in
            endInputStreams()
            encoderInputs.forEach { _ = $0.sendEndOfStream() }
        }.start()
        for output in outputs {
            let path = output.file.path
            // A network stream leaves no file behind to call complete or not.
            if let stream = output.file.stream, !stream.isFile { continue }
            if failed.contains(where: { $0.file.path == path }) {
                note("\(path) is incomplete: writing it failed")
                continue
            }
            guard toFinish.contains(where: { $0.file.path == path }) else {
                if remove(output) { note("removed \(path): nothing was written before the error") }
                continue
            }
            if await output.finished?.wait(timeout: .seconds(5)) == true {
                note("\(path) holds \(contents(of: output, "written before the error")), and is finalized")
            } else {
                note("\(path) is incomplete: the error stopped it before it was finalized")
            }
        }
    }

    /// What reached an output, for messages: "the 39 frames written", or for audio (whose buffers
    /// are no unit a user knows) "the audio written (0:00:01.5)".
    private func contents(of output: Output, _ how: String) -> String {
        guard output.file.media == .audio else { return "the \(output.written?.count ?? 0) frames \(how)" }
        return "the audio \(how) (\(ProgressLine.time(output.written?.lastEnd ?? 0)))"
    }

    private func remove(_ output: Output) -> Bool {
        guard !OutputFormat.isSequence(output.file.path) else { return false }
        return (try? FileManager.default.removeItem(atPath: output.file.path)) != nil
    }

    /// What to do about some common runtime errors, or nil.
    static func advice(for error: GStreamerError) -> String? {
        if error.isMissingPlugin {
            return "install the decoders: sudo apt-get install gstreamer1.0-libav gstreamer1.0-plugins-bad "
                + "gstreamer1.0-plugins-ugly"
        }
        if error.isCannotWrite {
            return "check that the folder exists and that you may write to it"
        }
        return nil
    }
}
