import Foundation
import GstPipeSupport

/// What a recording does, as it does it: each file written (renamed to its name once whole), each
/// file deleted by retention, and the failure that stopped it. Metrics, event lines and tests observe
/// a run's recording through this, never through the files themselves.
enum RecordingEvent: Sendable, Equatable {
    /// A file is whole under its name: where it is, the wall-clock time of its first frame, its length
    /// (seconds of stream time) and its size.
    case written(path: String, start: Date, duration: TimeInterval, bytes: Int64)
    /// Retention deleted a file (`--record-keep`, `--record-max-size`).
    case deleted(path: String)
    /// The recording could not go on (the disk full, its folder gone): the run ends with this message.
    case failed(message: String)
}

/// Where a run's `RecordingEvent`s go: to every observer, in the order they happen, on the thread
/// that made them (a bus handler's; an observer returns soon). An observer added late misses what came
/// before it.
final class RecordingEvents: Sendable {
    private let observers = Locked<[@Sendable (RecordingEvent) -> Void]>([])

    /// The events of the command line's own run (`gstpipe --record`): metrics and event lines observe
    /// this one.
    static let run = RecordingEvents()

    init() {}

    /// Calls `observer` with every event from now on.
    func observe(_ observer: @escaping @Sendable (RecordingEvent) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// The events from now on as an asynchronous sequence, for code that awaits them; it ends never
    /// (a run's recording has no end event), so a reader stops reading when it has what it wants.
    func stream() -> AsyncStream<RecordingEvent> {
        let (stream, continuation) = AsyncStream<RecordingEvent>.makeStream()
        observe { continuation.yield($0) }
        return stream
    }

    /// Hands `event` to every observer.
    func send(_ event: RecordingEvent) {
        for observer in observers.withLock({ $0 }) { observer(event) }
    }
}
