import CGStreamer

/// How much a debug log line matters, from errors (1) to memory dumps (9): a category logs the lines at
/// or below its threshold.
///
/// The corresponding C type is `GstDebugLevel`.
public enum DebugLevel: Int, Sendable, Comparable, CaseIterable {
    /// Nothing is logged (as a threshold).
    case none = 0
    /// Something failed and cannot be recovered from.
    case error = 1
    /// Something unexpected that the program survives.
    case warning = 2
    /// Something that works, but not as well as it should (a missing feature).
    case fixme = 3
    /// Something worth telling once: a state change, a file opened.
    case info = 4
    /// What a developer follows an element's work by: negotiation, configuration.
    case debug = 5
    /// Events that happen often: every buffer, every event.
    case log = 6
    /// Every call, reference and lock: the most detailed level of text.
    case trace = 7
    /// Memory dumps, beyond any text.
    case memdump = 9

    var gstLevel: GstDebugLevel { GstDebugLevel(rawValue: UInt32(rawValue)) }

    init(_ level: GstDebugLevel) { self = DebugLevel(rawValue: Int(level.rawValue)) ?? .memdump }

    /// Orders levels by detail: `.error` is less than `.debug`.
    ///
    /// - Parameters:
    ///   - lhs: A level.
    ///   - rhs: Another level.
    /// - Returns: True when `lhs` is the less detailed.
    public static func < (lhs: DebugLevel, rhs: DebugLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A debug category of the application's own, as elements have theirs (`GST_DEBUG=myapp:5`): its lines
/// go to GStreamer's debug log with their level, source file, function and line, and whatever reads
/// that log (GStreamer's writer on standard error, ``DebugLog/addHandler(removingDefaultWriter:_:)``) gets them.
///
/// The corresponding C type is `GstDebugCategory`.
public final class DebugCategory: Sendable {
    /// The colors a category's name is printed in when the log is colored.
    ///
    /// The corresponding C type is `GstDebugColorFlags`.
    public struct Color: OptionSet, Sendable {
        /// The `GstDebugColorFlags` bits.
        public let rawValue: UInt32
        /// The colors of these `GstDebugColorFlags` bits.
        ///
        /// - Parameter rawValue: A `GstDebugColorFlags` combination.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Red text.
        public static let red = Color(rawValue: GST_DEBUG_FG_RED.rawValue)
        /// Green text.
        public static let green = Color(rawValue: GST_DEBUG_FG_GREEN.rawValue)
        /// Yellow text.
        public static let yellow = Color(rawValue: GST_DEBUG_FG_YELLOW.rawValue)
        /// Blue text.
        public static let blue = Color(rawValue: GST_DEBUG_FG_BLUE.rawValue)
        /// Magenta text.
        public static let magenta = Color(rawValue: GST_DEBUG_FG_MAGENTA.rawValue)
        /// Cyan text.
        public static let cyan = Color(rawValue: GST_DEBUG_FG_CYAN.rawValue)
        /// Bold text.
        public static let bold = Color(rawValue: GST_DEBUG_BOLD.rawValue)
        /// Underlined text.
        public static let underline = Color(rawValue: GST_DEBUG_UNDERLINE.rawValue)
    }

    // GStreamer keeps every category for the life of the process and looks it up by name; the pointer
    // stays valid, and its threshold is read and written atomically by GStreamer itself.
    private let address: UInt
    var pointer: UnsafeMutablePointer<GstDebugCategory> { UnsafeMutablePointer(bitPattern: address)! }

    /// The category `name` (made the first time, found again afterwards), printed in `color`, with a
    /// description that `gst-inspect-1.0 --gst-debug-help` shows. Its threshold comes from `GST_DEBUG`
    /// (or ``DebugLog/setThresholds(_:)``) when a pattern there matches the name.
    ///
    /// The corresponding C function is `_gst_debug_category_new` (the `GST_DEBUG_CATEGORY_INIT` macro).
    ///
    /// - Parameters:
    ///   - name: The category's name, as `GST_DEBUG` patterns match it (`myapp`, `myapp-net`).
    ///   - color: The colors its name is printed in; none by default.
    ///   - description: What the category covers.
    /// - Throws: ``GStreamerError`` (invalid argument) for an empty name or one with spaces, commas or
    ///   colons (`GST_DEBUG` could not name it), or when GStreamer cannot be initialized.
    public init(name: String, color: Color = [], description: String) throws(GStreamerError) {
        try GStreamer.initialize()
        guard !name.isEmpty, !name.contains(where: { $0 == "," || $0 == ":" || $0.isWhitespace }) else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "'\(name)' cannot name a debug category: give a non-empty name without spaces, commas "
                    + "or colons, such as 'myapp'")
        }
        address = UInt(bitPattern: _gst_debug_category_new(name, color.rawValue, description))
    }

    /// The category's name.
    ///
    /// The corresponding C function is `gst_debug_category_get_name`.
    public var name: String { String(cString: gst_debug_category_get_name(pointer)) }

    /// The category's description.
    ///
    /// The corresponding C function is `gst_debug_category_get_description`.
    public var description: String { String(cString: gst_debug_category_get_description(pointer)) }

    /// The most detailed level the category logs; lines above it cost nothing but the comparison.
    ///
    /// The corresponding C functions are `gst_debug_category_get_threshold` and
    /// `gst_debug_category_set_threshold`.
    public var threshold: DebugLevel {
        get { DebugLevel(gst_debug_category_get_threshold(pointer)) }
        set { gst_debug_category_set_threshold(pointer, newValue.gstLevel) }
    }

    /// Logs `message` at `level`, from the caller's file, function and line, about `object` when given.
    /// The message is not even built when `level` is above the threshold.
    ///
    /// The corresponding C function is `gst_debug_log_literal` (the `GST_CAT_LEVEL_LOG` macro).
    ///
    /// - Parameters:
    ///   - level: How much the line matters; `.none` logs nothing.
    ///   - message: The text.
    ///   - object: The element (or pad, bin) the line is about, whose name the line shows.
    ///   - file: The source file, the caller's by default.
    ///   - function: The function, the caller's by default.
    ///   - line: The line, the caller's by default.
    public func log(
        _ level: DebugLevel, _ message: @autoclosure () -> String, object: Element? = nil,
        file: String = #fileID, function: String = #function, line: Int = #line
    ) {
        guard level != .none, level <= threshold else { return }
        let gobject = object.map { UnsafeMutableRawPointer($0.pointer).assumingMemoryBound(to: GObject.self) }
        gst_debug_log_literal(pointer, level.gstLevel, file, function, gint(clamping: line), gobject, message())
    }

    /// Logs `message` as an error (`GST_CAT_ERROR`).
    ///
    /// - Parameters:
    ///   - message: The text.
    ///   - object: The element the line is about.
    ///   - file: The source file, the caller's by default.
    ///   - function: The function, the caller's by default.
    ///   - line: The line, the caller's by default.
    public func error(
        _ message: @autoclosure () -> String, object: Element? = nil,
        file: String = #fileID, function: String = #function, line: Int = #line
    ) {
        log(.error, message(), object: object, file: file, function: function, line: line)
    }

    /// Logs `message` as a warning (`GST_CAT_WARNING`).
    ///
    /// - Parameters:
    ///   - message: The text.
    ///   - object: The element the line is about.
    ///   - file: The source file, the caller's by default.
    ///   - function: The function, the caller's by default.
    ///   - line: The line, the caller's by default.
    public func warning(
        _ message: @autoclosure () -> String, object: Element? = nil,
        file: String = #fileID, function: String = #function, line: Int = #line
    ) {
        log(.warning, message(), object: object, file: file, function: function, line: line)
    }

    /// Logs `message` as information (`GST_CAT_INFO`).
    ///
    /// - Parameters:
    ///   - message: The text.
    ///   - object: The element the line is about.
    ///   - file: The source file, the caller's by default.
    ///   - function: The function, the caller's by default.
    ///   - line: The line, the caller's by default.
    public func info(
        _ message: @autoclosure () -> String, object: Element? = nil,
        file: String = #fileID, function: String = #function, line: Int = #line
    ) {
        log(.info, message(), object: object, file: file, function: function, line: line)
    }

    /// Logs `message` for debugging (`GST_CAT_DEBUG`).
    ///
    /// - Parameters:
    ///   - message: The text.
    ///   - object: The element the line is about.
    ///   - file: The source file, the caller's by default.
    ///   - function: The function, the caller's by default.
    ///   - line: The line, the caller's by default.
    public func debug(
        _ message: @autoclosure () -> String, object: Element? = nil,
        file: String = #fileID, function: String = #function, line: Int = #line
    ) {
        log(.debug, message(), object: object, file: file, function: function, line: line)
    }
}
