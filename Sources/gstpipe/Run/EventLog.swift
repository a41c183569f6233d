import Foundation
import GstPipeMetrics
import GstPipeParsing

/// `--events FILE`: each of the run's events (`Metrics.shared`) as one JSON line, appended to FILE
/// (created if need be, so that a service restarted keeps its history) or written to standard output
/// for `-`. Each line is one write(2), so lines from several threads never mix.
final class EventLog: Sendable {
    private let descriptor: Int32
    private let subscription: Metrics.EventSubscription

    /// Opens `path`, or throws a usage error saying why it cannot.
    init(path: String, metrics: Metrics = .shared) throws(FileJob.Failure) {
        if path == "-" {
            descriptor = STDOUT_FILENO
        } else {
            descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw .usage(
                    "cannot write the events to \(path): \(String(cString: strerror(errno))) (--events takes a file "
                        + "to append to, or -)")
            }
        }
        let descriptor = descriptor
        subscription = metrics.onEvent { event in
            var line = Secrets.redact(event.jsonLine) + "\n"
            line.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
        }
    }

    /// Stops writing, and closes the file.
    func close() {
        subscription.cancel()
        if descriptor != STDOUT_FILENO { Foundation.close(descriptor) }
    }
}
