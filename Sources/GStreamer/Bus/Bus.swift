import CGStreamer

/// A pipeline's GstBus, read the standard way: popping its queue (`pop`, `timedPop`). `Pipeline.messages`
/// is the async way to read the same messages; both see every message (unless a sync handler drops it).
///
/// The queue is GStreamer's own, so C code reading it (`gst_bus_timed_pop_filtered`, a bus watch added
/// with `gst_bus_add_watch` on a GLib main loop) sees the same messages. Nobody has to read it: the
/// pipeline keeps at most ``Bus/backlogLimit`` unread messages there, dropping the oldest past that, and
/// GStreamer empties it when the pipeline goes to NULL.
///
/// The corresponding C type is `GstBus`.
public final class Bus: @unchecked Sendable {
    // GstBus is thread-safe (its queue has its own lock) and the wrapper owns one reference.
    let pointer: UnsafeMutablePointer<GstBus>

    /// How many unread messages a pipeline's bus keeps at most; past that the oldest unread ones go,
    /// so a pipeline that runs for days without a reader does not grow its queue without bound.
    public static let backlogLimit = 4096

    init(taking pointer: UnsafeMutablePointer<GstBus>) {
        self.pointer = pointer
    }

    deinit { gst_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// The oldest unread message, without waiting; nil when there is none.
    ///
    /// The corresponding C function is `gst_bus_pop`.
    ///
    /// - Returns: The message, removed from the queue.
    public func pop() -> Message? {
        gst_bus_pop(pointer).map(Bus.take)
    }

    /// The oldest unread message of one of the kinds in `filter`, waiting up to `timeout` nanoseconds
    /// for one to arrive. As in C, messages of other kinds met on the way are removed and lost.
    ///
    /// Blocks the calling thread while it waits: from async code, read `Pipeline.messages` instead, or
    /// call it with a timeout of 0.
    ///
    /// The corresponding C function is `gst_bus_timed_pop_filtered`.
    ///
    /// - Parameters:
    ///   - timeout: The longest to wait, in nanoseconds; 0 does not wait; nil waits until a message comes.
    ///   - filter: The kinds to return; ``MessageTypes/any`` by default.
    /// - Returns: The message, or nil when none came in time.
    public func timedPop(timeout: ClockTime?, filter: MessageTypes = .any) -> Message? {
        gst_bus_timed_pop_filtered(pointer, clockTimeValue(timeout), filter.gstMask).map(Bus.take)
    }

    /// True when unread messages wait in the queue.
    ///
    /// The corresponding C function is `gst_bus_have_pending`.
    public var hasPending: Bool { gst_bus_have_pending(pointer) != 0 }

    /// Calls `body` with the GstBus, for C interop (a bus watch, `gst_bus_poll`).
    ///
    /// - Parameter body: Gets the bus, valid only until it returns; no reference is added for it.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withUnsafeGstBus<Result, Failure: Error>(
        _ body: (UnsafeMutablePointer<GstBus>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(pointer)
    }

    private static func take(_ message: UnsafeMutablePointer<GstMessage>) -> Message {
        defer { gst_message_unref(message) }
        return Message(message)
    }
}

extension Pipeline {
    /// The pipeline's bus, to pop messages the standard way (``Bus/pop()``, ``Bus/timedPop(timeout:filter:)``).
    ///
    /// The corresponding C function is `gst_pipeline_get_bus`.
    public var bus: Bus {
        Bus(taking: gst_pipeline_get_bus(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstPipeline.self)))
    }
}
