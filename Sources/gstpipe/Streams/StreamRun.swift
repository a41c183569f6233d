import Foundation
import MediaIO
import Synchronization

/// The stream outputs of a run while it runs: RTSP servers listening before the pipeline starts,
/// the session description of `rtp://` outputs said (or written to `--sdp FILE`), and, at end of
/// stream, a wait until RTSP clients have been sent it.
struct StreamRun {
    let servers: [RTSPServer]
    /// The `webrtc://` outputs' servers.
    let webrtc: [WebRTCServer]
    /// SRT outputs: their sockets must stay open a while after end of stream.
    let srt: [StreamDestination]

    /// Starts what the job's stream outputs need before the pipeline plays.
    init(
        job: FileJob, outputs: [FileJobElements.Output], sdpFile: String?, note: @escaping @Sendable (String) -> Void
    ) async throws(FileJob.Failure) {
        var servers: [RTSPServer] = []
        var webrtc: [WebRTCServer] = []
        for output in outputs {
            guard let stream = output.file.stream else { continue }
            // WebRTC viewers ask for key frames themselves as they join, and when they lose one.
            if output.file.media == .video && stream.kind != .webrtc {
                Self.keyFrames(every: Self.keyFrameInterval, into: output.encoder)
            }
            switch stream.kind {
            case .webrtc:
                guard let appsink = output.sink else { continue }
                let server = try await WebRTCServer(destination: stream, appsink: appsink, note: note)
                webrtc.append(server)
                note(server.startNote)
            case .rtsp:
                guard let appsink = output.sink else { continue }
                let server = try RTSPServer(
                    destination: stream, appsink: appsink, mpegTS: output.file.format.muxer == "mpegtsmux")
                servers.append(server)
                note("serving \(server.url) (open it with ffplay, VLC or gst-play-1.0; any number of viewers)")
            case .rtp:
                try Self.announce(stream, sdpFile: sdpFile, note: note)
            default:
                continue
            }
        }
        if sdpFile != nil && !job.outputs.contains(where: { $0.stream?.kind == .rtp }) {
            throw .usage("--sdp FILE describes an rtp:// output, and this description has none")
        }
        self.servers = servers
        self.webrtc = webrtc
        srt = job.outputs.compactMap(\.stream).filter { $0.kind == .srt }
    }

    /// The longest a viewer who joins late waits for a key frame.
    static let keyFrameInterval: ClockTime = 2_000_000_000

    /// Asks `encoder` for a key frame whenever `interval` of stream time has passed since the last one
    /// asked for. x264enc's own `key-int-max` counts frames and is fixed before the frame rate is known:
    /// 30 frames are a second at 30 frames a second but six at 5, so time is kept here.
    private static func keyFrames(every interval: ClockTime, into encoder: Element) {
        guard let pad = encoder.pad(named: "sink") else { return }
        let next = Mutex<ClockTime?>(nil)
        // The probe holds the pad wrapper (a wrapper made here, so a weak one would be gone at once):
        // the encoder's pad then lives as long as the process, one per stream output of the command.
        pad.addProbe(.buffer) { info in
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

    /// Writes the session description to `sdpFile`, or prints it on standard output.
    private static func announce(
        _ stream: StreamDestination, sdpFile: String?, note: (String) -> Void
    ) throws(FileJob.Failure) {
        guard let sdpFile else {
            note("receivers of \(stream.uri) need this session description (save it as stream.sdp; "
                + "ffplay -protocol_whitelist file,udp,rtp stream.sdp):")
            // Unbuffered, before the progress line: a reader of a pipe gets it at once.
            FileHandle.standardOutput.write(Data(stream.sessionDescription.utf8))
            return
        }
        do {
            try stream.sessionDescription.write(toFile: sdpFile, atomically: true, encoding: .utf8)
        } catch {
            throw .runtime("cannot write the session description to \(sdpFile): \(error.localizedDescription)")
        }
        note("session description for \(stream.uri) written to \(sdpFile) "
            + "(ffplay -protocol_whitelist file,udp,rtp \(sdpFile))")
    }

    /// After end of stream: each RTSP server sends it on to its clients (up to two seconds), and SRT
    /// receivers get the last packets, which they hold for the latency before playing: closing the
    /// socket at once would lose them (SRT's live mode does not linger).
    func finish() {
        for server in servers { _ = server.waitUntilFinished(timeout: .seconds(2)) }
        let latency = srt.map { Int($0.option("latency") ?? "") ?? 125 }.max()
        if let latency { Thread.sleep(forTimeInterval: Double(latency * 2 + 300) / 1000) }
    }

    /// Disconnects every RTSP client and stops listening: after the pipeline has stopped.
    func close() {
        servers.forEach { $0.close() }
        webrtc.forEach { $0.close() }
    }
}
