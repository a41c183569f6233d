import CGStreamer
import GstPipeSupport
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
/// Each parse installs a GLib-GObject handler of its own for its length, and removes it after: an
/// application's own handler for that domain is shadowed for the length of a parse at most, never replaced
/// for the process's life. GLib calls the newest handler of a domain, so a handler shared by all parses
/// (installed by the first of several at once) could be older than the application's: then a parse that
/// started after the application installed its handler lost its warnings to it, and did not fail (seen
/// when another test parsed at the same moment). A warning from a thread that does not parse goes to
/// GLib's default handler.
enum ParseWarnings {
    /// The warnings of each thread collecting now, by thread.
    private static let collecting = Locked<[UInt: [String]]>([:])

    /// Runs `parse`, returning its result and the GLib-GObject warnings it raised on this thread.
    static func collect<T>(_ parse: () -> T) -> (T, [String]) {
        let thread = UInt(pthread_self())
        collecting.withLock { $0[thread] = [] }
        let handler = installHandler()
        let result = parse()
        // Removed outside the lock: GLib holds its own while it removes, and a handler running on
        // another thread may be waiting for ours.
        g_log_remove_handler("GLib-GObject", handler)
        let warnings = collecting.withLock { $0.removeValue(forKey: thread) ?? [] }
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
        return collecting.withLock { collecting in
            guard collecting[thread] != nil else { return false }
            collecting[thread]?.append(message)
            return true
        }
    }
}
