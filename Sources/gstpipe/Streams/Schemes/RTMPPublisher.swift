import Foundation
import GstPipeParsing
import GstPipeSupport
import MediaIO
import Synchronization

/// What publishes an `rtmp://` output: the run's FLV, taken as it reaches the output's sink (a
/// fakesink that keeps the run's pace), sent over a connection made in a pipeline of its own
/// (`RTMPConnection`: appsrc ! rtmp2sink).
///
/// A pipeline of its own because rtmp2sink, when the server drops the connection, fails its stream
/// (an error, and a flow error that stops flvmux and the run with it). Here a lost connection stops
/// its own pipeline alone: the run goes on, its FLV dropped meanwhile, and a new connection is made
/// after 1, 2, 4 ... 30 s (`ReconnectSchedule`; `--reconnect-max` gives up). A new connection starts
/// with the stream's headers (rtmp2sink sends the caps' `streamheader` first on each connection) and
/// the next key frame, which the encoder is asked for at once. The loss and the return are each said
/// once on stderr.
///
/// The first connection is different: failing before anything was published (nothing answers, the
/// server refuses the key) is an error that ends the run, since trying again would not mend it.
final class RTMPPublisher: StreamServer {
    private let output: RTMPOutput
    private let sink: Element
    private let schedule: ReconnectSchedule
    private let note: @Sendable (String) -> Void
    private let state = Locked(State())
    /// Where a connection's pipeline is stopped: off the streaming threads and Swift's pool.
    private let teardown = DispatchQueue(label: "gstpipe.rtmp.teardown")

    private struct State {
        /// The FLV's caps, with the headers each new connection starts with.
        var caps: Caps?
        var connection: RTMPConnection?
        /// True once the first connection published.
        var published = false
        /// When the connection was lost; nil while publishing.
        var awaySince: ContinuousClock.Instant?
        /// A new connection takes the stream from the next key frame on.
        var waitingForKeyFrame = false
        /// End of stream reached the output.
        var ended = false
        var closed = false
        var supervisor: Task<Void, Never>?
        var probe: PadProbe?
    }

    /// Connects to `output`'s server and takes the FLV that reaches `sink` (on the run's streaming thread).
    init(
        output: RTMPOutput, sink: Element, schedule: ReconnectSchedule, note: @escaping @Sendable (String) -> Void
    ) throws(GStreamerError) {
        self.output = output
        self.sink = sink
        self.schedule = schedule
        self.note = note
        let first = try connect(caps: nil)
        state.withLock { $0.connection = first }
        take(from: sink)
        state.withLock { $0.supervisor = Task { [weak self] in await self?.supervise(first) } }
    }

    /// A connection to the server, its pipeline playing (rtmp2sink connects at once).
    private func connect(caps: Caps?) throws(GStreamerError) -> RTMPConnection {
        try RTMPConnection(output: output, caps: caps) { [weak self] in self?.published() }
    }

    /// On the run's streaming thread: each FLV buffer goes to the connection (from a key frame on, for
    /// a new one), or nowhere while there is none; caps and end of stream go too.
    private func take(from sink: Element) {
        guard let input = sink.pad(named: "sink") else { return }
        let probe = input.addProbe([.buffer, .eventDownstream]) { [weak self] info in
            guard let self else { return .ok }
            if let event = info.event {
                let caps = event.caps
                let eos = event.typeName == "eos"
                let connection = state.withLock { state -> RTMPConnection? in
                    if let caps { state.caps = caps }
                    if eos { state.ended = true }
                    return state.closed ? nil : state.connection
                }
                if let caps { connection?.setCaps(caps) }
                if eos { connection?.endOfStream() }
                return .ok
            }
            guard let buffer = info.buffer else { return .ok }
            let connection = state.withLock { state -> RTMPConnection? in
                guard !state.closed, let connection = state.connection else { return nil }
                if state.waitingForKeyFrame {
                    guard FLVTag.isVideoKeyFrame(buffer) else { return nil }
                    state.waitingForKeyFrame = false
                }
                return connection
            }
            connection?.push(buffer)
            return .ok
        }
        state.withLock { $0.probe = probe }
    }

    /// A connection published its first buffer: the first connection is up, or a lost one is back.
    private func published() {
        let away = state.withLock { state -> Duration? in
            state.published = true
            defer { state.awaySince = nil }
            return state.awaySince.map { .now - $0 }
        }
        guard let away else { return }
        note("publishing to \(output.shown) again, after \(ReconnectingInput.seconds(away, decimals: 1))")
    }

    /// Waits for each connection to end; the first failing before it published ends the run, a later
    /// one is made again on the schedule until the run ends or `--reconnect-max` gives up.
    private func supervise(_ first: RTMPConnection) async {
        var connection = first
        var failures = 0
        var lossReason = ""
        while !Task.isCancelled {
            let reason = await connection.ended()
            let (closed, ended, published, awaySince) = state.withLock { state in
                if state.connection === connection { state.connection = nil }
                return (state.closed, state.ended, state.published, state.awaySince)
            }
            let finished = connection
            teardown.async { finished.stop() }
            if closed || Task.isCancelled || reason == nil { return }
            let why = reason ?? ""
            guard published else {
                sink.postError("cannot publish to \(output.shown): \(Self.explain(why, server: output.server))")
                return
            }
            if ended { return }
            let now = ContinuousClock.now
            if awaySince == nil {
                failures = 0
                lossReason = why
                state.withLock { $0.awaySince = now }
                note(
                    "the connection to \(output.shown) was lost (\(why)): publishing again as soon as it answers "
                        + "(tries after 1, 2, 4 ... 30 s)")
            }
            failures += 1
            let away = now - (awaySince ?? now)
            if schedule.givesUp(away: away) {
                giveUp(lossReason)
                return
            }
            try? await Task.sleep(for: schedule.sleep(beforeAttempt: failures, away: away))
            if let since = state.withLock({ $0.awaySince }), schedule.givesUp(away: .now - since) {
                giveUp(lossReason)
                return
            }
            let caps = state.withLock { $0.caps }
            guard let next = try? connect(caps: caps) else { continue }
            let current = state.withLock { state -> Bool in
                guard !state.closed else { return false }
                state.connection = next
                state.waitingForKeyFrame = true
                return true
            }
            guard current else {
                teardown.async { next.stop() }
                return
            }
            // The next frame the server gets must be a key frame: ask for one rather than wait up to 2 s.
            _ = sink.send(.forceKeyUnitUpstream())
            connection = next
        }
    }

    /// Away longer than `--reconnect-max`: an error that ends the run (exit 1).
    private func giveUp(_ reason: String) {
        guard let limit = schedule.giveUpAfter else { return }
        sink.postError(
            "\(output.shown) has been unreachable for \(ReconnectingInput.seconds(limit)) (--reconnect-max): giving up "
                + "(connection lost: \(reason))")
    }

    /// rtmp2sink's words for a connection that failed before publishing, with what they mean.
    static func explain(_ reason: String, server: String) -> String {
        if reason.contains("Connection refused") || reason.contains("Could not connect") {
            return "nothing answers at \(server) (\(reason))"
        }
        if reason.localizedCaseInsensitiveContains("certificate") || reason.contains("TLS") {
            return "the TLS connection to \(server) failed: is its certificate one this machine trusts? (\(reason))"
        }
        if reason.contains("closed remotely") || reason.contains("Connection error") {
            return "the server closed the connection as gstpipe began to publish: it refused the stream key or "
                + "the application (\(reason))"
        }
        return reason
    }

    /// After end of stream reached the output: waits, up to 5 s, for the connection to send it on (the
    /// server then ends the stream for its viewers).
    func finish() async {
        guard let connection = state.withLock({ $0.connection }) else { return }
        let deadline = ContinuousClock.now + .seconds(5)
        while !connection.hasSentEnd && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Closes the connection: after the run's pipeline has stopped.
    func close() {
        let (connection, supervisor, probe) = state.withLock { state in
            state.closed = true
            defer { state.connection = nil }
            return (state.connection, state.supervisor, state.probe)
        }
        supervisor?.cancel()
        probe?.remove()
        if let connection { teardown.async { connection.stop() } }
        teardown.sync {}
    }
}

/// One connection of an `RTMPPublisher`: `appsrc ! rtmp2sink` in a pipeline of its own, playing from
/// the start (rtmp2sink connects as it starts). It ends once, on an error (the reason) or when
/// stopped (nil).
final class RTMPConnection: Sendable {
    private let pipeline: Pipeline
    private let source: AppSrc
    private let state = Locked(State())
    private let endings: AsyncStream<String?>
    private let ending: AsyncStream<String?>.Continuation

    private struct State {
        /// When rtmp2sink took the first buffer.
        var firstBuffer: ContinuousClock.Instant?
        var published = false
        var sentEnd = false
        var ended = false
    }

    /// How long a connection must stay up after its first buffer to count as published: a server that
    /// refuses the key may do so only after rtmp2sink has begun to send (nginx's `deny publish` does).
    static let publishedAfter: Duration = .seconds(1)

    init(output: RTMPOutput, caps: Caps?, published: @escaping @Sendable () -> Void) throws(GStreamerError) {
        (endings, ending) = AsyncStream.makeStream(of: String?.self, bufferingPolicy: .bufferingNewest(1))
        pipeline = try Pipeline(name: "gstpipe-rtmp-connection")
        source = try AppSrc(name: "gstpipe-rtmp-source")
        source.format = .time
        source.isLive = true
        // Never blocking the run's streaming thread: while rtmp2sink connects, the FLV waits here; held
        // longer (a server that hangs), the newest is dropped, so the stream still starts at a key frame.
        source.block = false
        source.maxBuffers = 0
        source.maxBytes = 0
        source.maxTime = 10_000_000_000
        try source.set("leaky-type", fromString: "upstream")
        if let caps { source.caps = caps }
        let sender = try ElementFactory.make("rtmp2sink", name: "gstpipe-rtmp")
        try sender.set("scheme", fromString: output.isTLS ? "rtmps" : "rtmp")
        try sender.set("host", output.address.host)
        try sender.set("port", fromString: String(output.port))
        try sender.set("application", output.application)
        try sender.set("stream", output.key)
        // The run keeps the pace; this pipeline sends each buffer as it comes.
        try sender.set("sync", false)
        try sender.set("async", false)
        try pipeline.add(source)
        try pipeline.add(sender)
        try source.link(to: sender)
        // rtmp2sink holds the first buffer until the server has answered the publish; the connection
        // counts as published once buffers still go in `publishedAfter` later.
        sender.pad(named: "sink")?.addProbe(.buffer) { [weak self] _ in
            guard let self else { return .ok }
            let now = ContinuousClock.now
            let first = state.withLock { state -> Bool in
                guard let firstBuffer = state.firstBuffer else {
                    state.firstBuffer = now
                    return false
                }
                guard !state.published, !state.ended, now - firstBuffer >= Self.publishedAfter else { return false }
                state.published = true
                return true
            }
            if first { published() }
            return .ok
        }
        let end: @Sendable (String?) -> Void = { [weak self] reason in
            guard let self else { return }
            let first = state.withLock { state in
                defer { state.ended = true }
                return !state.ended
            }
            if first {
                ending.yield(reason)
                ending.finish()
            }
        }
        pipeline.setSyncHandler { [weak self] posted in
            switch posted.message {
            case .error(let error): end(Secrets.redact(error.message))
            case .endOfStream: self?.state.withLock { $0.sentEnd = true }
            default: break
            }
            return .pass
        }
        do {
            try pipeline.play()
        } catch {
            stop()
            throw error
        }
    }

    /// The FLV's caps (their `streamheader` is sent first on the connection).
    func setCaps(_ caps: Caps) { source.caps = caps }

    /// On the run's streaming thread: never blocks.
    func push(_ buffer: Buffer) { _ = source.push(buffer) }

    func endOfStream() { _ = source.endOfStream() }

    /// True once end of stream went through rtmp2sink.
    var hasSentEnd: Bool { state.withLock { $0.sentEnd } }

    /// Why the connection ended: the error's words, or nil when it was stopped.
    func ended() async -> String? {
        for await reason in endings { return reason }
        return nil
    }

    /// Stops the pipeline (blocking while rtmp2sink closes: call it off Swift's pool).
    func stop() {
        pipeline.setSyncHandler(nil)
        pipeline.stop()
        let first = state.withLock { state in
            defer { state.ended = true }
            return !state.ended
        }
        if first {
            ending.yield(nil)
            ending.finish()
        }
    }
}

/// The FLV tags flvmux writes, one a buffer, as far as the publisher reads them.
enum FLVTag {
    /// True for a video tag holding a key frame of H.264 (not its sequence header): a tag of type 9
    /// whose first data byte says frame type 1, then AVC packet type 1 (a NAL unit).
    static func isVideoKeyFrame(_ buffer: Buffer) -> Bool {
        (try? buffer.withBytes { bytes in
            bytes.count > 12 && bytes[0] == 9 && bytes[11] >> 4 == 1 && bytes[12] == 1
        }) ?? false
    }
}
