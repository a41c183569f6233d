import CGStreamer
import CGStreamerShim

extension Pipeline {
    /// The samples reaching the appsink named `name`, as an AsyncSequence fed by appsink's callbacks.
    /// The sequence ends at end of stream. At most `capacity` samples wait unread in the appsink
    /// (its `max-buffers`, with `drop=false`): past that, the streaming thread waits inside appsink for
    /// the reader, so a slow reader slows the pipeline and memory stays bounded, and stopping the
    /// pipeline always releases it. Call before the pipeline plays; one sequence per appsink.
    ///
    /// Samples an earlier run left unread stay in the appsink across READY (GStreamer 1.22 empties it
    /// only on the way to NULL): they come first, before the new run's.
    ///
    /// The corresponding C functions are `gst_app_sink_set_callbacks` and `gst_app_sink_try_pull_sample`.
    public func samples(fromAppSink name: String, capacity: Int = 4) throws(GStreamerError) -> AppSinkSamples {
        guard let element = element(named: name), element.factoryName == "appsink" else {
            throw GStreamerError(kind: .invalidArgument, message: "no appsink named \"\(name)\" in the pipeline")
        }
        return AppSinkSamples(appsink: element, capacity: capacity)
    }
}

/// `Element` as seen from inside `AppSinkSamples`, where `Element` names the sequence's elements.
typealias ElementHandle = Element

/// Samples from an appsink, in order; see `Pipeline.samples(fromAppSink:capacity:)`.
public struct AppSinkSamples: AsyncSequence, Sendable {
    public typealias Element = Sample
    /// One element per sample appsink has queued; finished at end of stream.
    private let arrivals: AsyncStream<Void>
    private let appsink: ElementHandle

    init(appsink: ElementHandle, capacity: Int) {
        let (arrivals, continuation) = AsyncStream.makeStream(of: Void.self)
        self.arrivals = arrivals
        self.appsink = appsink
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
            appsink.appSinkPointer, &callbacks, Unmanaged.passRetained(ContinuationBox(continuation)).toOpaque(),
            { userData in Unmanaged<ContinuationBox>.fromOpaque(userData!).release() })
    }

    final class ContinuationBox: Sendable {
        let continuation: AsyncStream<Void>.Continuation
        init(_ continuation: AsyncStream<Void>.Continuation) { self.continuation = continuation }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var arrivals: AsyncStream<Void>.AsyncIterator
        let appsink: ElementHandle

        public mutating func next() async -> Sample? {
            // Samples may wait unannounced (an earlier run's): take those first.
            if let sample = pull() { return sample }
            // A flush may have dropped samples that were announced: skip announcements with nothing behind.
            while await arrivals.next() != nil {
                if let sample = pull() { return sample }
            }
            return pull()
        }

        private func pull() -> Sample? {
            gst_app_sink_try_pull_sample(appsink.appSinkPointer, 0).map { Sample(taking: $0) }
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(arrivals: arrivals.makeAsyncIterator(), appsink: appsink)
    }
}

extension Element {
    var appSinkPointer: UnsafeMutablePointer<GstAppSink> {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstAppSink.self)
    }
}
