import Foundation
import GstPipeParsing
import GstPipeSupport
import MediaIO
import Synchronization

/// One connection to a reconnecting input (`ReconnectingInput`): a pipeline of its own that reads
/// the URI as the run's pipeline would (uridecodebin, or the input's own source for `whep+http://`)
/// and hands each decoded frame to `deliver`, converted to `caps` once the first connection has
/// fixed them (`videoconvert ! videoscale ! videorate ! capsfilter`), so that a camera back at
/// another size, rate or format gives the outputs the frames they started with. With `audio` (an
/// output carries the input's audio), the first audio stream goes the same way to `deliverAudio`
/// (`audioconvert ! audioresample ! capsfilter`), interleaved, in a sample format whose silence is
/// zeros, and converted to the first connection's audio caps once they are fixed; otherwise the
/// input's audio is left out (`sawAudio` says it has some). `streams` says once, when the source has
/// exposed its streams (no-more-pads), whether the audio is linked. The appsinks do not synchronize:
/// a frame is handed on as soon as it is decoded, and `ReconnectingInput` paces it. Synchronized,
/// each frame would wait out rtspsrc's latency (2 s) on top of the run's own, and the first one
/// would come after a short `--timeout` had already given up on the connection.
///
/// It ends (`ended`, once) on an error, at end of stream, or when `stop` is called; the caller stops
/// it, on a queue of its own: rtspsrc may wait seconds for a server that is gone.
final class InputAttempt: Sendable {
    private let pipeline: Pipeline
    private let session: (any InputSession)?
    /// The appsink's and the source's handlers, disconnected at `stop`: each holds an element or pad
    /// of the pipeline, which would otherwise outlive it.
    private let connections: [SignalConnection]
    private let state = Locked(State())

    private struct State {
        var ended = false
        var stopped = false
    }

    /// The audio the first connection may have to give: raw and interleaved, in a sample format whose
    /// silence is zeros (`ReconnectingInput` fills a loss with zeros), at the input's rate and channels.
    static let audioCaps = "audio/x-raw,layout=interleaved,format=(string){ S16LE, S32LE, F32LE, F64LE }"

    /// What the connection reads besides its video.
    struct Audio: Sendable {
        /// The caps the first connection's audio was fixed to, nil before.
        var caps: Caps?
        /// Gets each audio buffer on its streaming thread.
        var deliver: @Sendable (Sample) -> Void
        /// Called once, when the source has exposed its streams: whether audio is linked.
        var streams: @Sendable (_ hasAudio: Bool) -> Void
    }

    /// Makes and starts the pipeline for `input`; `deliver` gets each frame on the streaming thread,
    /// `audio` (when the input's audio is carried) each audio buffer, `ended` the reason the
    /// connection ended (once, on any thread).
    init(
        input: FileJob.Input, live: StreamInput, settings: StreamSettings, caps: Caps?,
        deliver: @escaping @Sendable (Sample) -> Void, audio: Audio? = nil, sawAudio: @escaping @Sendable () -> Void,
        ended: @escaping @Sendable (String) -> Void
    ) async throws(GStreamerError) {
        pipeline = try Pipeline(name: "gstpipe-input-connection")
        let source: Element
        if let makeSource = live.makeSource {
            let session = try makeSource(input.uri, .video, pipeline)
            self.session = session
            source = session.element
        } else {
            session = nil
            source = try ElementSpec("uridecodebin", [("uri", .string(input.uri))]).make(in: pipeline)
            StreamInput.setUpSource(
                of: source, properties: live.sourceProperties(settings), credentials: input.credentials)
        }
        let capsText = caps?.description ?? "video/x-raw"
        let chain = [
            try ElementSpec("videoconvert").make(in: pipeline), try ElementSpec("videoscale").make(in: pipeline),
            // Duplicates a frame to make up the rate, never to cover a gap: a demuxer announces the
            // silence of a live stream (a GAP event), which videorate would fill with copies of the
            // last frame for ever, hiding the loss (`ReconnectingInput` fills gaps itself).
            try ElementSpec("videorate", [("max-duplication-time", .text("200000000"))]).make(in: pipeline),
            try ElementSpec("capsfilter", [("caps", .string(capsText))]).make(in: pipeline)
        ]
        let sink = try Element(factory: "appsink")
        try pipeline.add(sink)
        try sink.set("sync", false)
        try sink.set("max-buffers", fromString: "2")
        try sink.set("emit-signals", true)
        let samples = try Self.handOn(from: sink, to: deliver)
        for (upstream, downstream) in zip(chain, chain.dropFirst() + [sink]) { try upstream.link(to: downstream) }
        let decoded = chain[0].pad(named: "sink")
        var handlers = [samples]
        var audioInput: Pad?
        if let audio {
            let audioChain = [
                try ElementSpec("audioconvert").make(in: pipeline), try ElementSpec("audioresample").make(in: pipeline),
                try ElementSpec("capsfilter", [("caps", .string(audio.caps?.description ?? Self.audioCaps))])
                    .make(in: pipeline)
            ]
            let audioSink = try Element(factory: "appsink")
            try pipeline.add(audioSink)
            try audioSink.set("sync", false)
            try audioSink.set("max-buffers", fromString: "8")
            try audioSink.set("emit-signals", true)
            handlers.append(try Self.handOn(from: audioSink, to: audio.deliver))
            for (upstream, downstream) in zip(audioChain, audioChain.dropFirst() + [audioSink]) {
                try upstream.link(to: downstream)
            }
            audioInput = audioChain[0].pad(named: "sink")
            let told = Locked(false)
            handlers.append(
                source.onNoMorePads { [audioInput] in
                    guard
                        told.withLock({ told in
                            defer { told = true }
                            return !told
                        })
                    else { return }
                    audio.streams(audioInput?.isLinked == true)
                })
        }
        // The first video stream, and the first audio one when it is carried; anything else stays unlinked.
        handlers.append(
            source.onPadAdded { [audioInput] pad in
                let type = (pad.currentCaps ?? pad.queryCaps()).mediaType ?? ""
                if type.hasPrefix("audio/") {
                    guard let audioInput else { return sawAudio() }
                    if !audioInput.isLinked { _ = try? pad.link(to: audioInput) }
                }
                guard let decoded, !decoded.isLinked, type.hasPrefix("video/") else { return }
                _ = try? pad.link(to: decoded)
            })
        connections = handlers
        let end: @Sendable (String) -> Void = { [weak self] reason in
            guard let self else { return }
            let first = state.withLock { state in
                defer { state.ended = true }
                return !state.ended && !state.stopped
            }
            if first { ended(reason) }
        }
        pipeline.setSyncHandler { posted in
            switch posted.message {
            case .error(let error): end(Secrets.redact(error.message))
            case .endOfStream: end("end of stream")
            default: break
            }
            return .pass
        }
        if let session {
            do {
                try await session.start(settings: settings, note: { _ in })
            } catch {
                stop()
                throw GStreamerError(kind: .runtime, message: Self.reason(error))
            }
        }
        do {
            try pipeline.play()
        } catch {
            stop()
            throw error
        }
    }

    /// Hands each sample of `sink` (an appsink emitting signals) to `deliver`, on its streaming thread.
    private static func handOn(
        from sink: Element, to deliver: @escaping @Sendable (Sample) -> Void
    ) throws(GStreamerError) -> SignalConnection {
        try sink.connectReturning("new-sample") { [sink] _ in
            guard let sample = try? sink.emit("pull-sample").sample else { return .enumeration(-3, nick: "eos") }
            deliver(sample)
            return .enumeration(0, nick: "ok")
        }
    }

    private static func reason(_ failure: FileJob.Failure) -> String {
        switch failure {
        case .usage(let message), .runtime(let message): Secrets.redact(message)
        }
    }

    /// Ends the connection: the pipeline stopped (blocking while its source closes: call it off
    /// Swift's cooperative pool), `ended` not called any more.
    func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        pipeline.setSyncHandler(nil)
        pipeline.stop()
        connections.forEach { $0.disconnect() }
        session?.close()
    }
}
