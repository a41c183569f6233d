import Foundation

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

private func write(_ text: String, to descriptor: Int32) {
    var text = Secrets.redact(text)
    text.withUTF8 { bytes in _ = Foundation.write(descriptor, bytes.baseAddress, bytes.count) }
}
