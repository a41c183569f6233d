import CGStreamer
import Foundation
import GstPipeParsing
import GstPipeSupport
import MediaIO
import Synchronization

// Everything gstpipe says goes out through these two writes, which hide secrets (`Secrets.redact`):
// a message is redacted where it leaves, whatever code made it (a GStreamer error quoting an
// element's location, an address in a note).

/// Writes `ERROR: text` (or another prefix, `WARNING`) to standard error.
func printError(_ text: String, prefix: String = "ERROR") {
    if prefix == "ERROR" { lastErrorPrinted.withLock { $0 = text } }
    writeStandardError("\(prefix): \(text)\n")
}

/// The last error said on standard error: what the `error` event says of a run that ends on it when
/// nothing else reported it (a usage error found once the events file is open, a failure to start).
let lastErrorPrinted = Locked<String?>(nil)

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
/// creates as it starts) as GStreamer would have written them. Call it before GStreamer starts: a
/// `%p` or `%r` in `GST_DEBUG_FILE` is expanded here, once, and the expanded name put back in the
/// environment, so that GStreamer and this writer use the same file.
func redactGStreamerLog(debugFile: String? = ProcessEnvironment.value("GST_DEBUG_FILE")) {
    var descriptor = STDERR_FILENO
    if let name = debugFile, !name.isEmpty, name != "-" {
        let path = expandDebugFileName(name)
        if path != name { setenv("GST_DEBUG_FILE", path, 1) }
        let file = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        if file >= 0 { descriptor = file }
    }
    try? DebugLog.redirect { [descriptor] line in write(line, to: descriptor) }
    // What GStreamer prints with g_print when the log asks for detail goes through here as well:
    // gst-rtsp-server dumps each RTSP message (`GST_DEBUG=rtspclient:6`), a Basic password included.
    g_set_print_handler { text in if let text { writeStandardOutput(String(cString: text)) } }
    g_set_printerr_handler { text in if let text { writeStandardError(String(cString: text)) } }
    redactGLibLog()
}

/// Whether GLib's log (`g_log`, `g_warning`, `g_critical`: plugins and libraries log there, a URI
/// with its password included) goes through `write`. GLib takes a writer once per process.
private let glibLogRedacted = Locked(false)

/// Sends GLib's structured log, which every `g_log` call reaches, through the redacting write: GLib's
/// default writer prints to standard error itself. Lines are formatted and dropped as GLib's default
/// writer would (`G_MESSAGES_DEBUG` decides which debug and info lines show).
func redactGLibLog() {
    let installed = glibLogRedacted.withLock { installed in
        defer { installed = true }
        return installed
    }
    guard !installed else { return }
    g_log_set_writer_func(
        { level, fields, count, _ in
            guard let fields else { return G_LOG_WRITER_UNHANDLED }
            var domain: UnsafePointer<CChar>?
            for index in 0..<Int(count) where strcmp(fields[index].key, "GLIB_DOMAIN") == 0 {
                domain = fields[index].value?.assumingMemoryBound(to: CChar.self)
            }
            if g_log_writer_default_would_drop(level, domain) != 0 { return G_LOG_WRITER_HANDLED }
            guard let line = g_log_writer_format_fields(level, fields, count, 0) else { return G_LOG_WRITER_UNHANDLED }
            defer { g_free(line) }
            writeStandardError(String(cString: line) + "\n")
            return G_LOG_WRITER_HANDLED
        }, nil, nil)
}

/// `GST_DEBUG_FILE` as GStreamer reads it: the first `%p` becomes the process id, then the first `%r` a
/// random number (so several processes can log side by side).
func expandDebugFileName(
    _ name: String, processID: Int32 = getpid(), random: UInt32 = UInt32.random(in: 0...UInt32.max)
) -> String {
    var name = name
    if let range = name.range(of: "%p") { name.replaceSubrange(range, with: String(processID)) }
    if let range = name.range(of: "%r") { name.replaceSubrange(range, with: String(random)) }
    return name
}

private func write(_ text: String, to descriptor: Int32) {
    var text = Secrets.redact(text)
    text.withUTF8 { bytes in _ = Foundation.write(descriptor, bytes.baseAddress, bytes.count) }
}
