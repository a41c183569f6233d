import Foundation

/// The outcome of one run of the gstpipe binary.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
    /// The process was ended by a signal (then `status` is the signal's number), not by exit.
    var signaled = false
}

enum CLI {
    /// The gstpipe binary built beside this test bundle (or GSTPIPE_BINARY).
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["GSTPIPE_BINARY"] { return URL(fileURLWithPath: path) }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for directory in [beside, beside.deletingLastPathComponent()] {
            let candidate = directory.appendingPathComponent("gstpipe")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return Repository.url(".build/debug/gstpipe")
    }

    /// Runs gstpipe (or `executable`) with `arguments`; kills it after `timeout` seconds (then the status is -1).
    /// `interruptAfter` sends `signal` (SIGINT unless said) that many seconds after start (and again
    /// after `secondInterrupt`). `input` is written to the child's standard input at the times given
    /// (seconds after start); the pipe stays open until the child exits.
    static func run(
        _ arguments: [String], executable: URL = binary,
        environment: [String: String?] = ["DISPLAY": nil, "WAYLAND_DISPLAY": nil],
        timeout: TimeInterval = 60, interruptAfter: TimeInterval? = nil, secondInterrupt: TimeInterval? = nil,
        signal: Int32 = SIGINT, input: [(after: TimeInterval, bytes: [UInt8])] = []
    ) throws -> CLIResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inputPipe = input.isEmpty ? nil : Pipe()
        if let inputPipe { process.standardInput = inputPipe }
        var pendingInput = input
        try process.runUnblocked()
        let outData = Reader(out.fileHandleForReading)
        let errData = Reader(err.fileHandleForReading)
        let start = Date()
        var interrupted = 0
        while process.isRunning {
            let elapsed = Date().timeIntervalSince(start)
            if elapsed > timeout {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return CLIResult(status: -1, stdout: outData.text(), stderr: errData.text())
            }
            if let first = interruptAfter, interrupted == 0, elapsed > first {
                kill(process.processIdentifier, signal)
                interrupted = 1
            }
            if let second = secondInterrupt, interrupted == 1, elapsed > second {
                kill(process.processIdentifier, signal)
                interrupted = 2
            }
            if let next = pendingInput.first, elapsed > next.after, let inputPipe {
                inputPipe.fileHandleForWriting.write(Data(next.bytes))
                pendingInput.removeFirst()
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus, stdout: outData.text(), stderr: errData.text(),
            signaled: process.terminationReason == .uncaughtSignal)
    }
}

/// Drains a pipe on a background thread so a chatty child never blocks on a full pipe.
final class Reader: @unchecked Sendable {
    // `data` is written by the reading thread and read only after `done` is signalled.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}

extension Process {
    /// Starts the process with no signal blocked, as a shell would. A spawned process inherits its
    /// spawning thread's signal mask, and the test's threads (the concurrency pool's) block nearly
    /// every signal: a child, and all it starts, would ignore SIGTERM and SIGINT. The farm's Redis
    /// and Celery workers then waited out farm/local's 15 s each before SIGKILL.
    func runUnblocked() throws {
        var none = sigset_t()
        sigemptyset(&none)
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try run()
    }
}
