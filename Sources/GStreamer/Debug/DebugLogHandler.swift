import CGStreamer
import GstPipeSupport

/// One line of GStreamer's debug log, as a handler added with ``DebugLog/addHandler(removingDefaultWriter:_:)``
/// gets it.
///
/// The corresponding C type is `GstDebugMessage`, with the arguments of a `GstLogFunction`.
public struct DebugMessage: Sendable, Equatable {
    /// The category's name (`myapp`, `GST_STATES`, `videotestsrc`).
    public var category: String
    /// How much the line matters.
    public var level: DebugLevel
    /// The source file that logged it.
    public var file: String
    /// The function that logged it.
    public var function: String
    /// The line in `file`.
    public var line: Int
    /// The name of the element, pad or other GStreamer object the line is about; nil for none.
    public var objectName: String?
    /// The text.
    public var text: String
}

/// A handler of GStreamer's debug log (``DebugLog/addHandler(removingDefaultWriter:_:)``): it gets every line
/// any category logs at or below that category's threshold until it is removed.
public final class DebugLogHandler: Sendable {
    /// What one installed handler is: its closure, whether it took GStreamer's own writer out, and
    /// whose it is (the ``DebugLogHandler`` that removes it).
    struct Installed: Sendable {
        let handler: @Sendable (DebugMessage) -> Void
        let removedDefaultWriter: Bool
        let owner: UInt64
    }

    // What GStreamer's log function gets as its user data. A function is never taken out of GStreamer's
    // list (see DefaultWriter): removal empties its box, which the next handler added takes over, and
    // `all` keeps every box reachable for the life of the process.
    final class Box: Sendable {
        let installed = Locked<Installed?>(nil)
    }

    // Every box, and the last owner number given.
    private static let all = Locked<(boxes: [Box], owners: UInt64)>((boxes: [], owners: 0))
    private let box: Box
    private let owner: UInt64

    private init(_ box: Box, owner: UInt64) {
        self.box = box
        self.owner = owner
    }

    /// Stops the calls: the handler is no longer called, and what it captured is released. Brings
    /// back GStreamer's own writer if this handler took it out and no other handler still keeps it out.
    /// Removing twice does nothing.
    ///
    /// GStreamer's list keeps the function, empty (taking it out could free what another thread reads);
    /// the next handler added fills it again.
    public func remove() {
        let removed = box.installed.withLock { installed -> Installed? in
            guard let current = installed, current.owner == owner else { return nil }
            installed = nil
            return current
        }
        guard let removed, removed.removedDefaultWriter else { return }
        let othersKeepItOut = Self.all.withLock { all in
            all.boxes.contains { other in other.installed.withLock { $0?.removedDefaultWriter == true } }
        }
        if !othersKeepItOut && !DebugLog.isRedirected { DefaultWriter.set(on: true) }
    }

    static func add(
        removingDefaultWriter: Bool, _ handler: @escaping @Sendable (DebugMessage) -> Void
    ) -> DebugLogHandler {
        if removingDefaultWriter { DefaultWriter.set(on: false) }
        // An empty box takes the handler; only without one is a function added to GStreamer's list.
        let (box, owner, isNew) = all.withLock { all -> (Box, UInt64, Bool) in
            all.owners += 1
            let installed = Installed(handler: handler, removedDefaultWriter: removingDefaultWriter, owner: all.owners)
            let empty = all.boxes.first { box in box.installed.withLock { $0 == nil } }
            let box = empty ?? Box()
            box.installed.withLock { $0 = installed }
            if empty == nil { all.boxes.append(box) }
            return (box, all.owners, empty == nil)
        }
        if isNew {
            // Made here, read on any thread that logs: GStreamer walks its list of functions without a lock.
            let data = Unmanaged.passUnretained(box).toOpaque()
            HandOver.published(data)
            gst_debug_add_log_function(logFunction, data, nil)
        }
        return DebugLogHandler(box, owner: owner)
    }

    /// The log function GStreamer calls: the line as a `DebugMessage`, to the box's handler.
    private static let logFunction: GstLogFunction = { category, level, file, function, line, object, message, data in
        guard let category, let message, let data else { return }
        HandOver.received(data)
        guard let handler = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue().installed.withLock({ $0?.handler })
        else { return }
        handler(
            DebugMessage(
                category: String(cString: gst_debug_category_get_name(category)), level: DebugLevel(level),
                file: file.map { String(cString: $0) } ?? "", function: function.map { String(cString: $0) } ?? "",
                line: Int(line), objectName: object.flatMap(DebugLogHandler.objectName),
                text: gst_debug_message_get(message).map { String(cString: $0) } ?? ""))
    }

    /// The name of a GstObject (unlocked, as GStreamer's own writer reads it); nil for other GObjects.
    /// GStreamer also logs with a mini object or a structure as the "object" (a caps, a buffer, an
    /// event): those start with their GType, not a class pointer, and are told apart by it first, as
    /// GStreamer's own writer does, before the pointer is read as an instance.
    private static func objectName(_ object: UnsafeMutablePointer<GObject>) -> String? {
        let firstWord = UnsafeMutableRawPointer(object).load(as: GType.self)
        let notInstances = [
            gst_caps_get_type(), gst_structure_get_type(), gst_buffer_get_type(), gst_buffer_list_get_type(),
            gst_event_get_type(), gst_message_get_type(), gst_query_get_type(), gst_sample_get_type(),
            gst_tag_list_get_type(), gst_context_get_type(), gst_memory_get_type()
        ]
        guard !notInstances.contains(firstWord) else { return nil }
        let instance = UnsafeMutableRawPointer(object).assumingMemoryBound(to: GTypeInstance.self)
        guard g_type_check_instance_is_a(instance, gst_object_get_type()) != 0 else { return nil }
        return UnsafeMutableRawPointer(object).assumingMemoryBound(to: GstObject.self).pointee.name
            .map { String(cString: $0) }
    }
}

extension DebugLog {
    /// Adds `handler` to the readers of GStreamer's debug log, beside GStreamer's own writer (standard
    /// error) unless `removingDefaultWriter`. Nothing is installed until this is called; call
    /// ``DebugLogHandler/remove()`` to stop it. Lines come from whichever thread logs, at or below each
    /// category's threshold (`GST_DEBUG`, ``setThresholds(_:)``).
    ///
    /// The corresponding C functions are `gst_debug_add_log_function` and, when asked,
    /// `gst_debug_remove_log_function` (of `gst_debug_log_default`).
    ///
    /// - Parameters:
    ///   - removingDefaultWriter: True to take GStreamer's own writer out while the handler is installed.
    ///   - handler: Called with each line; it must not log to GStreamer's debug log itself.
    /// - Returns: The installed handler, to remove it.
    /// - Throws: ``GStreamerError`` when GStreamer cannot be initialized.
    public static func addHandler(
        removingDefaultWriter: Bool = false, _ handler: @escaping @Sendable (DebugMessage) -> Void
    ) throws(GStreamerError) -> DebugLogHandler {
        try GStreamer.initialize()
        return DebugLogHandler.add(removingDefaultWriter: removingDefaultWriter, handler)
    }

    /// Sets categories' thresholds as `GST_DEBUG` does: comma-separated `pattern:level` pairs (`myapp:5`,
    /// `GST_*:3`), a bare level for every category. Later pairs win where patterns overlap; thresholds set
    /// earlier stay unless a pattern here matches.
    ///
    /// The corresponding C function is `gst_debug_set_threshold_from_string`.
    ///
    /// - Parameter thresholds: The pairs, such as `"myapp:6,GST_STATES:4"`.
    /// - Throws: ``GStreamerError`` when GStreamer cannot be initialized.
    public static func setThresholds(_ thresholds: String) throws(GStreamerError) {
        try GStreamer.initialize()
        gst_debug_set_threshold_from_string(thresholds, 0)
    }
}
