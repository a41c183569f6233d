import Foundation
import GstPipeSupport
import MediaIO
import Synchronization

/// The line a terminal shows while a pipeline runs: position / duration, percent, then frames and
/// frames per second when there are frames to count (`frames` gives nil for an audio run, whose line
/// is time alone). Redrawn five times a second in place; only when stdout is a terminal (the caller
/// checks).
final class ProgressLine: Sendable {
    private let pipeline: Pipeline
    private let frames: @Sendable () -> Int?
    private let started = ContinuousClock.now
    private struct State {
        var task: Task<Void, Never>?
        var shown = false
        var finished = false
    }
    private let state = Locked(State())

    init(pipeline: Pipeline, frames: @escaping @Sendable () -> Int?) {
        self.pipeline = pipeline
        self.frames = frames
    }

    func start() {
        let task = Task { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(200))
                draw()
            }
        }
        state.withLock { $0.task = task }
    }

    /// Erases the line, so another message can be printed; the next redraw puts it back.
    func clear() {
        state.withLock { state in
            if state.shown { write("\r\u{1B}[K") }
            state.shown = false
        }
    }

    /// Stops redrawing and leaves the last line on screen.
    func finish() {
        let text = line
        state.withLock { state in
            state.task?.cancel()
            guard !state.finished else { return }
            state.finished = true
            if state.shown { write("\r\(text)\u{1B}[K\n") }
        }
    }

    private func draw() {
        let text = line
        state.withLock { state in
            guard !state.finished else { return }
            write("\r\(text)\u{1B}[K")
            state.shown = true
        }
    }

    var line: String {
        var parts: [String] = []
        let position = pipeline.position
        let duration = pipeline.duration
        if let position {
            parts.append(duration.map { "\(Self.time(position)) / \(Self.time($0))" } ?? Self.time(position))
            if let duration, duration > 0 { parts.append("\(min(100, position * 100 / duration))%") }
        }
        if let count = frames() {
            let seconds = Statistics.seconds(ContinuousClock.now - started)
            parts.append("\(count) frames")
            if seconds > 0 { parts.append(String(format: "%.1f fps", Double(count) / seconds)) }
        }
        return parts.joined(separator: "  ")
    }

    private func write(_ text: String) {
        writeStandardOutput(text)
    }

    /// 0:01:02.3
    static func time(_ nanoseconds: ClockTime) -> String {
        let tenths = nanoseconds / 100_000_000
        return String(format: "%d:%02d:%02d.%d", tenths / 36000, tenths / 600 % 60, tenths / 10 % 60, tenths % 10)
    }
}
