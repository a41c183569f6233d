import CGStreamer
import CGStreamerShim
import GstPipeSupport

/// A wait on a ``Clock``: single-shot (``Clock/singleShot(at:)``), awaited with ``wait()``, or
/// periodic (``Clock/periodic(start:interval:)``), read with ``ticks()``. GStreamer's clock thread
/// resumes the task (`gst_clock_id_wait_async`), so no thread of Swift's pool waits; cancelling the
/// task, or ``unschedule()``, takes the wait off the clock.
///
/// Clock ids are reference counted and their calls thread-safe, so the wrapper can cross threads.
///
/// The corresponding C type is `GstClockID`; Rust's gstreamer-rs has `gst::SingleShotClockId` and
/// `gst::PeriodicClockId`.
public final class ClockID: @unchecked Sendable {
    let pointer: GstClockID
    /// The clock the id waits on.
    public let clock: Clock
    // The one wait or tick stream the id feeds: GStreamer keeps one callback per id (a second
    // gst_clock_id_wait_async would replace the first's data without freeing it), and unscheduling
    // calls no callback, so `unschedule` ends them here.
    private let feeding = Locked<(used: Bool, waiter: ClockWaiter?, ticker: ClockTicker?)>((false, nil, nil))

    init(taking pointer: GstClockID, clock: Clock) {
        self.pointer = pointer
        self.clock = clock
    }

    deinit {
        // An id still waiting would call back into a waiter no one awaits any more.
        unschedule()
        gst_clock_id_unref(pointer)
    }

    /// The clock time the id fires at (for a periodic id, its first tick).
    ///
    /// The corresponding C function is `gst_clock_id_get_time`.
    public var time: ClockTime { ClockTime(gst_clock_id_get_time(pointer)) }

    /// Takes the wait off the clock: a pending ``wait()`` returns `.unscheduled`, ``ticks()`` ends.
    /// An id unscheduled once cannot wait again.
    ///
    /// The corresponding C function is `gst_clock_id_unschedule`.
    public func unschedule() {
        gst_clock_id_unschedule(pointer)
        let (waiter, ticker) = feeding.withLock { ($0.waiter, $0.ticker) }
        waiter?.finish(.unscheduled)
        ticker?.continuation.finish()
    }

    /// Claims the id's one callback; false when a wait or tick stream has it already.
    private func claim(waiter: ClockWaiter? = nil, ticker: ClockTicker? = nil) -> Bool {
        feeding.withLock { feeding in
            guard !feeding.used else { return false }
            feeding = (true, waiter, ticker)
            return true
        }
    }

    /// Schedules the async wait. GStreamer keeps `data` in the id (and frees it with the id) once it
    /// stored it, even when it answers `.unscheduled`; for an invalid time or a clock that cannot wait
    /// it returns before storing it, and `data` is released here. Which of the two happened is read
    /// from the entry itself.
    private func schedule(_ data: UnsafeMutableRawPointer, _ callback: GstClockCallback, _ free: GDestroyNotify)
        -> ClockReturn
    {
        // The clock's thread gets `data` through GLib's locks, which ThreadSanitizer does not see.
        HandOver.published(data)
        let scheduled = ClockReturn(gst_clock_id_wait_async(pointer, callback, data, free))
        let kept =
            UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstClockEntry.self).pointee.user_data == data
        if !kept { free(data) }
        return scheduled
    }

    /// Waits until the clock reaches ``time``, suspending the task: GStreamer's clock thread resumes it.
    /// Returns at once with `.ok` when the time has passed already. Cancelling the task unschedules the
    /// id and returns `.unscheduled`. An id is awaited once: a second wait returns `.busy`.
    ///
    /// The corresponding C functions are `gst_clock_id_wait_async` and, on cancellation,
    /// `gst_clock_id_unschedule`.
    ///
    /// - Returns: `.ok` when the time came; `.unscheduled` when the id was unscheduled (by
    ///   ``unschedule()`` or cancellation); another ``ClockReturn`` when GStreamer refused the wait.
    public func wait() async -> ClockReturn {
        let waiter = ClockWaiter()
        guard claim(waiter: waiter) else { return .busy }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiter.start(continuation)
                let scheduled = schedule(
                    Unmanaged.passRetained(waiter).toOpaque(),
                    { _, time, _, data in
                        HandOver.received(data!)
                        // An invalid time is called back at once with none, before `.badTime` returns.
                        let result: ClockReturn = time == GstClockTime.max ? .badTime : .ok
                        Unmanaged<ClockWaiter>.fromOpaque(data!).takeUnretainedValue().finish(result)
                        return 1
                    }, { data in Unmanaged<ClockWaiter>.fromOpaque(data!).release() })
                if scheduled != .ok { waiter.finish(scheduled) }
            }
        } onCancel: {
            unschedule()
        }
    }

    /// The ticks of a periodic id as they come: each element is the clock time of one tick. The
    /// sequence ends when the id is unscheduled; a consumer that stops reading unschedules it. Ticks
    /// the consumer is too slow for are dropped (only the newest is kept).
    ///
    /// The corresponding C function is `gst_clock_id_wait_async` (called back at every tick).
    ///
    /// - Returns: The ticks; empty when GStreamer refused the wait or the id feeds a wait already.
    public func ticks() -> AsyncStream<ClockTime> {
        let (stream, continuation) = AsyncStream.makeStream(of: ClockTime.self, bufferingPolicy: .bufferingNewest(1))
        let ticker = ClockTicker(continuation)
        guard claim(ticker: ticker) else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.unschedule() }
        let scheduled = schedule(
            Unmanaged.passRetained(ticker).toOpaque(),
            { _, time, _, data in
                HandOver.received(data!)
                guard time != GstClockTime.max else { return 1 }
                Unmanaged<ClockTicker>.fromOpaque(data!).takeUnretainedValue().continuation.yield(ClockTime(time))
                return 1
            }, { data in Unmanaged<ClockTicker>.fromOpaque(data!).release() })
        if scheduled != .ok { continuation.finish() }
        return stream
    }
}

/// What a wait on a clock came to.
///
/// The corresponding C type is `GstClockReturn`.
public enum ClockReturn: Sendable, Equatable {
    /// The time came.
    case ok
    /// The time had passed already (synchronous waits only).
    case early
    /// The id was unscheduled before its time.
    case unscheduled
    /// Someone waits on the id already.
    case busy
    /// The id's time is GST_CLOCK_TIME_NONE.
    case badTime
    /// The clock failed.
    case error
    /// The clock cannot do this wait.
    case unsupported
    /// The periodic id was done.
    case done

    init(_ value: GstClockReturn) {
        switch value {
        case GST_CLOCK_OK: self = .ok
        case GST_CLOCK_EARLY: self = .early
        case GST_CLOCK_UNSCHEDULED: self = .unscheduled
        case GST_CLOCK_BUSY: self = .busy
        case GST_CLOCK_BADTIME: self = .badTime
        case GST_CLOCK_UNSUPPORTED: self = .unsupported
        case GST_CLOCK_DONE: self = .done
        default: self = .error
        }
    }
}

/// One awaited single-shot wait: resumed once, by the clock's thread or the cancellation, whichever
/// comes first.
final class ClockWaiter: Sendable {
    private let state = Locked<(continuation: CheckedContinuation<ClockReturn, Never>?, result: ClockReturn?)>(
        (nil, nil))

    func start(_ continuation: CheckedContinuation<ClockReturn, Never>) {
        let early = state.withLock { state -> ClockReturn? in
            if let result = state.result { return result }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(returning: early) }
    }

    func finish(_ result: ClockReturn) {
        let continuation = state.withLock { state -> CheckedContinuation<ClockReturn, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: result)
    }
}

/// The continuation a periodic id's ticks feed; AsyncStream's continuation is thread-safe.
final class ClockTicker: Sendable {
    let continuation: AsyncStream<ClockTime>.Continuation
    init(_ continuation: AsyncStream<ClockTime>.Continuation) { self.continuation = continuation }
}
