import Foundation
import MediaIO

/// The stream outputs of a run while it runs: RTSP servers listening before the pipeline starts,
/// the session description of `rtp://` outputs said (or written to `--sdp FILE`), and, at end of
/// stream, a wait until RTSP clients have been sent it.
struct StreamRun {
    let servers: [RTSPServer]

    /// Starts what the job's stream outputs need before the pipeline plays.
    init(job: FileJob, pipeline: Pipeline, sdpFile: String?, note: (String) -> Void) throws(FileJob.Failure) {
        var servers: [RTSPServer] = []
        for output in job.outputs {
            guard let stream = output.stream else { continue }
            switch stream.kind {
            case .rtsp:
                guard let appsink = pipeline.element(named: output.sinkName) else { continue }
                let server = try RTSPServer(destination: stream, appsink: appsink)
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

    /// After end of stream: each RTSP server sends it on to its clients (up to two seconds).
    func finish() {
        for server in servers { _ = server.waitUntilFinished(timeout: .seconds(2)) }
    }

    /// Disconnects every RTSP client and stops listening: after the pipeline has stopped.
    func close() {
        servers.forEach { $0.close() }
    }
}
