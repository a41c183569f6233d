/// One viewer's available bit rate, estimated from what its browser reports back, and the ladder rung
/// (`WebRTCLadder`) it should watch. A pure state machine: each receiver report (`Report`) goes in,
/// the rung to watch comes out; the viewer's pipeline feeds it from webrtcbin's statistics.
///
/// What it reacts to, in order:
/// - **Loss.** A report losing more than `heavyLoss` of the packets means the link is full: the estimate
///   drops at once to what the link did carry, the rate sent times the fraction received, and the viewer
///   moves to the largest rung below it on that one report. Through a 600 kbit/s token bucket a 2.5
///   Mbit/s rung loses about three packets in four: 2.5 Mbit/s × 0.25 is 625 kbit/s, whose rung is
///   250 kbit/s, so one report (a browser sends one a second) takes the viewer there, not two.
/// - **Delay.** A round trip more than `queueing` above the smallest seen, in two reports in a row (or in
///   one that also loses packets), means packets wait in a queue before the bottleneck (a router's
///   buffer fills before it drops): the estimate goes to 85 % of the rate sent, which moves the viewer
///   down before the losses come. One such report alone only holds the estimate: a sender or browser
///   that did not run for a moment (a loaded machine) answers one report late, with no loss. Stopping
///   the server for 0.3 s gave a round trip of 165 ms in one report and 1 ms in the next, and moved an
///   unlimited viewer down; a full 600 kbit/s token bucket keeps it above 300 ms report after report.
/// - **A clear link.** Loss under `lightLoss` and no queueing: the estimate grows by `growth` a second
///   from the rate sent, and the viewer moves up one rung once the estimate has held above that rung's
///   rate (with `headroom`) for `upHold`. Moving up is a guess (nothing probes the link beyond what is
///   sent), so an up-move that the link refuses within `upHold` doubles the wait before the next try,
///   up to `maximumUpWait`.
/// - Between the two (some loss, a little queueing) it holds.
package struct ViewerBandwidth: Sendable {
    /// One RTCP receiver report, as the viewer's browser sent it about the viewer's video.
    package struct Report: Sendable {
        /// When it came, from any fixed start.
        package let time: Duration
        /// The fraction of the packets sent since the last report that never arrived, 0 to 1.
        package let fractionLost: Double
        /// Interarrival jitter, seconds (RFC 3550's estimate); kept for the notes, unused by the rule:
        /// a frame's packets leave in a burst, so jitter follows the frame sizes as much as the link.
        package let jitter: Double
        /// The round trip from the report's timestamps, seconds; nil when the report had none.
        package let roundTrip: Double?

        /// A report at `time`.
        package init(time: Duration, fractionLost: Double, jitter: Double, roundTrip: Double?) {
            (self.time, self.fractionLost, self.jitter, self.roundTrip) = (time, fractionLost, jitter, roundTrip)
        }
    }

    /// Above this loss the link is full.
    package static let heavyLoss = 0.10
    /// Below this loss the link is clear.
    package static let lightLoss = 0.02
    /// A round trip this much above the smallest seen is queueing.
    package static let queueing: Duration = .milliseconds(150)
    /// How fast the estimate grows on a clear link, per second.
    package static let growth = 0.08
    /// A rung is watched while the estimate is at least its rate times this.
    package static let headroom = 1.15
    /// How long the estimate holds above a higher rung before the viewer moves up.
    package static let upHold: Duration = .seconds(4)
    /// The longest wait before moving up again after up-moves the link refused.
    package static let maximumUpWait: Duration = .seconds(30)

    /// The ladder's rates, largest first.
    private let bitrates: [Int]
    /// The rung watched, 0 the largest.
    package private(set) var rung: Int
    /// The estimated bit rate the link carries.
    package private(set) var estimate: Double
    private var lastReport: Duration?
    private var smallestRoundTrip: Double?
    /// Whether the previous report's round trip was queueing (`queueing` above the smallest).
    private var queuedBefore = false
    /// Since when the estimate has held above the next rung up.
    private var clearSince: Duration?
    /// When the viewer last moved up (until the link has carried it).
    private var movedUpAt: Duration?
    /// For each rung, how long the estimate must hold above it before the viewer moves up to it: a rung
    /// the link refused waits longer, the others do not (once a limit is lifted, the rung that was
    /// refused waits its longest, the ones above it their shortest).
    private var upWaits: [Duration]

    /// A viewer of a ladder whose rungs send `bitrates` (largest first), starting on `rung`.
    package init(bitrates: [Int], startingOn rung: Int = 0) {
        precondition(!bitrates.isEmpty, "a ladder has a rung")
        self.bitrates = bitrates
        self.rung = min(rung, bitrates.count - 1)
        estimate = Double(bitrates[self.rung]) * Self.headroom
        upWaits = Array(repeating: Self.upHold, count: bitrates.count)
    }

    /// Takes `report` and returns the rung the viewer should watch from now on.
    @discardableResult
    package mutating func take(_ report: Report) -> Int {
        let elapsed = lastReport.map { max(0, (report.time - $0).seconds) } ?? 1
        lastReport = report.time
        let sent = Double(bitrates[rung])
        var delayed = false
        if let roundTrip = report.roundTrip {
            smallestRoundTrip = min(smallestRoundTrip ?? roundTrip, roundTrip)
            delayed = roundTrip - (smallestRoundTrip ?? roundTrip) > Self.queueing.seconds
        }
        // A queue lasts: one late report without loss is a stall at either end, not yet a full link.
        let queued = delayed && (queuedBefore || report.fractionLost >= Self.lightLoss)
        queuedBefore = delayed
        if report.fractionLost > Self.heavyLoss {
            estimate = min(estimate, sent * (1 - report.fractionLost))
        } else if delayed {
            if queued { estimate = min(estimate, sent * 0.85) }
        } else if report.fractionLost < Self.lightLoss {
            estimate = max(estimate, sent) * (1 + Self.growth * min(elapsed, 2))
        }
        let congested = report.fractionLost > Self.heavyLoss || delayed
        // Down at once, to the largest rung the estimate carries.
        let carried = bitrates.firstIndex { Double($0) * Self.headroom <= estimate } ?? bitrates.count - 1
        if carried > rung {
            // An up-move refused soon after it was made, or a rung the link could no longer carry: the
            // next move up to it waits twice as long. A browser's first report after its link filled
            // covers time from before, so it loses less than the link does: from 1.5 Mbit/s into a
            // 600 kbit/s token bucket it said 40 % rather than 60 %, the estimate then grew back above
            // 1.5 Mbit/s within 7 s, and the viewer tried that rung again 7 s after it fell from it.
            if movedUpAt.map({ report.time - $0 < Self.upHold * 2 }) ?? true {
                upWaits[rung] = min(upWaits[rung] * 2, Self.maximumUpWait)
            }
            movedUpAt = nil
            rung = carried
            clearSince = nil
            return rung
        }
        // An up-move the link has carried for twice the hold: taken, and the next wait shortens again.
        if let movedUpAt, report.time - movedUpAt >= Self.upHold * 2 {
            upWaits[rung] = max(Self.upHold, upWaits[rung] / 2)
            self.movedUpAt = nil
        }
        // Up one rung at a time, once the estimate has held above it.
        guard rung > 0, !congested, Double(bitrates[rung - 1]) * Self.headroom <= estimate else {
            clearSince = nil
            return rung
        }
        let since = clearSince ?? report.time
        clearSince = since
        if report.time - since >= upWaits[rung - 1] {
            rung -= 1
            movedUpAt = report.time
            clearSince = nil
            // From the rung's own rate: what it sends is the next thing learnt about the link.
            estimate = Double(bitrates[rung]) * Self.headroom
        }
        return rung
    }
}

extension Duration {
    /// The duration in seconds.
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// A viewer's loss between two receiver reports, from the running totals: packets the browser reports
/// lost, and packets sent to it. webrtcbin 1.22's `fraction-lost` (the report's own 8-bit fraction) read
/// 0 in every report while Chromium's lost total rose (by 56 to 198 a report behind a 600 kbit/s token
/// bucket), so the totals are what the estimate can trust.
package struct LossBetweenReports: Sendable {
    private var last: (lost: Int, sent: Int)?

    package init() {}

    /// The fraction of the packets sent since the last call that were reported lost, 0 to 1: nil the
    /// first time, when nothing was sent since, or when a total went back (a new stream).
    package mutating func fraction(lost: Int, sent: Int) -> Double? {
        defer { last = (lost, sent) }
        guard let last, sent > last.sent, lost >= last.lost else { return nil }
        return min(1, Double(lost - last.lost) / Double(sent - last.sent))
    }
}
