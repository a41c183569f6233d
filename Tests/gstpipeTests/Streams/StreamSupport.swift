import Foundation

/// A process running beside the test (a gstpipe server, an ffmpeg client), its output drained as it
/// comes; killed when the test lets go of it.
final class Spawned: @unchecked Sendable {
    // Written at init only; the process and readers are thread-safe themselves.
    let process = Process()
    private let out: Reader
    private let err: Reader

    init(_ executable: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        process.environment = environment
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        try process.runUnblocked()
        out = Reader(outPipe.fileHandleForReading)
        err = Reader(errPipe.fileHandleForReading)
    }

    /// gstpipe from this build.
    static func gstpipe(_ arguments: [String]) throws -> Spawned { try Spawned(CLI.binary.path, arguments) }

    /// ffmpeg, quiet but for errors, reporting its progress on stdout (`FFmpegRead`).
    static func ffmpeg(_ arguments: [String]) throws -> Spawned {
        try Spawned("/usr/bin/ffmpeg", ["-hide_banner", "-nostdin", "-nostats", "-progress", "pipe:1"] + arguments)
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the end (SIGKILL after `timeout` seconds: status -1). It waits by sleeping as a task,
    /// not by blocking its thread: a stream test waits tens of seconds, and blocked threads would
    /// starve the other tests' tasks on the two cores' cooperative pool.
    func finish(timeout: TimeInterval) async -> CLIResult {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        var timedOut = false
        if process.isRunning {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return CLIResult(
            status: timedOut ? -1 : process.terminationStatus, stdout: out.text(), stderr: err.text(),
            signaled: process.terminationReason == .uncaughtSignal)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        // Foundation's Process holds itself through the run loop source `run()` makes until `waitUntilExit()` lets
        // go of it: a process never waited for (a network namespace's holder, killed here) would stay allocated,
        // and LeakSanitizer would report it at the end of the test run. After SIGKILL the wait is short.
        process.waitUntilExit()
    }
}

/// What ffmpeg decoded from a stream: frames (from `-progress`) and the picture size (from its
/// stream line).
struct FFmpegRead: CustomStringConvertible {
    let frames: Int
    let width: Int?
    let height: Int?
    let result: CLIResult

    init(_ result: CLIResult) {
        self.result = result
        let frameLines = result.stdout.split(separator: "\n").filter { $0.hasPrefix("frame=") }
        frames = frameLines.last.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) } ?? 0
        let size = result.stderr.firstMatch(of: #/Video: [^\n]*?, (\d{2,5})x(\d{2,5})/#)
        width = size.flatMap { Int($0.1) }
        height = size.flatMap { Int($0.2) }
    }

    var description: String {
        "\(frames) frames \(width ?? 0)x\(height ?? 0), status \(result.status): \(result.stderr.suffix(600))"
    }
}

/// ffprobe's count of each stream's frames, one line of `entries` (comma-separated, as
/// `codec_name,width,height,nb_read_frames`) per stream, for a file or a playlist.
func probeStreams(_ path: String, entries: String, videoOnly: Bool = false) async throws -> [String] {
    let result = try await Spawned(
        "/usr/bin/ffprobe",
        [
            "-v", "error", "-count_frames", "-show_entries", "stream=\(entries)", "-of", "csv=p=0", path
        ] + (videoOnly ? ["-select_streams", "v:0"] : [])
    ).finish(timeout: 30)
    return result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}

enum StreamPorts {
    /// True when this machine has a route for a multicast group (a default route, or one for
    /// 224.0.0.0/4): connecting a UDP socket looks the route up and sends nothing.
    static let canSendMulticast: Bool = {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(9).bigEndian
        address.sin_addr.s_addr = inet_addr("239.255.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }()

    private static let counter = NSLock()
    // Below Linux's ephemeral range (32768 and up), where the RTSP server's and the clients' own UDP ports go.
    nonisolated(unsafe) private static var next = 20000 + Int(getpid() % 300) * 40

    /// An even port no other test of this process uses, with the odd one above it (RTP's receivers
    /// take the next port for RTCP); another process's tests start elsewhere.
    static func take() -> Int {
        counter.lock()
        defer { counter.unlock() }
        next += 2
        return next - next % 2
    }

    /// Waits until something accepts TCP connections on 127.0.0.1:`port`.
    static func waitForListener(_ port: Int, timeout: TimeInterval = 15) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(fd)
            if connected == 0 { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }
}

/// The test pattern the stream tests send: 320x240 gray, live at 30 fps.
func liveGray(frames: Int) -> [String] {
    [
        "videotestsrc", "is-live=true", "num-buffers=\(frames)", "!", "video/x-raw,width=320,height=240,framerate=30/1",
        "!", "gray"
    ]
}
