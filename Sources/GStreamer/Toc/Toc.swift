import CGStreamer

/// A table of contents: a file's editions and chapters, each with its times and title, as a demuxer
/// reads them (a `toc` message) or a muxer writes them (``Element/setToc(_:)``).
///
/// The corresponding C type is `GstToc`.
public struct Toc: Sendable, Equatable {
    /// Whether the table covers the whole file or only the current stream.
    public enum Scope: Sendable, Equatable {
        /// The whole file (`GST_TOC_SCOPE_GLOBAL`).
        case global
        /// The current stream (`GST_TOC_SCOPE_CURRENT`).
        case current
    }

    /// One entry: an edition holding chapters, or a chapter, possibly with chapters of its own.
    public struct Entry: Sendable, Equatable {
        /// What an entry is.
        public enum Kind: Sendable, Equatable {
            /// An edition, a version of the whole (`GST_TOC_ENTRY_TYPE_EDITION`).
            case edition
            /// A chapter (`GST_TOC_ENTRY_TYPE_CHAPTER`).
            case chapter
            /// Another kind (a title, a track, an angle), by GStreamer's nick.
            case other(String)
        }

        /// What it is.
        public var kind: Kind
        /// Its identifier, unique in the table.
        public var uid: String
        /// Where it starts, in nanoseconds; nil when unknown.
        public var start: ClockTime?
        /// Where it stops, in nanoseconds; nil when unknown.
        public var stop: ClockTime?
        /// Its title tag, when it has one.
        public var title: String?
        /// The entries inside it (an edition's chapters).
        public var entries: [Entry]

        /// An entry.
        ///
        /// - Parameters:
        ///   - kind: What it is.
        ///   - uid: Its identifier, unique in the table.
        ///   - start: Where it starts, in nanoseconds.
        ///   - stop: Where it stops, in nanoseconds.
        ///   - title: Its title.
        ///   - entries: The entries inside it.
        public init(
            kind: Kind, uid: String, start: ClockTime? = nil, stop: ClockTime? = nil, title: String? = nil,
            entries: [Entry] = []
        ) {
            self.kind = kind
            self.uid = uid
            self.start = start
            self.stop = stop
            self.title = title
            self.entries = entries
        }
    }

    /// What the table covers.
    public var scope: Scope
    /// Its top-level entries (for Matroska, editions).
    public var entries: [Entry]

    /// A table of contents.
    ///
    /// - Parameters:
    ///   - scope: What it covers.
    ///   - entries: Its top-level entries.
    public init(scope: Scope = .global, entries: [Entry]) {
        self.scope = scope
        self.entries = entries
    }
}
