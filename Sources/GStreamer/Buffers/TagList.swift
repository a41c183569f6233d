import CGStreamer
import CGStreamerShim

/// A GstTagList as a Swift value: the metadata of a stream or a file (title, artist, codecs, bitrate,
/// ...), as tag messages and events carry it. Each tag has one or more values.
///
/// The value holds a reference to an immutable tag list and copies it before a change when it is shared
/// (with a message, or another value), so it is a true value and safe to send.
public struct TagList: Sendable, Equatable, CustomStringConvertible, Sequence {
    // Holds one reference, copied before a write while another value or GStreamer holds it: never
    // mutated while shared, so sharing it across threads is safe.
    private var storage: CopyOnWrite<GstTagList>

    init(taking pointer: UnsafeMutablePointer<GstTagList>) { storage = CopyOnWrite(taking: pointer) }
    init(borrowing pointer: UnsafeMutablePointer<GstTagList>) {
        storage = CopyOnWrite(taking: GstTagList.retain(pointer))
    }

    /// An empty tag list, to fill with `set`.
    ///
    /// The corresponding C function is `gst_tag_list_new_empty`.
    public init() {
        try? GStreamer.initialize()
        storage = CopyOnWrite(taking: gst_tag_list_new_empty())
    }

    /// Parses a tag list from its string form, such as `"taglist, title=(string)hello, bitrate=(uint)128000"`.
    ///
    /// The corresponding C function is `gst_tag_list_new_from_string`.
    ///
    /// - Parameter string: The list as GStreamer serializes it: `taglist`, then `tag=(type)value` pairs.
    /// - Throws: ``GStreamerError`` (invalid argument) when `string` does not parse, or GStreamer cannot be
    ///   initialized.
    public init(_ string: String) throws(GStreamerError) {
        try GStreamer.initialize()
        guard let pointer = gst_tag_list_new_from_string(string) else {
            throw GStreamerError(kind: .invalidArgument, message: "could not parse tag list \"\(string)\"")
        }
        storage = CopyOnWrite(taking: pointer)
    }

    var pointer: UnsafeMutablePointer<GstTagList> { storage.pointer }
    mutating func writablePointer() -> UnsafeMutablePointer<GstTagList> { storage.writablePointer() }

    /// Calls `body` with the GstTagList, for C interop; it must not be kept or changed.
    ///
    /// - Parameter body: Reads the GstTagList; the pointer is valid only until it returns.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withUnsafeGstTagList<Result>(_ body: (UnsafePointer<GstTagList>) throws -> Result) rethrows -> Result {
        try body(pointer)
    }

    /// The string form, which `init(_:)` parses back.
    ///
    /// The corresponding C function is `gst_tag_list_to_string`.
    public var description: String { String(takingGString: gst_tag_list_to_string(pointer)) ?? "" }

    /// The same tags with the same values.
    ///
    /// The corresponding C function is `gst_tag_list_is_equal`.
    ///
    /// - Parameters:
    ///   - lhs: A tag list.
    ///   - rhs: Another tag list.
    /// - Returns: Whether both hold the same tags with the same values, whatever their scope.
    public static func == (lhs: TagList, rhs: TagList) -> Bool {
        lhs.storage.isIdentical(to: rhs.storage) || gst_tag_list_is_equal(lhs.pointer, rhs.pointer) != 0
    }

    /// True when the list holds no tag.
    ///
    /// The corresponding C function is `gst_tag_list_is_empty`.
    public var isEmpty: Bool { gst_tag_list_is_empty(pointer) != 0 }

    /// The names of the tags present, in order.
    ///
    /// The corresponding C function is `gst_tag_list_nth_tag_name`.
    public var tags: [String] {
        (0..<Swift.max(gst_tag_list_n_tags(pointer), 0)).map {
            String(cString: gst_tag_list_nth_tag_name(pointer, guint($0)))
        }
    }

    /// Each tag with its values, in order: `for (tag, values) in tags { ... }`.
    ///
    /// - Returns: An iterator over a snapshot of the tags.
    public func makeIterator() -> IndexingIterator<[(tag: String, values: [FieldValue])]> {
        tags.map { ($0, values($0)) }.makeIterator()
    }

    /// Whether a tag describes the whole file (`.global`) or one stream.
    public enum Scope: Sendable {
        /// `stream`: the tags describe one stream (`GST_TAG_SCOPE_STREAM`); `global`: the whole file or
        /// program (`GST_TAG_SCOPE_GLOBAL`).
        case stream, global
    }

    /// The scope of the list (`.stream` unless set).
    ///
    /// The corresponding C functions are `gst_tag_list_get_scope` and `gst_tag_list_set_scope`.
    public var scope: Scope {
        get { gst_tag_list_get_scope(pointer) == GST_TAG_SCOPE_GLOBAL ? .global : .stream }
        set {
            gst_tag_list_set_scope(writablePointer(), newValue == .global ? GST_TAG_SCOPE_GLOBAL : GST_TAG_SCOPE_STREAM)
        }
    }

    // MARK: Generic access

    /// Every value of a tag (most have one); empty when the tag is absent.
    ///
    /// The corresponding C function is `gst_tag_list_get_value_index`.
    ///
    /// - Parameter tag: The tag's name, such as "title" or "bitrate".
    /// - Returns: The values in order.
    public func values(_ tag: String) -> [FieldValue] {
        (0..<gst_tag_list_get_tag_size(pointer, tag)).compactMap { index in
            gst_tag_list_get_value_index(pointer, tag, index).map { FieldValue(reading: $0) }
        }
    }

    /// The first value of a tag, by its name ("title", "bitrate", ...).
    ///
    /// The corresponding C function is `gst_tag_list_get_value_index` (index 0).
    ///
    /// - Parameter tag: The tag's name.
    /// - Returns: The first value, or nil when the tag is absent.
    public subscript(tag: String) -> FieldValue? {
        gst_tag_list_get_value_index(pointer, tag, 0).map { FieldValue(reading: $0) }
    }

    /// How `set` and `merge` combine new values with those present (GstTagMergeMode).
    public enum MergeMode: Sendable {
        /// Replace every tag by the new list (merge only).
        case replaceAll
        /// Replace the tag's values by the new ones.
        case replace
        /// Add the new values after the present ones.
        case append
        /// Add the new values before the present ones.
        case prepend
        /// Keep the present values; take new ones only for tags that have none.
        case keep
        /// Keep the list as it is (merge only).
        case keepAll

        var gstMode: GstTagMergeMode {
            switch self {
            case .replaceAll: GST_TAG_MERGE_REPLACE_ALL
            case .replace: GST_TAG_MERGE_REPLACE
            case .append: GST_TAG_MERGE_APPEND
            case .prepend: GST_TAG_MERGE_PREPEND
            case .keep: GST_TAG_MERGE_KEEP
            case .keepAll: GST_TAG_MERGE_KEEP_ALL
            }
        }
    }

    /// Sets a tag: `tags.set("title", "hello")`. The value is converted to the tag's registered type
    /// (an `Int` for the `guint` of "bitrate"). Throws for a tag GStreamer does not know or a value that
    /// does not convert.
    ///
    /// The corresponding C functions are `gst_tag_exists`, `gst_tag_get_type`, `g_value_transform` and
    /// `gst_tag_list_add_value`.
    ///
    /// - Parameters:
    ///   - tag: The tag's name, registered with GStreamer (`GST_TAG_*`, such as "title").
    ///   - value: The value, converted to the tag's type.
    ///   - mode: How it combines with values already present; ``MergeMode/replace`` by default.
    /// - Throws: ``GStreamerError`` (invalid argument) for an unknown tag, or a value that does not convert.
    public mutating func set(_ tag: String, _ value: some FieldValueConvertible, mode: MergeMode = .replace)
        throws(GStreamerError)
    {
        // gst_tag_get_type logs a critical warning for an unknown name: ask whether it exists first.
        guard gst_tag_exists(tag) != 0 else {
            throw GStreamerError(kind: .invalidArgument, message: "no tag \"\(tag)\"")
        }
        let type = gst_tag_get_type(tag)
        var given = GValue()
        guard value.fieldValue.write(into: &given) else {
            throw GStreamerError(kind: .invalidArgument, message: "cannot set tag \"\(tag)\" to \(value.fieldValue)")
        }
        defer { g_value_unset(&given) }
        var converted = GValue()
        g_value_init(&converted, type)
        defer { g_value_unset(&converted) }
        let fits =
            given.g_type == type
            ? (g_value_copy(&given, &converted), true).1 : g_value_transform(&given, &converted) != 0
        guard fits else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "cannot set tag \"\(tag)\" (\(String(cString: g_type_name(type)))) to \(value.fieldValue)")
        }
        gst_tag_list_add_value(writablePointer(), mode.gstMode, tag, &converted)
    }

    /// Removes a tag and all its values.
    ///
    /// The corresponding C function is `gst_tag_list_remove_tag`.
    ///
    /// - Parameter tag: The tag's name; nothing happens when it is absent.
    public mutating func remove(_ tag: String) {
        guard gst_tag_list_get_tag_size(pointer, tag) > 0 else { return }
        gst_tag_list_remove_tag(writablePointer(), tag)
    }

    /// This list and `other` combined; `mode` says what happens to a tag both have.
    ///
    /// The corresponding C function is `gst_tag_list_merge`.
    ///
    /// - Parameters:
    ///   - other: The tags to add.
    ///   - mode: What happens to a tag both have; ``MergeMode/append`` by default.
    /// - Returns: The combined list; this list is unchanged.
    public func merging(_ other: TagList, mode: MergeMode = .append) -> TagList {
        guard let merged = gst_tag_list_merge(pointer, other.pointer, mode.gstMode) else { return TagList() }
        return TagList(taking: merged)
    }

    /// Adds `other`'s tags to this list; `mode` says what happens to a tag both have.
    ///
    /// The corresponding C function is `gst_tag_list_insert`.
    ///
    /// - Parameters:
    ///   - other: The tags to add.
    ///   - mode: What happens to a tag both have; ``MergeMode/append`` by default.
    public mutating func merge(_ other: TagList, mode: MergeMode = .append) {
        gst_tag_list_insert(writablePointer(), other.pointer, mode.gstMode)
    }
}
