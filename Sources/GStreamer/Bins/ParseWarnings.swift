import CGStreamer
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// GLib's warnings while a description is parsed. gst_parse sets each `property=value` with
/// g_object_set_property, which only warns when a value is out of range (`num-buffers=-2`) and keeps
/// the default: the pipeline would then run as the user did not ask (endlessly, for num-buffers).
/// Warnings raised on a thread while it parses are collected here and become a parse error. `Element.set`
/// collects the same way: a property set from Swift that GLib refuses throws GLib's reason.
///
/// The GLib-GObject handler that collects them is installed only while some thread collects, and removed
/// when the last one ends (issue 29, item 13): an application's own handler for that domain is shadowed
/// for the length of a parse at most, never replaced for the process's life. A warning from another
/// thread meanwhile goes to GLib's default handler.
enum ParseWarnings {
    private struct State {
        /// The warnings of each thread collecting now, by thread.
        var collecting: [UInt: [String]] = [:]
        /// The handler's id while installed (some thread collects), else 0.
        var handlerID: guint = 0
    }

    private static let state = Mutex(State())

    /// Runs `parse`, returning its result and the GLib-GObject warnings it raised on this thread.
    static func collect<T>(_ parse: () -> T) -> (T, [String]) {
        let thread = UInt(pthread_self())
        state.withLock { state in
            if state.collecting.isEmpty { state.handlerID = installHandler() }
            state.collecting[thread] = []
        }
        let result = parse()
        let (warnings, removed) = state.withLock { state -> ([String], guint) in
            let warnings = state.collecting.removeValue(forKey: thread) ?? []
            guard state.collecting.isEmpty else { return (warnings, 0) }
            defer { state.handlerID = 0 }
            return (warnings, state.handlerID)
        }
        // Removed outside the lock: GLib holds its own while it removes, and a handler running on
        // another thread may be waiting for ours.
        if removed != 0 { g_log_remove_handler("GLib-GObject", removed) }
        return (result, warnings)
    }

    private static func installHandler() -> guint {
        let levels = GLogLevelFlags(rawValue: G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_CRITICAL.rawValue)
        return g_log_set_handler(
            "GLib-GObject", levels,
            { domain, level, message, _ in
                if let message, ParseWarnings.record(String(cString: message)) { return }
                g_log_default_handler(domain, level, message, nil)
            }, nil)
    }

    /// Keeps `message` when this thread is parsing; false when nobody collects it.
    private static func record(_ message: String) -> Bool {
        let thread = UInt(pthread_self())
        return state.withLock { state in
            guard state.collecting[thread] != nil else { return false }
            state.collecting[thread]?.append(message)
            return true
        }
    }
}
