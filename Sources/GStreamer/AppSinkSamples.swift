import CGStreamer
import CGStreamerShim
import Dispatch
import Synchronization

extension Pipeline {
    /// The samples reaching the appsink named `name`, as an AsyncSequence fed by appsink's callbacks.
    /// The sequence ends at end of stream. At most `capacity` samples wait unread: past that, the
    /// streaming thread waits for the reader (a slow reader slows the pipeline; memory stays bounded).
    /// Call before the pipeline plays; one sequence per appsink.
    ///
    /// The corresponding C function is `gst_app_sink_set_callbacks`.
    public func samples(fromAppSink name: String, capacity: Int = 4) throws(GStreamerError) -> AppSinkSamples {
        guard let element = element(named: name), element.factoryName == "appsink",
            let pad = element.pad(named: "sink")
        else {
            throw GStreamerError(kind: .invalidArgument, message: "no appsink named \"\(name)\" in the pipeline")
        }
        return AppSinkSamples(appsink: element.pointer, sinkPad: pad, capacity: capacity)
    }
}

/// Samples from an appsink, in order; see `Pipeline.samples(fromAppSink:capacity:)`.
public struct AppSinkSamples: AsyncSequence, Sendable {
    public typealias Element = Sample
    private let stream: AsyncStream<Sample>
    private let channel: Channel

    /// Shared by the appsink callbacks and the reader: free slots, and whether the reader left.
    final class Channel: Sendable {
        let slots: DispatchSemaphore
        let continuation: AsyncStream<Sample>.Continuation
        let readerGone = Atomic<Bool>(false)
        let sinkPad: Pad

        init(capacity: Int, continuation: AsyncStream<Sample>.Continuation, sinkPad: Pad) {
            self.slots = DispatchSemaphore(value: capacity)
            self.continuation = continuation
            self.sinkPad = sinkPad
        }

        /// Waits for a free slot; gives up when the reader is gone or the appsink is being stopped.
        func waitForSlot() -> Bool {
            while slots.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
                if readerGone.load(ordering: .relaxed) || sinkPad.isFlushing { return false }
            }
            return true
        }
    }

    init(appsink: UnsafeMutablePointer<GstElement>, sinkPad: Pad, capacity: Int) {
        let (stream, continuation) = AsyncStream.makeStream(of: Sample.self)
        let channel = Channel(capacity: Swift.max(capacity, 1), continuation: continuation, sinkPad: sinkPad)
        continuation.onTermination = { _ in channel.readerGone.store(true, ordering: .relaxed) }
        self.stream = stream
        self.channel = channel
        let sink = UnsafeMutableRawPointer(appsink).assumingMemoryBound(to: GstAppSink.self)
        var callbacks = GstAppSinkCallbacks()
        callbacks.new_sample = { sink, userData in
            let channel = Unmanaged<Channel>.fromOpaque(userData!).takeUnretainedValue()
            guard let sample = gst_app_sink_pull_sample(sink) else { return GST_FLOW_FLUSHING }
            let wrapped = Sample(taking: sample)
            guard channel.waitForSlot() else { return GST_FLOW_FLUSHING }
            channel.continuation.yield(wrapped)
            return GST_FLOW_OK
        }
        callbacks.eos = { _, userData in
            Unmanaged<Channel>.fromOpaque(userData!).takeUnretainedValue().continuation.finish()
        }
        gst_app_sink_set_callbacks(
            sink, &callbacks, Unmanaged.passRetained(channel).toOpaque(),
            { userData in Unmanaged<Channel>.fromOpaque(userData!).release() })
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Sample>.AsyncIterator
        let channel: Channel

        public mutating func next() async -> Sample? {
            guard let sample = await base.next() else { return nil }
            channel.slots.signal()
            return sample
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), channel: channel)
    }
}

extension Pad {
    /// True while the pad refuses data (its element is stopping or a seek is flushing it).
    var isFlushing: Bool {
        (pointer.pointee.object.flags & GST_PAD_FLAG_FLUSHING.rawValue) != 0
    }
}
