import CGStreamer
import Dispatch
import GStreamer
import GstPipeSupport

/// Holds the run's frames at a `whip+http(s)://` output until webrtcbin's connection (ICE and DTLS)
/// is up. Frames sent before then never reach the server: for a file input, the start of the file
/// was lost, and with it the key frame every later frame needs. So the first frame goes through
/// (it brings webrtcbin its caps, which start the offer, and webrtcbin keeps it until DTLS is up),
/// and each later one waits on the run's streaming thread, which holds the run back: a file waits
/// where it is, and what the server gets starts at the file's first (key) frame.
///
/// The wait is bounded (`limit`), and it ends early when the connection fails or is closed, and
/// when the run stops (its sink pad flushing, or Ctrl-C or a signal asking it to), so that stopping
/// never waits for the bound.
final class WHIPConnectionGate: Sendable {
    /// How long the run waits for the connection before it fails.
    let limit: Duration

    /// How a wait ended.
    enum Outcome: Equatable {
        /// The connection is up: the frame goes on.
        case open
        /// The connection failed or was closed (the failure is said elsewhere), or the run stops.
        case shut
        /// `limit` went by with no connection.
        case timedOut
    }

    private let state = Locked(Outcome?.none)
    private let wakeUp = DispatchSemaphore(value: 0)

    init(limit: Duration) {
        self.limit = limit
    }

    /// The connection is up: every wait ends, and none begins again.
    func open() { settle(.open) }

    /// The connection failed or closed: every wait ends with `shut`.
    func shut() { settle(.shut) }

    /// Once settled, a gate stays as it is (a failure after the connection was up is the run's error).
    private func settle(_ outcome: Outcome) {
        let changed = state.withLock { state -> Bool in
            guard state == nil else { return false }
            state = outcome
            return true
        }
        if changed { wakeUp.signal() }
    }

    /// Blocks the calling thread (the run's streaming thread, in a probe on `pad`) until the gate is
    /// open or shut, `pad` is flushing (the run stops: its state change waits for this thread), or
    /// `limit` has gone by, which shuts the gate.
    func wait(flushing pad: Pad) -> Outcome {
        let deadline = ContinuousClock.now + limit
        while true {
            if let outcome = state.withLock({ $0 }) {
                // Whoever waits next finds it settled too: hand the wake-up on.
                wakeUp.signal()
                return outcome
            }
            // The run stops: flushing, or a stop asked for (Ctrl-C sends end of stream, which waits
            // behind this frame; the input's end of stream waits for this thread's stream lock).
            if StopRequests.isStopping
                || pad.withUnsafePointer({ $0.pointee.object.flags & GST_PAD_FLAG_FLUSHING.rawValue != 0 })
            {
                return .shut
            }
            if ContinuousClock.now >= deadline {
                settle(.timedOut)
                return .timedOut
            }
            _ = wakeUp.wait(timeout: .now() + .milliseconds(50))
        }
    }
}
