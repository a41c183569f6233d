import CGStreamer
import Synchronization

/// What one Swift element did (`BridgeElement.statistics`).
package struct BridgeStatistics: Sendable {
    /// Frames rendered (sinks and filters).
    package var framesIn: Int
    /// Frames pushed downstream and accepted (sources and filters).
    package var framesOut: Int
    /// Time spent in the element's own Swift code, rendering or producing when asked for data; the
    /// time waiting for downstream to take a frame is not counted.
    package var timeInSwift: Duration
    /// From the first call into Swift code to the end of the last one.
    package var activeTime: Duration
}

/// The counters behind `BridgeStatistics`, updated on streaming threads without locks.
final class BridgeCounters: Sendable {
    private let framesIn = Atomic<Int>(0)
    private let framesOut = Atomic<Int>(0)
    private let callNanoseconds = Atomic<UInt64>(0)
    private let pushNanoseconds = Atomic<UInt64>(0)
    private let firstCall = Atomic<UInt64>(.max)
    private let lastCall = Atomic<UInt64>(0)

    /// A call into Swift code (render or needData) that began at `started` (gst_util_get_timestamp).
    func called(frameIn: Bool, since started: UInt64) {
        let now = UInt64(gst_util_get_timestamp())
        if frameIn { framesIn.add(1, ordering: .relaxed) }
        callNanoseconds.add(now &- started, ordering: .relaxed)
        _ = firstCall.compareExchange(expected: .max, desired: started, ordering: .relaxed)
        lastCall.store(now, ordering: .relaxed)
    }

    /// A push downstream that began at `started`; its wait is not Swift's time.
    func pushed(_ accepted: Bool, since started: UInt64) {
        if accepted { framesOut.add(1, ordering: .relaxed) }
        pushNanoseconds.add(UInt64(gst_util_get_timestamp()) &- started, ordering: .relaxed)
    }

    var statistics: BridgeStatistics {
        let calls = callNanoseconds.load(ordering: .relaxed)
        let pushes = pushNanoseconds.load(ordering: .relaxed)
        let first = firstCall.load(ordering: .relaxed)
        let last = lastCall.load(ordering: .relaxed)
        return BridgeStatistics(
            framesIn: framesIn.load(ordering: .relaxed), framesOut: framesOut.load(ordering: .relaxed),
            timeInSwift: .nanoseconds(Int64(calls > pushes ? calls - pushes : 0)),
            activeTime: first == .max || last < first ? .zero : .nanoseconds(Int64(last - first)))
    }
}
