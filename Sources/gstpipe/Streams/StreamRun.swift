import Foundation
import GstPipeSupport
import MediaIO
import Synchronization

/// The stream outputs of a run while it runs: what each starts beside the pipeline before it plays
/// (`StreamOutput.start`: RTSP servers listening, the session description of `rtp://` said), a key
/// frame every two seconds of stream time into each, and, at end of stream, a wait until the servers'
/// clients and the receivers have been sent it.
struct StreamRun {
    let servers: [any StreamServer]
    /// Seconds to keep the pipeline after end of stream (`StreamOutput.lingerAfterEnd`), the longest
    /// any output asks for.
    let linger: TimeInterval

    /// Starts what the job's live input (`input`: the WHIP server of a `webrtc://` input, or a WHEP client's session) and stream outputs need before the
    /// pipeline plays; what started is closed again when one of them cannot start.
    init(
        job: FileJob, input: (any InputSession)? = nil, outputs: [FileJobElements.Output], settings: StreamSettings,
        note: @escaping @Sendable (String) -> Void
    ) async throws(FileJob.Failure) {
        var servers: [any StreamServer] = []
        do {
            if let input {
                try await input.start(settings: settings, note: note)
                servers.append(input)
            }
            // Once an encoder: outputs that share one (`SharedEncodes`) would each ask for the same frame.
            var asked: Set<String> = []
            for output in outputs {
                guard let stream = output.file.stream else { continue }
                if output.file.media == .video && stream.wantsRegularKeyFrames
                    && asked.insert(output.encoder.name).inserted
                {
                    Self.keyFrames(every: Self.keyFrameInterval, into: output.encoder)
                }
                if let server = try await stream.start(output, settings: settings, note: note) {
                    servers.append(server)
                }
            }
        } catch {
            servers.forEach { $0.close() }
            throw error
        }
        let streams = job.outputs.compactMap(\.stream)
        try settings.check(against: streams, input: input)
        self.servers = servers
        linger = streams.map { $0.lingerAfterEnd }.max() ?? 0
    }

    /// The longest a viewer who joins late waits for a key frame.
    static let keyFrameInterval: ClockTime = 2_000_000_000

    /// Asks `encoder` for a key frame whenever `interval` of stream time has passed since the last one
    /// asked for. x264enc's own `key-int-max` counts frames and is fixed before the frame rate is known:
    /// 30 frames are a second at 30 frames a second but six at 5, so time is kept here.
    private static func keyFrames(every interval: ClockTime, into encoder: Element) {
        guard let pad = encoder.pad(named: "sink") else { return }
        let next = Locked<ClockTime?>(nil)
        // The pad comes with each call: captured, it would hold the probe that holds it, for the process's life.
        pad.addProbe(.buffer) { pad, info in
            guard let pts = info.buffer?.pts else { return .ok }
            let due = next.withLock { next -> Bool in
                // The first frame is a key frame anyway; a jump back in time (a new segment) starts over.
                guard let deadline = next, pts + interval >= deadline else {
                    next = pts + interval
                    return false
                }
                guard pts >= deadline else { return false }
                next = pts + interval
                return true
            }
            // Sent on this streaming thread, ahead of this buffer: the encoder makes it a key frame.
            if due { pad.send(.forceKeyUnit()) }
            return .ok
        }
    }

    /// After end of stream: each server sends it on to its clients, then the pipeline stays open
    /// for `linger` (SRT receivers get the last packets).
    func finish() async {
        for server in servers { await server.finish() }
        if linger > 0 { try? await Task.sleep(for: .seconds(linger)) }
    }

    /// Disconnects every client and stops listening: after the pipeline has stopped.
    func close() {
        servers.forEach { $0.close() }
    }
}
