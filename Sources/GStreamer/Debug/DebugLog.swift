import CGStreamer
import GstPipeSupport

/// GStreamer's debug log (`GST_DEBUG`): where its lines go.
///
/// By default GStreamer writes them itself, to standard error or `GST_DEBUG_FILE`. An application
/// that must see them first (to hide a password an element logs with its location, as rtspsrc does
/// at level 5) takes them over with ``redirect(_:)``. An application that wants them as well, as
/// values (category, level, text), adds a handler with ``addHandler(removingDefaultWriter:_:)``, and
/// logs lines of its own through a ``DebugCategory``.
public enum DebugLog {
    private static let handler = Locked<(@Sendable (String) -> Void)?>(nil)

    /// True once ``redirect(_:)`` took GStreamer's own writer out for good.
    static var isRedirected: Bool { handler.withLock { $0 != nil } }

    /// Sends every line of GStreamer's debug log to `handler` in place of GStreamer's own writer,
    /// from whichever thread logs. A line is what GStreamer would have written, without colours and
    /// with its newline. Later calls replace the handler. Initializes GStreamer if needed (its own
    /// writer is installed by initialization, and must be taken out after it).
    ///
    /// The corresponding C functions are `gst_debug_remove_log_function` (of `gst_debug_log_default`),
    /// `gst_debug_add_log_function` and `gst_debug_log_get_line`.
    ///
    /// - Parameter handler: Called with each line; it must not log to GStreamer's debug log itself.
    /// - Throws: ``GStreamerError`` when GStreamer cannot be initialized.
    public static func redirect(_ handler: @escaping @Sendable (String) -> Void) throws(GStreamerError) {
        try GStreamer.initialize()
        let installed = self.handler.withLock { current in
            defer { current = handler }
            return current != nil
        }
        guard !installed else { return }
        DefaultWriter.set(on: false)
        gst_debug_add_log_function(logLine, nil, nil)
    }

    /// The log function GStreamer calls: formats the line as its default writer would, and hands it on.
    private static let logLine: GstLogFunction = { category, level, file, function, line, object, message, _ in
        guard let category, let file, let function, let message,
            let text = gst_debug_log_get_line(category, level, file, function, line, object, message)
        else { return }
        let string = String(cString: text)
        g_free(text)
        DebugLog.handler.withLock { $0 }?(string)
    }
}

/// GStreamer's own writer, behind a switch. GStreamer walks its list of log functions without a lock,
/// and taking a function out frees its entry at once: a thread logging at that moment reads the freed
/// entry and calls whatever its bytes then hold. So functions are only ever added: GStreamer's own
/// writer is taken out once, as GStreamer is initialized and before any thread of a pipeline logs, and
/// this function, which calls it while the switch is on, goes in its place.
enum DefaultWriter {
    private static let state = Locked<(replaced: Bool, on: Bool)>((replaced: false, on: true))

    /// Puts this writer in GStreamer's own's place, if not yet done. Outside the lock: adding and removing
    /// log a line of their own (at level 5), which comes back through `write`.
    static func takeOver() {
        let first = state.withLock { state in
            defer { state.replaced = true }
            return !state.replaced
        }
        guard first else { return }
        gst_debug_add_log_function(write, nil, nil)
        gst_debug_remove_log_function(gst_debug_log_default)
    }

    /// Lets GStreamer's own writer print, or stops it.
    static func set(on: Bool) {
        takeOver()
        state.withLock { $0.on = on }
    }

    private static let write: GstLogFunction = { category, level, file, function, line, object, message, _ in
        guard DefaultWriter.state.withLock({ $0.on }) else { return }
        gst_debug_log_default(category, level, file, function, line, object, message, nil)
    }
}
