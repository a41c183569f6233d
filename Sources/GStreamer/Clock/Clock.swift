import CGStreamer
import CGStreamerShim

/// A GstClock: the time source a pipeline synchronizes to. A pipeline picks one as it goes to
/// PLAYING (a live source's, an audio sink's, or else the system clock) unless given one with
/// ``Pipeline/useClock(_:)``; every element then counts running time as the clock's time minus its
/// base time (``Element/baseTime``), which only advances while the pipeline is PLAYING.
///
/// Waits on a clock go through ``ClockID``s (``singleShot(at:)``, ``periodic(start:interval:)``),
/// awaited without blocking a thread.
///
/// GstClock is a thread-safe GstObject, so the wrapper can cross threads.
///
/// The corresponding C type is `GstClock`; Rust's gstreamer-rs has `gst::Clock`.
public final class Clock: @unchecked Sendable, CustomStringConvertible {
    let pointer: UnsafeMutablePointer<GstClock>

    /// Wraps `pointer`, taking over the caller's reference (a `transfer full` return).
    init(taking pointer: UnsafeMutablePointer<GstClock>) {
        self.pointer = pointer
    }

    /// Wraps `pointer` with a reference of its own.
    init(borrowing pointer: UnsafeMutablePointer<GstClock>) {
        self.pointer = pointer
        gst_object_ref(UnsafeMutableRawPointer(pointer))
    }

    deinit { gst_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// The process's system clock (monotonic time), the one a pipeline falls back to.
    ///
    /// The corresponding C function is `gst_system_clock_obtain`.
    ///
    /// - Returns: The system clock, shared by the whole process.
    /// - Throws: ``GStreamerError`` when GStreamer cannot be initialized.
    public static func system() throws(GStreamerError) -> Clock {
        try GStreamer.initialize()
        return Clock(taking: gst_system_clock_obtain())
    }

    /// The clock's time now, in nanoseconds. It never goes back; its origin is the clock's own.
    ///
    /// The corresponding C function is `gst_clock_get_time`.
    public var time: ClockTime { ClockTime(gst_clock_get_time(pointer)) }

    /// The smallest step the clock's time takes, in nanoseconds.
    ///
    /// The corresponding C function is `gst_clock_get_resolution`.
    public var resolution: ClockTime { ClockTime(gst_clock_get_resolution(pointer)) }

    /// The clock's name, such as "GstSystemClock" or "GstPulseSinkClock".
    ///
    /// The corresponding C function is `gst_object_get_name`.
    public var name: String {
        String(takingGString: gst_object_get_name(GstObject.of(pointer))) ?? ""
    }

    /// The clock for logs: its name and its time now.
    public var description: String { "\(name) at \(time) ns" }

    /// True when `other` wraps the same GstClock.
    ///
    /// - Parameter other: Another clock.
    /// - Returns: Whether both are one clock.
    public func isSame(as other: Clock) -> Bool { pointer == other.pointer }

    /// A wait that fires once, when the clock reaches `time`; await it with ``ClockID/wait()``.
    ///
    /// The corresponding C function is `gst_clock_new_single_shot_id`.
    ///
    /// - Parameter time: The clock time to wake at (compare ``time``). Times past `Int64.max` (among
    ///   them `ClockTime.max`, GStreamer's "none", which it refuses) are taken as `Int64.max`, the last
    ///   time a clock can compare: a wait that never comes unless unscheduled.
    /// - Returns: The clock id.
    public func singleShot(at time: ClockTime) -> ClockID {
        // Clocks compare times as signed 64-bit differences: a later time would read as past.
        let valid = min(time, ClockTime(Int64.max))
        return ClockID(taking: gst_clock_new_single_shot_id(pointer, GstClockTime(valid)), clock: self)
    }

    /// A wait that fires at `start` and then every `interval`; read its ticks with ``ClockID/ticks()``.
    ///
    /// The corresponding C function is `gst_clock_new_periodic_id`.
    ///
    /// - Parameters:
    ///   - start: The clock time of the first tick.
    ///   - interval: Nanoseconds between ticks; more than zero.
    /// - Returns: The clock id.
    /// - Throws: ``GStreamerError`` (invalid argument) when `interval` is zero.
    public func periodic(start: ClockTime, interval: ClockTime) throws(GStreamerError) -> ClockID {
        guard interval > 0, let id = gst_clock_new_periodic_id(pointer, GstClockTime(start), GstClockTime(interval))
        else {
            throw GStreamerError(
                kind: .invalidArgument, message: "a periodic clock id needs an interval above 0 ns, not \(interval)")
        }
        return ClockID(taking: id, clock: self)
    }

    /// Waits until the clock's time is `duration` later than now, suspending the task (no thread
    /// blocks): a ``singleShot(at:)`` id awaited. Cancelling the task unschedules the wait.
    ///
    /// - Parameter duration: How long to wait, by this clock.
    /// - Returns: `.ok` when the time came, `.unscheduled` when the task was cancelled first.
    @discardableResult
    public func sleep(for duration: Duration) async -> ClockReturn {
        // A duration past the clock's range waits until its last time, not until a time wrapped to the past.
        let (end, overflow) = time.addingReportingOverflow(nanoseconds(duration))
        return await singleShot(at: overflow ? .max : end).wait()
    }
}

extension GstObject {
    /// `object`, a GstObject subclass (a clock, an element), as the GstObject it starts with.
    static func of<Subclass>(_ object: UnsafeMutablePointer<Subclass>) -> UnsafeMutablePointer<GstObject> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: GstObject.self)
    }
}
