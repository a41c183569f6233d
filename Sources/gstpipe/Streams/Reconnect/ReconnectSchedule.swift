/// When a lost input (`--reconnect`) is opened again, and when gstpipe gives up on it: the waits
/// between tries double from one second up to thirty (1, 2, 4, 8, 16, 30, 30, ... s), so a camera
/// that reboots in a few seconds is back at once while one that is gone for an hour costs a try
/// every half minute; and with `--reconnect-max`, an input away for longer than that, in one
/// stretch, ends the run (exit 1).
struct ReconnectSchedule: Sendable, Equatable {
    /// The first wait, after the input is lost.
    var first: Duration = .seconds(1)
    /// The longest wait between two tries.
    var longest: Duration = .seconds(30)
    /// How long the input may stay away before the run ends; nil tries for as long as it runs.
    var giveUpAfter: Duration?

    /// The wait before try number `attempt` (1 for the first try after the loss): `first`, doubled
    /// for each try before it, never more than `longest`.
    func delay(beforeAttempt attempt: Int) -> Duration {
        var delay = first
        for _ in 1..<max(attempt, 1) {
            delay *= 2
            if delay >= longest { return longest }
        }
        return min(delay, longest)
    }

    /// True when an input away for `away` is not to be waited for any longer.
    func givesUp(away: Duration) -> Bool {
        giveUpAfter.map { away >= $0 } ?? false
    }

    /// How long to sleep before try number `attempt`, for an input away for `away` so far: the
    /// delay, cut short where `giveUpAfter` comes first (so that giving up is on time).
    func sleep(beforeAttempt attempt: Int, away: Duration) -> Duration {
        let delay = delay(beforeAttempt: attempt)
        guard let giveUpAfter else { return delay }
        return max(.zero, min(delay, giveUpAfter - away))
    }
}
