import CGStreamer
import CGStreamerShim
import GstPipeSupport
import Synchronization

extension Pipeline {
    /// The samples reaching the appsink named `name`, as an AsyncSequence fed by appsink's callbacks.
    /// The sequence ends at end of stream, and also when the run ends before end of stream reaches the
    /// appsink: it throws the error when an element fails, and ends when the pipeline is stopped (leaves
    /// PAUSED for READY or NULL) or released. Samples already queued come first. At most `capacity` samples wait unread in the appsink
    /// (its `max-buffers`, with `drop=false`): past that, the streaming thread waits inside appsink for
    /// the reader, so a slow reader slows the pipeline and memory stays bounded, and stopping the
    /// pipeline always releases it. Call before the pipeline plays; one sequence per appsink.
    ///
    /// Samples an earlier run left unread stay in the appsink across READY (GStreamer 1.22 empties it
    /// only on the way to NULL): they come first, before the new run's.
    ///
    /// The corresponding C functions are `gst_app_sink_set_callbacks` and `gst_app_sink_try_pull_sample`.
    ///
    /// - Parameters:
    ///   - name: The appsink's name in the pipeline.
    ///   - capacity: How many samples may wait unread (at least 1).
    /// - Returns: The sequence of samples.
    /// - Throws: ``GStreamerError`` (invalid argument) when there is no appsink named `name`.
    public func samples(fromAppSink name: String, capacity: Int = 4) throws(GStreamerError) -> AppSinkSamples {
        guard let element = element(named: name), element.isA(gst_app_sink_get_type()) else {
            throw GStreamerError(kind: .invalidArgument, message: "no appsink named \"\(name)\" in the pipeline")
        }
        return samples(from: AppSink(element.pointer, owned: false), capacity: capacity)
    }

    /// The samples reaching `appSink`, an appsink in this pipeline (made in code, say), as an
    /// AsyncSequence: see ``samples(fromAppSink:capacity:)``. The sequence sets the appsink's callbacks,
    /// `max-buffers` and `drop`: pull no samples from it any other way meanwhile.
    ///
    /// The corresponding C functions are `gst_app_sink_set_callbacks` and `gst_app_sink_try_pull_sample`.
    ///
    /// - Parameters:
    ///   - appSink: An appsink inside this pipeline.
    ///   - capacity: The most samples waiting unread in the appsink (at least 1).
    /// - Returns: The samples, in order, ending at end of stream, on an error (thrown) or when the
    ///   pipeline stops.
    public func samples(from appSink: AppSink, capacity: Int = 4) -> AppSinkSamples {
        let samples = AppSinkSamples(appsink: appSink, capacity: capacity)
        if let error = router.firstError {
            samples.box.end(error)
        } else {
            router.watchRunEnd { [box = samples.box] error in box.end(error) }
        }
        return samples
    }
}

/// `Element` as seen from inside `AppSinkSamples`, where `Element` names the sequence's elements.
typealias ElementHandle = Element

/// Samples from an appsink, in order; see `Pipeline.samples(fromAppSink:capacity:)`.
public struct AppSinkSamples: AsyncSequence, Sendable {
    /// Each element of the sequence is a sample: a buffer with its caps and segment.
    public typealias Element = Sample
    /// Iterating throws the error an element posted.
    public typealias Failure = GStreamerError
    /// One element per sample appsink has queued; finished at end of stream or at the end of the run.
    private let arrivals: AsyncStream<Void>
    private let appsink: ElementHandle
    let box: ContinuationBox

    init(appsink: ElementHandle, capacity: Int) {
        let (arrivals, continuation) = AsyncStream.makeStream(of: Void.self)
        self.arrivals = arrivals
        self.appsink = appsink
        box = ContinuationBox(continuation)
        try? appsink.set("max-buffers", Swift.max(capacity, 1))
        try? appsink.set("drop", false)
        try? appsink.set("emit-signals", false)
        var callbacks = GstAppSinkCallbacks()
        callbacks.new_sample = { _, userData in
            Unmanaged<ContinuationBox>.fromOpaque(userData!).takeUnretainedValue().continuation.yield()
            return GST_FLOW_OK
        }
        // Preroll announces a sample too: samples queued before these callbacks (an earlier run's) fill the
        // appsink without announcement, and then preroll is the only sign that the reader must pull.
        callbacks.new_preroll = callbacks.new_sample
        callbacks.eos = { _, userData in
            Unmanaged<ContinuationBox>.fromOpaque(userData!).takeUnretainedValue().continuation.finish()
        }
        gst_app_sink_set_callbacks(
            appsink.appSinkPointer, &callbacks, Unmanaged.passRetained(box).toOpaque(),
            { userData in Unmanaged<ContinuationBox>.fromOpaque(userData!).release() })
    }

    final class ContinuationBox: Sendable {
        let continuation: AsyncStream<Void>.Continuation
        /// Why the run ended before end of stream, when an element failed; thrown once, after the
        /// samples already queued.
        let failure = Locked<GStreamerError?>(nil)
        init(_ continuation: AsyncStream<Void>.Continuation) { self.continuation = continuation }

        func end(_ error: GStreamerError?) {
            if let error { failure.withLock { $0 = $0 ?? error } }
            continuation.finish()
        }
    }

    /// Pulls the appsink's samples in order; one iterator per sequence.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var arrivals: AsyncStream<Void>.AsyncIterator
        let appsink: ElementHandle
        let box: ContinuationBox

        /// The next sample, waiting for one without blocking a thread.
        ///
        /// The corresponding C function is `gst_app_sink_try_pull_sample`.
        ///
        /// - Returns: The sample, or nil at end of stream or once the run has ended.
        /// - Throws: ``GStreamerError``: the error an element posted, once the queued samples are read.
        public mutating func next() async throws(GStreamerError) -> Sample? {
            try await next(isolation: nil)
        }

        /// The next sample, as ``next()`` gives it, on the caller's actor.
        ///
        /// - Parameter actor: The actor to stay isolated to while waiting.
        /// - Returns: The sample, or nil at end of stream or once the run has ended.
        /// - Throws: ``GStreamerError``: the error an element posted, once the queued samples are read.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(GStreamerError) -> Sample? {
            // Samples may wait unannounced (an earlier run's): take those first.
            if let sample = pull() { return sample }
            // A flush may have dropped samples that were announced: skip announcements with nothing behind.
            while await arrivals.next(isolation: actor) != nil {
                if let sample = pull() { return sample }
            }
            if let sample = pull() { return sample }
            if let error = box.failure.withLock({ failure in
                defer { failure = nil }
                return failure
            }) {
                throw error
            }
            return nil
        }

        private func pull() -> Sample? {
            gst_app_sink_try_pull_sample(appsink.appSinkPointer, 0).map { Sample(taking: $0) }
        }
    }

    /// The iterator over the appsink's samples.
    ///
    /// - Returns: An iterator; make one per sequence (they pull from the same appsink).
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(arrivals: arrivals.makeAsyncIterator(), appsink: appsink, box: box)
    }
}

extension Element {
    var appSinkPointer: UnsafeMutablePointer<GstAppSink> {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstAppSink.self)
    }
}
