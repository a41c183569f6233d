import CGStreamer
import CGStreamerShim
import GstPipeSupport

/// A GstPromise: how an element answers a request later, on a thread of its own (webrtcbin's
/// `create-offer` replies with a structure holding the offer). Make one, hand it to an action
/// signal as ``Value/init(_:)-(Promise)``, and `await` its ``reply()``: the task is resumed by
/// GStreamer's thread when the element replies, so no thread of Swift's cooperative pool waits.
///
/// A promise that came the other way (a signal handler's argument, ``Value/promise``) is answered
/// with ``reply(with:)``.
///
/// The corresponding C type is `GstPromise`; Rust's gstreamer-rs has `gst::Promise` with a future.
public final class Promise: @unchecked Sendable {
    // GstPromise is a thread-safe mini-object: reply, interrupt, expire and wait take its own lock.
    let pointer: UnsafeMutablePointer<GstPromise>
    // What the change function saw, and the tasks awaiting it.
    private let outcome: PromiseOutcome
    // False for a promise made elsewhere (a signal handler's argument): its change function, if any,
    // is not ours, so `reply()` has a thread of its own wait for it.
    private let madeHere: Bool

    /// A new pending promise whose ``reply()`` can be awaited.
    ///
    /// The corresponding C function is `gst_promise_new_with_change_func`.
    public init() {
        try? GStreamer.initialize()
        let outcome = PromiseOutcome()
        self.outcome = outcome
        madeHere = true
        let data = Unmanaged.passRetained(outcome).toOpaque()
        pointer = gst_promise_new_with_change_func(
            { promise, data in
                guard let promise, let data else { return }
                Unmanaged<PromiseOutcome>.fromOpaque(data).takeUnretainedValue().settle(promise)
            }, data, nil)
        // The outcome is released as the GstPromise is finalized, by a weak reference: not by the
        // change function's notify, whose data gst_promise_expire clears (the outcome leaked).
        pointer.withMemoryRebound(to: GstMiniObject.self, capacity: 1) { object in
            gst_mini_object_weak_ref(
                object,
                { data, _ in
                    guard let data else { return }
                    Unmanaged<PromiseOutcome>.fromOpaque(data).release()
                }, data)
        }
    }

    /// Wraps a promise made elsewhere, with a reference of its own.
    init(borrowing pointer: UnsafeMutablePointer<GstPromise>) {
        self.pointer = gst_promise_ref(pointer)
        outcome = PromiseOutcome()
        madeHere = false
    }

    deinit {
        // GStreamer requires a promise to be settled before it is freed; one made here that no one
        // can await any more is interrupted (an element's late reply to it is then dropped quietly).
        if madeHere && state == .pending { gst_promise_interrupt(pointer) }
        gst_promise_unref(pointer)
    }

    /// The promise's state now, without waiting. For a promise made elsewhere, `.pending` until it was
    /// settled through this wrapper or awaited with ``reply()`` (GStreamer tells a promise's result
    /// only by waiting for it).
    public var state: PromiseState { outcome.state }

    /// Waits for the reply, suspending the task (no thread blocks): the reply's structure, or nil when
    /// the element replied with none (webrtcbin's `set-local-description` does). Cancelling the task
    /// interrupts the promise.
    ///
    /// The corresponding C functions are the promise's change function, `gst_promise_get_reply` and,
    /// on cancellation, `gst_promise_interrupt`.
    ///
    /// - Returns: A copy of the reply structure, or nil.
    /// - Throws: ``GStreamerError`` (runtime) when the promise was interrupted (by the element, or the
    ///   task's cancellation) or expired.
    public func reply() async throws(GStreamerError) -> Structure? {
        if !madeHere { outcome.watchOnce(self) }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { outcome.wait($0) }
        } onCancel: {
            interrupt()
        }
        return try result.get()
    }

    /// Replies to the promise (as an element does), resuming whoever awaits it; a promise already
    /// replied to, interrupted or expired through this wrapper is left as it is.
    ///
    /// The corresponding C function is `gst_promise_reply`.
    ///
    /// - Parameter structure: The reply; nil replies with none.
    public func reply(with structure: Structure?) {
        guard state == .pending else { return }
        gst_promise_reply(pointer, structure.map { $0.withUnsafeGstStructure { GstStructure.copy($0) } })
        outcome.settle(pointer)
    }

    /// Interrupts the promise: the element's eventual reply is dropped, and ``reply()`` throws.
    ///
    /// The corresponding C function is `gst_promise_interrupt`.
    public func interrupt() {
        gst_promise_interrupt(pointer)
        outcome.settle(pointer)
    }

    /// Expires the promise: the party that would reply learns no one waits any more.
    ///
    /// The corresponding C function is `gst_promise_expire`.
    public func expire() {
        gst_promise_expire(pointer)
        outcome.settle(pointer)
    }
}

/// Where a promise stands.
///
/// The corresponding C type is `GstPromiseResult`.
public enum PromiseState: Sendable, Equatable {
    /// Not yet replied to.
    case pending
    /// Interrupted: no reply will come.
    case interrupted
    /// Replied to.
    case replied
    /// Expired: no one waits for the reply.
    case expired

    init(_ result: GstPromiseResult) {
        switch result {
        case GST_PROMISE_RESULT_REPLIED: self = .replied
        case GST_PROMISE_RESULT_INTERRUPTED: self = .interrupted
        case GST_PROMISE_RESULT_EXPIRED: self = .expired
        default: self = .pending
        }
    }
}

/// A promise's outcome as its change function saw it, and the continuations awaiting it: settled
/// once, from whichever thread replies, interrupts or expires the promise.
final class PromiseOutcome: Sendable {
    typealias Waiter = CheckedContinuation<Result<Structure?, GStreamerError>, Never>
    private let guarded = Locked<(result: Result<Structure?, GStreamerError>?, state: PromiseState, waiters: [Waiter])>(
        (nil, .pending, []))

    private let watching = Locked(false)

    var state: PromiseState { guarded.withLock { $0.state } }

    /// For a promise made elsewhere: a thread of its own waits on it (`gst_promise_wait` blocks), never
    /// one of Swift's cooperative pool; started once, holding the promise until it is settled.
    func watchOnce(_ promise: Promise) {
        guard
            watching.withLock({ started in
                defer { started = true }
                return !started
            })
        else { return }
        let job = Unmanaged.passRetained(WatchJob(outcome: self, promise: promise)).toOpaque()
        g_thread_unref(
            g_thread_new(
                "gstpipe-promise",
                { data in
                    let job = Unmanaged<WatchJob>.fromOpaque(data!).takeRetainedValue()
                    _ = gst_promise_wait(job.promise.pointer)
                    job.outcome.settle(job.promise.pointer)
                    return nil
                }, job))
    }

    private final class WatchJob: Sendable {
        let outcome: PromiseOutcome
        let promise: Promise
        init(outcome: PromiseOutcome, promise: Promise) {
            self.outcome = outcome
            self.promise = promise
        }
    }

    /// Records the promise's result (it is no longer pending: its change function runs after the
    /// result is set) and resumes every waiter.
    func settle(_ promise: UnsafeMutablePointer<GstPromise>) {
        let state = PromiseState(gst_promise_wait(promise))
        let result: Result<Structure?, GStreamerError> =
            switch state {
            case .replied: .success(gst_promise_get_reply(promise).map { Structure(copying: $0) })
            case .pending, .interrupted:
                .failure(GStreamerError(kind: .runtime, message: "the promise was interrupted: no reply will come"))
            case .expired: .failure(GStreamerError(kind: .runtime, message: "the promise expired"))
            }
        let waiters = guarded.withLock { guarded in
            guard guarded.result == nil else { return [Waiter]() }
            guarded.result = result
            guarded.state = state
            defer { guarded.waiters = [] }
            return guarded.waiters
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }

    /// Resumes `waiter` with the result: now when it is known, else when it comes.
    func wait(_ waiter: Waiter) {
        let known = guarded.withLock { guarded in
            if guarded.result == nil { guarded.waiters.append(waiter) }
            return guarded.result
        }
        if let known { waiter.resume(returning: known) }
    }
}
