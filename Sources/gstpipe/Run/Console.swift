import Foundation
import MediaIO

// Everything gstpipe says goes out through these two writes, which hide secrets (`Secrets.redact`):
// a message is redacted where it leaves, whatever code made it (a GStreamer error quoting an
// element's location, an address in a note).

/// Writes `ERROR: text` (or another prefix, `WARNING`) to standard error.
func printError(_ text: String, prefix: String = "ERROR") {
    writeStandardError("\(prefix): \(text)\n")
}

/// Writes to standard error, secrets hidden, ignoring failure: after SIGHUP the terminal is gone and
/// every write fails, and the run must still finish its files.
func writeStandardError(_ text: String) {
    write(text, to: STDERR_FILENO)
}

/// Writes to standard output, secrets hidden, ignoring failure (as `writeStandardError`). Unbuffered,
/// unlike `print`: the progress line redraws in place with it.
func writeStandardOutput(_ text: String) {
    write(text, to: STDOUT_FILENO)
}

/// Takes GStreamer's debug log (`GST_DEBUG`) over, so that its lines are redacted too (rtspsrc logs its
/// location, password and all): to standard error, or appended to `GST_DEBUG_FILE` (which GStreamer
/// created as it started) as GStreamer would have written them.
func redactGStreamerLog(environment: [String: String] = ProcessInfo.processInfo.environment) {
    var descriptor = STDERR_FILENO
    if let path = environment["GST_DEBUG_FILE"], !path.isEmpty, path != "-" {
        let file = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        if file >= 0 { descriptor = file }
    }
    try? DebugLog.redirect { [descriptor] line in write(line, to: descriptor) }
}

private func write(_ text: String, to descriptor: Int32) {
    var text = Secrets.redact(text)
    text.withUTF8 { bytes in _ = Foundation.write(descriptor, bytes.baseAddress, bytes.count) }
}
