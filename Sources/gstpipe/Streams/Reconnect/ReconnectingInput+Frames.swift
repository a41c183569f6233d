import CGStreamer
import Foundation
import GstPipeParsing
import GstPipeSupport
import MediaIO
import Synchronization

/// The pictures: each connection's frames into the outputs' live source, and the held frame or the slate
/// while the input is away.
extension ReconnectingInput {
    /// A frame from `connection`, on its streaming thread: its time moved into the run's
    /// (`timingSlack`), and pushed when that time comes, not before: a connection that starts, or a
    /// network that recovers, hands on a burst of frames at once, which is paced here as a
    /// synchronized sink would. The first frame fixes the caps; the first after a loss says the input
    /// is back.
    func take(_ sample: Sample, of connection: Int) {
        guard let buffer = sample.buffer, let caps = sample.caps else { return }
        // The frame's running time in its connection's pipeline, which is live: its clock's time.
        let own = Self.runningTime(of: buffer, in: sample)
        enum Outcome {
            case pushed(first: Bool), early(ClockTime), otherCaps, closed, undecided
        }
        var outcome = Outcome.closed
        while true {
            guard let now = source.currentRunningTime else { return }
            outcome = feed.withLock { feed -> Outcome in
                guard !feed.closed, feed.connection == connection else { return .closed }
                guard feed.streamsDecided else { return .undecided }
                if let fixed = feed.caps, fixed != caps { return .otherCaps }
                let ahead = now + Self.timingSlack
                var pts = ahead
                if let own {
                    let mapped = feed.offset.map { Int64(own) + $0 }
                    // Late (held back longer than the slack) or a second early (the connection's time
                    // jumped): the spacing starts again from this frame.
                    if let mapped, mapped >= Int64(now), mapped <= Int64(ahead + 1_000_000_000) {
                        pts = ClockTime(mapped)
                        if pts > ahead + 2_000_000 { return .early(pts - ahead) }
                    } else {
                        feed.offset = Int64(ahead) - Int64(own)
                    }
                }
                let first = feed.caps == nil
                if first { fix(caps, in: &feed) }
                // Less than half a frame after the last frame pushed (the filler's, just before the input came
                // back): a muxer counting in frames stamps both alike, and the recording's file then has two
                // frames at one time, which players refuse. This frame goes a frame after that one, and the
                // connection's next frames keep their spacing from it.
                if let last = feed.lastPTS, pts < last + feed.interval / 2 {
                    pts = last + feed.interval
                    if let own { feed.offset = Int64(pts) - Int64(own) }
                }
                if feed.showing != .input && feed.lastPTS != nil { feed.keyUnitDue = true }
                feed.showing = .input
                feed.lastPTS = pts
                feed.lastInputAt = now
                feed.lastFrame = buffer
                let stamped = buffer.withTimestamps(pts: pts, duration: feed.interval)
                stamped.dts = nil
                _ = source.push(stamped)
                return .pushed(first: first)
            }
            guard case .early(let wait) = outcome else { break }
            Thread.sleep(forTimeInterval: Double(min(wait, 100_000_000)) / 1e9)
        }
        switch outcome {
        case .closed, .early: return
        case .undecided:
            // A source that never says no-more-pads: after two seconds of video, the audio is left out.
            let waited = link.withLock { link -> Duration in
                let since = link.undecidedSince ?? .now
                link.undecidedSince = since
                return .now - since
            }
            if waited >= .seconds(2) {
                decideStreams(hasAudio: false, of: connection)
                noteAudioLeftOut()
            }
            return
        case .otherCaps:
            // Only the first connection can: later ones are converted to the caps.
            let picture =
                (try? VideoInfo(caps: caps)).map { "\($0.width)x\($0.height) \($0.formatName)" } ?? "other caps"
            link.withLock { $0.ended = $0.ended ?? "it changed its picture to \(picture)" }
            return
        case .pushed(let first):
            if first {
                DispatchQueue.global().async { [weak self] in
                    let slate = Slate.make(in: caps)
                    self?.feed.withLock { $0.slate = slate }
                }
            }
        }
        let arrived = ContinuousClock.now
        let back = link.withLock { link -> (away: Duration, first: Bool)? in
            link.lastSample = arrived
            guard let since = link.awaySince else { return nil }
            defer {
                link.awaySince = nil
                link.everDelivered = true
            }
            return (arrived - since, !link.everDelivered)
        }
        guard let back else { return }
        if !back.first {
            note("input back after \(Self.seconds(back.away, decimals: 1))")
        }
        health.record(.delivering, awayFor: back.first ? nil : back.away)
    }

    /// The running time of `buffer` in its connection's pipeline, nil without one. The timestamps are the
    /// sender's: one that does not fit the signed arithmetic of the offsets (past 2^62 ns, 146 years)
    /// counts as none, rather than trapping there.
    static func runningTime(of buffer: Buffer, in sample: Sample) -> ClockTime? {
        guard let pts = buffer.pts, let segment = sample.segment, pts >= segment.start else { return nil }
        let (time, overflow) = segment.base.addingReportingOverflow(pts - segment.start)
        return !overflow && time < 1 << 62 ? time : nil
    }

    /// The first frame's caps are the stream's: the appsrc's, and a frame's duration at their rate.
    func fix(_ caps: Caps, in feed: inout Feed) {
        feed.caps = caps
        source.caps = caps
        if let info = try? VideoInfo(caps: caps), info.framerate.numerator > 0 {
            feed.interval =
                ClockTime(1_000_000_000 * UInt64(info.framerate.denominator)) / ClockTime(info.framerate.numerator)
        }
    }

    /// The thread that stands in for the input: whenever no frame has come for `stallAfter`, it
    /// pushes one a frame's time after the last, until the input is back or the run ends.
    func fill() {
        while true {
            let wait = feed.withLock { feed -> ClockTime? in
                guard !feed.closed else { return nil }
                guard let lastPTS = feed.lastPTS, let lastInputAt = feed.lastInputAt, let lastFrame = feed.lastFrame,
                    let now = source.currentRunningTime
                else { return 50_000_000 }
                let interval = feed.interval
                let stallAfter = max(interval * 5 / 2, 100_000_000)
                guard now >= lastInputAt + stallAfter else { return lastInputAt + stallAfter - now }
                // Pushed as far ahead of its time as the input's frames were (`timingSlack`), so that
                // the input's first frame back follows on without a jump.
                let ahead = now + Self.timingSlack
                let due = lastPTS + interval
                guard ahead >= due else { return due - ahead }
                let holding = now - lastInputAt < Self.lastFrameHold || feed.slate == nil
                let showing: Showing = holding ? .lastFrame : .slate
                if showing == .slate && feed.showing != .slate { feed.keyUnitDue = true }
                feed.showing = showing
                // Behind (this thread waited for a core): the frames missed go at once, on the beat; a
                // second or more behind, the stream goes on from now instead.
                let pts = ahead > due + 1_000_000_000 ? ahead : due
                let frame = (holding ? lastFrame : feed.slate) ?? lastFrame
                let own = frame.withTimestamps(pts: pts, duration: interval)
                own.dts = nil
                _ = source.push(own)
                feed.lastPTS = pts
                return 0
            }
            let audioWait = feed.withLock { feed in fillAudio(&feed) }
            guard let wait else { return }
            let least = min(wait, audioWait)
            if least > 0 { Thread.sleep(forTimeInterval: Double(min(least, 100_000_000)) / 1e9) }
        }
    }
}
