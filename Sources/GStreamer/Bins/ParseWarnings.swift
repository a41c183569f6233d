import CGStreamer
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// GLib's warnings while a description is parsed. gst_parse sets each `property=value` with
/// g_object_set_property, which only warns when a value is out of range (`num-buffers=-2`) and keeps
/// the default: the pipeline would then run as the user did not ask (endlessly, for num-buffers).
/// Warnings raised on a thread while it parses are collected here and become a parse error; any
/// other GLib-GObject warning goes to GLib's default handler as before. `Element.set` collects the
/// same way: a property set from Swift that GLib refuses throws GLib's reason.
enum ParseWarnings {
    private static let collecting = Mutex<[UInt: [String]]>([:])

    private static let handler: Void = {
        let levels = GLogLevelFlags(rawValue: G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_CRITICAL.rawValue)
        g_log_set_handler(
            "GLib-GObject", levels,
            { domain, level, message, _ in
                if let message, ParseWarnings.record(String(cString: message)) { return }
                g_log_default_handler(domain, level, message, nil)
            }, nil)
    }()

    /// Runs `parse`, returning its result and the GLib-GObject warnings it raised on this thread.
    static func collect<T>(_ parse: () -> T) -> (T, [String]) {
        _ = handler
        let thread = UInt(pthread_self())
        collecting.withLock { $0[thread] = [] }
        let result = parse()
        let warnings = collecting.withLock { $0.removeValue(forKey: thread) } ?? []
        return (result, warnings)
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
