import Foundation
import GStreamer
import GstPipeSupport

/// How a run is doing, for what watches it from outside: the figures Prometheus scrapes
/// (``exposition()``), whether it is healthy (``health``) and what happens in it (``events``,
/// ``onEvent(_:)``), as `gstpipe --metrics` and `--events` serve them.
///
/// Counters only go up, gauges say now, units are seconds and bytes, and labels are few and bounded: an
/// element's or an output's name, never a viewer's address. ``watch(_:input:outputs:silenceLimit:)``
/// counts what flows through a pipeline; what happens beside it is told by the code that sees it:
///
/// ```swift
/// let metrics = Metrics.shared
/// metrics.watch(pipeline)                       // frames, bytes, latency, drops, errors
/// metrics.started()
/// metrics.inputLost(reason: "the camera closed the connection")
/// metrics.inputBack(after: .seconds(4.2))
/// metrics.viewerJoined(output: "rtsp0")
/// metrics.recordingWritten(path: "rec/06-00-00.mp4", bytes: 3_145_728)
/// let text = metrics.exposition()               // serve it at /metrics
/// ```
///
/// Every method may be called from any thread. Text that may hold a secret (an error naming a URI with
/// its password) passes through the function given to ``setRedactor(_:)`` before it is kept.
public final class Metrics: Sendable {
    /// The process's metrics: the one `gstpipe` serves, and the one to tell what happens in a run.
    public static let shared = Metrics()

    /// Where the input stands.
    public enum InputState: String, Sendable, Equatable {
        /// No frame yet.
        case starting
        /// Frames arrive.
        case delivering
        /// The input was lost (``Metrics/inputLost(reason:)``) and has not come back yet.
        case lost
        /// The input ended (end of stream).
        case ended
    }

    struct State {
        var input = InputState.starting
        var inputLosses = 0
        var inputReconnects = 0
        var recordingsWritten = 0
        var recordingsDeleted = 0
        var recordingBytesWritten: Int64 = 0
        var recordingBytesOnDisk: Int64 = 0
        var errors = 0
        /// Viewers watching each output that serves viewers, and how many joined in all.
        var viewers: [String: (now: Int, joined: Int)] = [:]
        /// Frames each element said (in QoS messages) it dropped.
        var dropped: [String: UInt64] = [:]
        var handlers: [UInt64: @Sendable (MetricsEvent) -> Void] = [:]
        var nextHandler: UInt64 = 0
        var redact: @Sendable (String) -> String = { $0 }
        var watch: PipelineWatch?
    }

    let state = Locked(State())
    /// Held from a viewer count's change to its event's emission, and across `stopped`'s: a viewer that
    /// left on the server's thread while the run stopped had its count taken down before `stopped` looked,
    /// and its `viewer_left` written after `stopped` (an events file already closed lost it).
    private let viewerEvents = Locked(())

    /// Metrics of their own, apart from ``shared`` (a test, or several runs in one process).
    public init() {}

    /// Sets the function every text that may hold a secret passes through before it is kept or handed
    /// on: error messages, reasons, paths. gstpipe gives its own redactor, which masks passwords and
    /// tokens.
    ///
    /// - Parameter redact: Returns its argument with secrets masked.
    public func setRedactor(_ redact: @escaping @Sendable (String) -> String) {
        state.withLock { $0.redact = redact }
    }

    private func redacted(_ text: String) -> String {
        let redact = state.withLock { $0.redact }
        return redact(text)
    }

    // MARK: What happens

    /// The run started playing: a `started` event.
    public func started() { emit(.started) }

    /// The run ended with `exitStatus`: a `stopped` event.
    /// Viewers still watching leave first: a `viewer_left` for each, so that every `viewer_joined` has
    /// its `viewer_left` (a server closing with the process tells nobody).
    ///
    /// - Parameter exitStatus: The process's exit status.
    public func stopped(exitStatus: Int32) {
        viewerEvents.withLock { _ in
            let watching = state.withLock { state in
                state.viewers.filter { $0.value.now > 0 }.map { ($0.key, $0.value.now) }
            }
            for (output, viewers) in watching.sorted(by: { $0.0 < $1.0 }) {
                for _ in 0..<viewers { viewerCountDown(output: output) }
            }
            emit(.stopped(exitStatus: exitStatus))
        }
    }

    /// Errors counted so far (`gstpipe_errors_total`).
    public var errorCount: Int { state.withLock { $0.errors } }

    /// The input stopped delivering: `gstpipe_input_up` goes to 0, `gstpipe_input_losses_total` up by
    /// one, ``health`` to unhealthy, and an `input_lost` event says why. A loss while already lost counts
    /// nothing.
    ///
    /// - Parameter reason: Why, for people (redacted).
    public func inputLost(reason: String) {
        let reason = redacted(reason)
        let counted = state.withLock { state -> Bool in
            guard state.input != .lost else { return false }
            state.input = .lost
            state.inputLosses += 1
            return true
        }
        if counted { emit(.inputLost(reason: reason)) }
    }

    /// The input delivers again after a loss: `gstpipe_input_up` goes to 1,
    /// `gstpipe_input_reconnects_total` up by one, and an `input_back` event says after how long.
    ///
    /// - Parameter after: How long the input was away.
    public func inputBack(after: Duration) {
        state.withLock { state in
            state.input = .delivering
            state.inputReconnects += 1
        }
        watchedInput?.sawFrameNow()
        emit(.inputBack(after: after))
    }

    /// A viewer started watching `output` (its name in the metrics): `gstpipe_output_viewers` up by one
    /// and a `viewer_joined` event.
    ///
    /// - Parameter output: The output's name, as given to ``watch(_:input:outputs:silenceLimit:)``.
    public func viewerJoined(output: String) {
        viewerEvents.withLock { _ in
            let now = state.withLock { state -> Int in
                let before = state.viewers[output] ?? (0, 0)
                state.viewers[output] = (before.now + 1, before.joined + 1)
                return before.now + 1
            }
            emit(.viewerJoined(output: output, viewers: now))
        }
    }

    /// A viewer of `output` went: `gstpipe_output_viewers` down by one and a `viewer_left` event.
    ///
    /// - Parameter output: The output's name.
    public func viewerLeft(output: String) {
        viewerEvents.withLock { _ in viewerCountDown(output: output) }
    }

    /// `viewerLeft`'s work, under `viewerEvents`.
    private func viewerCountDown(output: String) {
        // A viewer already said gone (by ``stopped(exitStatus:)``) whose server closes later: nothing.
        let now = state.withLock { state -> Int? in
            let before = state.viewers[output] ?? (0, 0)
            guard before.now > 0 else { return nil }
            state.viewers[output] = (before.now - 1, before.joined)
            return before.now - 1
        }
        guard let now else { return }
        emit(.viewerLeft(output: output, viewers: now))
    }

    /// A recording is whole (renamed from its temporary name): `gstpipe_recordings_written_total` up by
    /// one, its bytes added to `gstpipe_recording_written_bytes_total` and to the bytes on disk, and a
    /// `recording_written` event.
    ///
    /// - Parameters:
    ///   - path: Its path (redacted).
    ///   - bytes: Its size.
    public func recordingWritten(path: String, bytes: Int64) {
        state.withLock { state in
            state.recordingsWritten += 1
            state.recordingBytesWritten += bytes
            state.recordingBytesOnDisk += bytes
        }
        emit(.recordingWritten(path: redacted(path), bytes: bytes))
    }

    /// A recording was deleted (retention): `gstpipe_recordings_deleted_total` up by one, its bytes taken
    /// from the bytes on disk, and a `recording_deleted` event.
    ///
    /// - Parameters:
    ///   - path: Its path (redacted).
    ///   - bytes: Its size.
    public func recordingDeleted(path: String, bytes: Int64) {
        state.withLock { state in
            state.recordingsDeleted += 1
            state.recordingBytesOnDisk = max(0, state.recordingBytesOnDisk - bytes)
        }
        emit(.recordingDeleted(path: redacted(path), bytes: bytes))
    }

    /// Sets the bytes the recordings take on disk (`gstpipe_recording_bytes`), as counted in the
    /// recordings' folder: files kept from earlier runs included. No event.
    ///
    /// - Parameter bytes: Their total size.
    public func recordingsOnDisk(bytes: Int64) {
        state.withLock { $0.recordingBytesOnDisk = bytes }
    }

    /// An error: `gstpipe_errors_total` up by one and an `error` event. A watched pipeline's bus errors
    /// are counted without this call.
    ///
    /// - Parameters:
    ///   - message: What went wrong (redacted).
    ///   - element: The element it came from, if any.
    public func error(_ message: String, element: String? = nil) {
        state.withLock { $0.errors += 1 }
        emit(.error(message: redacted(message), element: element))
    }

    /// Frames an element said it dropped, in its QoS messages (a running total per element).
    func dropped(_ frames: UInt64, by element: String) {
        state.withLock { state in state.dropped[element] = max(state.dropped[element] ?? 0, frames) }
    }

    /// The input's first frame.
    func inputDelivers() {
        state.withLock { state in if state.input == .starting { state.input = .delivering } }
    }

    /// The input's end of stream.
    func inputEnded() {
        state.withLock { state in if state.input != .lost { state.input = .ended } }
    }

    /// Declares an output that serves viewers, so its viewer gauge shows 0 before the first one.
    func servesViewers(_ output: String) {
        state.withLock { state in if state.viewers[output] == nil { state.viewers[output] = (0, 0) } }
    }

    // MARK: Events

    /// A handler registered with ``Metrics/onEvent(_:)``; cancel it to stop the calls.
    public struct EventSubscription: Sendable {
        let metrics: Metrics
        let id: UInt64

        /// Stops calling the handler.
        public func cancel() {
            _ = metrics.state.withLock { $0.handlers.removeValue(forKey: id) }
        }
    }

    /// Calls `handler` with each event from now on, on the thread that reports it (a streaming thread,
    /// the RTSP server's, a task's), until the subscription is cancelled. Keep it short.
    ///
    /// - Parameter handler: Gets each event.
    /// - Returns: The subscription, to cancel it.
    @discardableResult
    public func onEvent(_ handler: @escaping @Sendable (MetricsEvent) -> Void) -> EventSubscription {
        let id = state.withLock { state -> UInt64 in
            state.nextHandler += 1
            state.handlers[state.nextHandler] = handler
            return state.nextHandler
        }
        return EventSubscription(metrics: self, id: id)
    }

    /// The events from now on, as an AsyncSequence; each access subscribes anew, and ending the
    /// iteration (or its task) unsubscribes. Up to 1000 unread events wait; past that the oldest go.
    public var events: AsyncStream<MetricsEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: MetricsEvent.self, bufferingPolicy: .bufferingNewest(1000))
        let subscription = onEvent { continuation.yield($0) }
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }

    func emit(_ kind: MetricsEvent.Kind) {
        let event = MetricsEvent(kind)
        let handlers = state.withLock { $0.handlers.sorted { $0.key < $1.key }.map(\.value) }
        for handler in handlers { handler(event) }
    }

    // MARK: Health

    /// Whether the input delivers, as `/healthz` says it.
    public struct Health: Sendable, Equatable {
        /// True while the input delivers: it has sent a frame, is not lost or ended, and its last frame
        /// is more recent than the watch's silence limit.
        public let isHealthy: Bool
        /// Where the input stands.
        public let input: InputState
        /// Seconds since the input's last frame; nil before the first, or when no pipeline is watched.
        public let secondsSinceFrame: Double?

        /// 200 when healthy, else 503, as `/healthz` answers.
        public var httpStatus: Int { isHealthy ? 200 : 503 }

        /// A short JSON object: `{"healthy":true,"input":"delivering","seconds_since_frame":0.033}`.
        public var json: String {
            var fields = [
                "\"healthy\":\(isHealthy)", "\"input\":\(JSONValue.string(input.rawValue).text)"
            ]
            if let secondsSinceFrame {
                fields.append("\"seconds_since_frame\":\(String(format: "%.3f", secondsSinceFrame))")
            }
            return "{" + fields.joined(separator: ",") + "}"
        }
    }

    /// Whether the input delivers now.
    public var health: Health {
        let (input, watch) = state.withLock { ($0.input, $0.watch) }
        let since = watch?.input.secondsSinceFrame
        let recent = since.map { $0 <= Metrics.seconds(watch?.silenceLimit ?? .seconds(10)) } ?? (watch == nil)
        return Health(isHealthy: input == .delivering && recent, input: input, secondsSinceFrame: since)
    }

    private var watchedInput: InputWatch? { state.withLock { $0.watch?.input } }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
