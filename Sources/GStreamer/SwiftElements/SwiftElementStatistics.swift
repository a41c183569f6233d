import CGStreamer
import Synchronization

/// What one Swift element did (`SwiftElement.statistics`).
package struct SwiftElementStatistics: Sendable {
    /// Frames rendered (sinks and filters).
    package var framesIn: Int
    /// Frames pushed downstream and accepted (sources and filters).
    package var framesOut: Int
    /// Time spent in the element's own Swift code, rendering or producing when asked for data; the
    /// time waiting for downstream to take a frame is not counted. Zero unless `isTimingEnabled`.
    package var timeInSwift: Duration
    /// From the first call into Swift code to the end of the last one. Zero unless `isTimingEnabled`.
    package var activeTime: Duration
}

extension SwiftElementStatistics {
    /// Whether Swift elements time their calls (`timeInSwift`, `activeTime`); off, both stay zero and
    /// only frames are counted. Timing reads the clock four times a buffer, which is a tenth of what a
    /// small audio buffer costs in all, so it is on only for those who read the times (`--stats`).
    package static var isTimingEnabled: Bool {
        get { SwiftElementCounters.timing.load(ordering: .relaxed) }
        set { SwiftElementCounters.timing.store(newValue, ordering: .relaxed) }
    }
}

/// The counters behind `SwiftElementStatistics`, updated on streaming threads without locks.
final class SwiftElementCounters: Sendable {
    static let timing = Atomic<Bool>(false)

    private let framesIn = Atomic<Int>(0)
    private let framesOut = Atomic<Int>(0)
    private let callNanoseconds = Atomic<UInt64>(0)
    private let pushNanoseconds = Atomic<UInt64>(0)
    private let firstCall = Atomic<UInt64>(.max)
    private let lastCall = Atomic<UInt64>(0)

    /// Now (gst_util_get_timestamp) when calls are timed, else nil: what `called` and `pushed` take.
    var now: UInt64? { Self.timing.load(ordering: .relaxed) ? UInt64(gst_util_get_timestamp()) : nil }

    /// A call into Swift code (render or needData) that began at `started` (`now`).
    func called(frameIn: Bool, since started: UInt64?) {
        if frameIn { framesIn.add(1, ordering: .relaxed) }
        guard let started else { return }
        let now = UInt64(gst_util_get_timestamp())
        callNanoseconds.add(now &- started, ordering: .relaxed)
        _ = firstCall.compareExchange(expected: .max, desired: started, ordering: .relaxed)
        lastCall.store(now, ordering: .relaxed)
    }

    /// A push downstream that began at `started` (`now`); its wait is not Swift's time.
    func pushed(_ accepted: Bool, since started: UInt64?) {
        if accepted { framesOut.add(1, ordering: .relaxed) }
        guard let started else { return }
        pushNanoseconds.add(UInt64(gst_util_get_timestamp()) &- started, ordering: .relaxed)
    }
    var statistics: SwiftElementStatistics {
        let calls = callNanoseconds.load(ordering: .relaxed)
        let pushes = pushNanoseconds.load(ordering: .relaxed)
        let first = firstCall.load(ordering: .relaxed)
        let last = lastCall.load(ordering: .relaxed)
        return SwiftElementStatistics(
            framesIn: framesIn.load(ordering: .relaxed), framesOut: framesOut.load(ordering: .relaxed),
            timeInSwift: .nanoseconds(Int64(calls > pushes ? calls - pushes : 0)),
            activeTime: first == .max || last < first ? .zero : .nanoseconds(Int64(last - first)))
    }
}
