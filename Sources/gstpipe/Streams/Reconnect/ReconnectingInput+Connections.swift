import CGStreamer
import Foundation
import GstPipeParsing
import GstPipeSupport
import MediaIO
import Synchronization

/// The connections: one at a time, each in a pipeline of its own, opened again after a loss on the
/// schedule (`ReconnectSchedule`), until the run ends or `--reconnect-max` gives up.
extension ReconnectingInput {
    /// Connects, waits for the connection to end, says so, waits as the schedule says, and again,
    /// until the run ends or the input has been away too long.
    func supervise() async {
        let settings = link.withLock { $0.settings }
        let schedule = ReconnectSchedule(giveUpAfter: settings.reconnectMax)
        var failures = 0
        var saidNotThere = false
        // Why the input was last lost: what giving up names, rather than the last try's failure.
        var lossReason: String?
        while !Task.isCancelled {
            guard let reason = await connectOnce(settings: settings, schedule: schedule) else { return }
            let now = ContinuousClock.now
            let (lost, everDelivered, awaySince) = link.withLock { link -> (Bool, Bool, ContinuousClock.Instant) in
                let lost = link.awaySince == nil
                if lost { link.awaySince = now }
                return (lost, link.everDelivered, link.awaySince ?? now)
            }
            if lost {
                failures = 0
                lossReason = reason
                note("input lost: \(reason)")
                health.record(.away, reason: reason)
            } else if !everDelivered && !saidNotThere {
                saidNotThere = true
                note("cannot read \(input.name) yet: \(reason); trying again (--reconnect)")
                health.record(.starting, reason: reason)
            }
            failures += 1
            if schedule.givesUp(away: now - awaySince) {
                giveUp(reason: lossReason ?? reason, everDelivered: everDelivered)
                return
            }
            try? await Task.sleep(for: schedule.sleep(beforeAttempt: failures, away: now - awaySince))
            if schedule.givesUp(away: .now - awaySince) {
                giveUp(reason: lossReason ?? reason, everDelivered: everDelivered)
                return
            }
        }
    }

    /// One connection, from its start to its end: the reason it ended, or nil when the run ended.
    /// Silence for `--timeout` ends it, and so does being away longer than `--reconnect-max`.
    func connectOnce(settings: StreamSettings, schedule: ReconnectSchedule) async -> String? {
        let (caps, audioCaps, connection, readsAudio) = feed.withLock { feed in
            feed.connection += 1
            feed.offset = nil
            feed.audio?.offset = nil
            return (feed.caps, feed.audio?.caps, feed.connection, !feed.streamsDecided || feed.carriesAudio)
        }
        let started = ContinuousClock.now
        let attempt: InputAttempt
        do {
            attempt = try await InputAttempt(
                input: input, live: live, settings: settings, caps: caps,
                deliver: { [weak self] sample in self?.take(sample, of: connection) },
                audio: carriesAudio && readsAudio
                    ? InputAttempt.Audio(
                        caps: audioCaps,
                        deliver: { [weak self] sample in self?.takeAudio(sample, of: connection) },
                        streams: { [weak self] hasAudio in self?.decideStreams(hasAudio: hasAudio, of: connection) })
                    : nil,
                sawAudio: { [weak self] in self?.noteAudioLeftOut() },
                ended: { [weak self] reason in self?.link.withLock { $0.ended = $0.ended ?? reason } })
        } catch {
            return Secrets.redact(error.message)
        }
        let current = link.withLock { link -> Bool in
            link.attempt = attempt
            link.ended = nil
            link.lastSample = nil
            return !link.closed
        }
        guard current else {
            teardown.async { attempt.stop() }
            return nil
        }
        var reason: String?
        while reason == nil {
            try? await Task.sleep(for: .milliseconds(100))
            let now = ContinuousClock.now
            let (ended, lastSample, awaySince, closed) = link.withLock { link in
                (link.ended, link.lastSample, link.awaySince, link.closed)
            }
            if closed || Task.isCancelled { return nil }
            if let ended {
                reason = ended
            } else if let timeout = settings.inputTimeout, now - (lastSample ?? started) >= timeout {
                reason =
                    lastSample == nil
                    ? "nothing arrived in \(Self.seconds(timeout))" : "it sent nothing for \(Self.seconds(timeout))"
            } else if let awaySince, lastSample == nil, schedule.givesUp(away: now - awaySince) {
                reason = "nothing arrived yet"
            }
        }
        link.withLock { link in
            if link.attempt === attempt { link.attempt = nil }
        }
        // Frames the connection still hands on while it stops are not the input coming back.
        feed.withLock { feed in
            if feed.connection == connection { feed.connection += 1 }
        }
        teardown.async { attempt.stop() }
        return reason
    }

    /// Away longer than `--reconnect-max`: an error from the input, which ends the run (exit 1) with
    /// the outputs finished.
    func giveUp(reason: String, everDelivered: Bool) {
        guard let limit = link.withLock({ $0.closed ? nil : $0.settings.reconnectMax }) else { return }
        health.record(.gaveUp, reason: reason)
        let seconds = Self.seconds(limit)
        if everDelivered {
            bin.postError(
                "\(input.name) has been away for \(seconds) (--reconnect-max): giving up (input lost: \(reason))")
        } else {
            bin.postError("\(reason); not there after \(seconds) of trying (--reconnect-max)")
        }
    }
}
