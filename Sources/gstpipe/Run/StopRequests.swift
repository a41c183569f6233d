import Foundation
import GstPipeSupport
import MediaIO
import Synchronization

/// What ends a run before its end of stream: SIGINT (Ctrl-C), SIGTERM (`kill`, `timeout`, systemd,
/// Docker), SIGHUP (the SSH session closed) and, in the terminal preview, the keys Ctrl-C, q and Escape.
///
/// The first request sends end of stream, so muxers finalize their files, and the run ends with the
/// request's exit status; the second stops at once. With `--no-eos-on-shutdown` the first stops at once.
final class StopRequests: Sendable {
    /// Why a stop was asked for.
    enum Reason: Sendable, Equatable {
        case signal(Int32)
        /// Ctrl-C typed into the terminal preview, which reads keys itself: a SIGINT in all but name.
        case interruptKey
        /// q or Escape in the terminal preview: the viewer closed, as in a player.
        case quitKey

        /// 128 plus the signal's number, as shells report a process a signal ended; 0 for quit.
        var exitStatus: Int32 {
            switch self {
            case .signal(let number): 128 + number
            case .interruptKey: ExitStatus.interrupted
            case .quitKey: ExitStatus.finished
            }
        }

        /// What the note calls it, and how to ask again.
        var name: (what: String, again: String) {
            switch self {
            case .signal(SIGTERM): ("SIGTERM", "send it again to stop at once")
            case .signal(SIGHUP): ("SIGHUP", "send it again to stop at once")
            case .signal, .interruptKey: ("interrupt", "Ctrl-C again to stop at once")
            case .quitKey: ("quit", "q again to stop at once")
            }
        }
    }

    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// True once a stop was asked for in this process: what holds a streaming thread waiting (the WHIP
    /// output's wait for its connection) lets go, so the end of stream sent after it can pass.
    static var isStopping: Bool { stopping.load(ordering: .acquiring) }
    private static let stopping = Atomic(false)

    private let first = Locked<Reason?>(nil)
    private let count = Locked(0)
    /// Dispatch's signal sources, touched only at start and by `cancel()`.
    private let sources = Locked<[any DispatchSourceSignal]>([])
    private let pipeline: Pipeline
    private let endInputStreams: @Sendable () -> Void
    private let eosOnShutdown: Bool
    private let note: @Sendable (String) -> Void
    private let beforeExit: @Sendable () -> Void

    /// `endInputStreams` ends the file shorthand's streams as well (a demuxer pulling from a file
    /// source never hears of end of stream sent to the source). `beforeExit` runs before a second
    /// request ends the process (the terminal is given back), which skips `atexit` handlers.
    init(
        pipeline: Pipeline, endInputStreams: @escaping @Sendable () -> Void, eosOnShutdown: Bool,
        note: @escaping @Sendable (String) -> Void, beforeExit: @escaping @Sendable () -> Void = {}
    ) {
        self.pipeline = pipeline
        self.endInputStreams = endInputStreams
        self.eosOnShutdown = eosOnShutdown
        self.note = note
        self.beforeExit = beforeExit
        sources.withLock { sources in
            for number in Self.signals {
                // Ignored as a signal, seen as an event: also keeps libraries (ncurses under the
                // terminal preview) from installing handlers of their own that exit without end of stream.
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [weak self] in self?.request(.signal(number)) }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Asks the run to stop: end of stream the first time (unless `--no-eos-on-shutdown`), at once
    /// the second.
    func request(_ reason: Reason) {
        let presses = count.withLock { value -> Int in
            value += 1
            return value
        }
        first.withLock { if $0 == nil { $0 = reason } }
        Self.stopping.store(true, ordering: .releasing)
        if presses == 1 && eosOnShutdown {
            note("\(reason.name.what): sending end of stream (\(reason.name.again))")
            pipeline.sendEndOfStream()
            endInputStreams()
        } else {
            // Stopping waits for each streaming thread to leave the element it is in; one stuck in
            // a slow element (or a blocked write) gets a second, then the process ends without it.
            let stopped = DispatchSemaphore(value: 0)
            let pipeline = pipeline
            Thread.detachNewThread {
                pipeline.stop()
                stopped.signal()
            }
            _ = stopped.wait(timeout: .now() + 1)
            beforeExit()
            _exit(reason.exitStatus)
        }
    }

    /// True once a stop was asked for: an end of stream that follows is the user's, not the input's.
    var wasRequested: Bool { first.withLock { $0 != nil } }

    /// The exit status for a run that reached its end of stream: the first request's, or 0.
    var exitStatus: Int32 { first.withLock { $0?.exitStatus } ?? ExitStatus.finished }

    /// Gives the signals back their default actions.
    func cancel() {
        for (number, source) in zip(Self.signals, sources.withLock { $0 }) {
            source.cancel()
            signal(number, SIG_DFL)
        }
    }
}
