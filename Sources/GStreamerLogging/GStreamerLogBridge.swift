import GStreamer
import Logging

/// GStreamer's debug log into a swift-log `Logger`, opt-in: nothing is installed until the application
/// calls ``install(logger:removingDefaultWriter:)``, and ``remove()`` takes it out again. Each line becomes
/// one log record with the level mapped (``level(for:)``), the category as the record's source and in the
/// `gst.category` metadata, the object's name in `gst.object`, and GStreamer's file, function and line.
///
/// The corresponding C function is `gst_debug_add_log_function`.
public final class GStreamerLogBridge: Sendable {
    private let handler: DebugLogHandler

    private init(_ handler: DebugLogHandler) { self.handler = handler }

    /// Starts sending GStreamer's debug log to `logger`. Which lines GStreamer logs is still set by each
    /// category's threshold (`GST_DEBUG`, `DebugLog.setThresholds`); the logger's own level then filters
    /// them again.
    ///
    /// - Parameters:
    ///   - logger: Where the records go; its handler must not log to GStreamer's debug log.
    ///   - removingDefaultWriter: True to stop GStreamer's own writer (standard error) while the bridge is
    ///     installed, so lines are not printed twice.
    /// - Returns: The bridge, to remove it.
    /// - Throws: `GStreamerError` when GStreamer cannot be initialized.
    public static func install(
        logger: Logger, removingDefaultWriter: Bool = false
    ) throws(GStreamerError) -> GStreamerLogBridge {
        let handler = try DebugLog.addHandler(removingDefaultWriter: removingDefaultWriter) { message in
            var metadata: Logger.Metadata = ["gst.category": .string(message.category)]
            if let object = message.objectName { metadata["gst.object"] = .string(object) }
            logger.log(
                level: level(for: message.level), "\(message.text)", metadata: metadata, source: message.category,
                file: message.file, function: message.function, line: UInt(clamping: message.line))
        }
        return GStreamerLogBridge(handler)
    }

    /// Stops the records; GStreamer's own writer comes back if the bridge took it out. Removing twice
    /// does nothing.
    public func remove() { handler.remove() }

    /// The swift-log level of a GStreamer debug level: error and warning as they are, fixme as notice,
    /// info and debug as they are, and the finer levels (log, trace, memdump) as trace.
    ///
    /// - Parameter level: A GStreamer debug level.
    /// - Returns: The swift-log level its records get.
    public static func level(for level: DebugLevel) -> Logger.Level {
        switch level {
        case .none, .error: .error
        case .warning: .warning
        case .fixme: .notice
        case .info: .info
        case .debug: .debug
        case .log, .trace, .memdump: .trace
        }
    }
}
