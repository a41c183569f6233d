import CGStreamer

// What the typed messages carry beyond their source, one small value type per kind.

/// How a buffering element buffers and how fast data comes and goes.
///
/// The corresponding C function is `gst_message_parse_buffering_stats`.
public struct BufferingStats: Sendable, Equatable {
    /// How the element buffers.
    public enum Mode: Sendable, Equatable {
        /// A small in-memory buffer of a stream (`queue2` on a network source).
        case stream
        /// The whole file is downloaded to disk as it plays (progressive download).
        case download
        /// A ring buffer that can be seeked in (timeshifting).
        case timeshift
        /// A live source's buffer.
        case live
    }

    /// How the element buffers.
    public var mode: Mode
    /// The average rate data comes in, in bytes per second; -1 when unknown.
    public var averageIn: Int
    /// The average rate data goes out, in bytes per second; -1 when unknown.
    public var averageOut: Int
    /// The time in milliseconds until buffering completes; -1 when unknown, 0 when done.
    public var bufferingLeft: Int64
}

/// A missing plugin that stopped a decoder or playbin: what it is, for a user, and the string a
/// distribution's installer takes to find it.
///
/// The corresponding C functions are `gst_missing_plugin_message_get_description` and
/// `gst_missing_plugin_message_get_installer_detail`.
public struct MissingPlugin: Sendable, Equatable {
    /// What is missing, for a user: "MPEG-1 Layer 3 (MP3) decoder".
    public var description: String
    /// The installer detail ("gstreamer|1.0|app|MP3 decoder|decoder-audio/mpeg, mpegversion=(int)1");
    /// nil when GStreamer could make none.
    public var installerDetail: String?
    /// The kind of thing missing: "decoder", "encoder", "element", "urisource" or "urisink".
    public var kind: String?
    /// The caps, element name or URI protocol missing a handler, serialized.
    public var detail: String?
}

/// One stream of a stream collection: its id, what kind of data it is and, when known, its caps and tags.
///
/// The corresponding C type is `GstStream`.
public struct StreamInfo: Sendable {
    /// The stream's id, unique in the collection: what a select-streams event names.
    public var streamID: String
    /// The kinds of data, by GStreamer's names ("audio", "video", "container", "text"); empty when unknown.
    public var kinds: [String]
    /// The stream's caps, when known.
    public var caps: Caps?
    /// The stream's tags, when it has any.
    public var tags: TagList?
}

/// The streams an element (a demuxer, decodebin3, playbin3) offers.
///
/// The corresponding C type is `GstStreamCollection`.
public struct StreamCollection: Sendable {
    /// The id of the upstream stream the collection comes from, when known.
    public var upstreamID: String?
    /// The streams, in the element's order.
    public var streams: [StreamInfo]
}

/// A step start or step done: how far a sink was asked to step.
///
/// The corresponding C functions are `gst_message_parse_step_start` and `gst_message_parse_step_done`.
public struct Step: Sendable, Equatable {
    /// The unit of `amount`: "buffers", "time", "default" (samples or frames), ...
    public var format: String
    /// How much to step, in `format` units.
    public var amount: UInt64
    /// The rate of the step.
    public var rate: Double
    /// Whether the step flushed.
    public var flush: Bool
    /// Whether the step is an intermediate one.
    public var intermediate: Bool
}

/// A progress report of an asynchronous task (rtspsrc connecting, a network request).
///
/// The corresponding C function is `gst_message_parse_progress`.
public struct Progress: Sendable, Equatable {
    /// Where the task stands.
    public enum Kind: Sendable, Equatable {
        /// The task started.
        case start
        /// The task goes on.
        case `continue`
        /// The task completed.
        case complete
        /// The task was cancelled.
        case canceled
        /// The task failed.
        case error
    }

    /// Where the task stands.
    public var kind: Kind
    /// The task's code, such as "open" or "request".
    public var code: String
    /// What the task does, for a user.
    public var text: String
}

/// A link or unlink under way in a bin, reported from the thread doing it.
///
/// The corresponding C function is `gst_message_parse_structure_change`.
public struct StructureChange: Sendable, Equatable {
    /// True for a pad being unlinked, false for one being linked.
    public var unlinking: Bool
    /// The element that owns the pad, by name.
    public var owner: String?
    /// True when the change is still under way, false when it finished.
    public var busy: Bool
}

/// A streaming thread entering or leaving an element.
///
/// The corresponding C function is `gst_message_parse_stream_status`.
public struct StreamStatus: Sendable, Equatable {
    /// What happened to the thread, by GStreamer's GstStreamStatusType: "create", "enter", "leave",
    /// "destroy", "start", "pause" or "stop".
    public var kind: String
    /// The element that owns the thread, by name.
    public var owner: String?
}

/// One place a redirect message points to (a playlist entry, an HTTP redirect).
///
/// The corresponding C function is `gst_message_parse_redirect_entry`.
public struct RedirectEntry: Sendable {
    /// The new location (a URI or a path).
    public var location: String
    /// Tags the element knows about it.
    public var tags: TagList?
    /// Anything else it knows (bitrate, resolution), when it says.
    public var details: Structure?
}
