import CGStreamer
import CGStreamerShim

/// One element instance written in Swift, as its implementation and user code see it: a source, a sink
/// or a filter that presents itself to the pipeline as one ordinary element.
///
/// The element owns this object (released in its finalize). The object may outlive the element
/// (`Element.swiftElement` hands it out, a source's consumer may be kept by a thread of the user's): its
/// calls then find the element gone (a push returns `.flushing`). Behind it are the parts every kind
/// shares (ElementCore: lifecycle, buffer pool, counters) and the kind's own object (ElementBody.swift:
/// an appsrc source, a pulled source, an appsink sink or a filter with pads of its own), which this
/// handle passes the calls that differ by kind to. Both are set once during instance init, before
/// GStreamer can call in, and never change.
public final class SwiftElement: @unchecked Sendable {
    let core: ElementCore
    let body: any ElementBody
    /// The element's kind.
    public let kind: SwiftElementKind
    /// The element's property values.
    public let properties: ElementProperties

    /// The Swift half of the element, as `ElementType.register` made it.
    public var implementation: any ElementImplementation { core.implementation }

    /// Frames in and out so far, and the time spent in Swift code.
    package var statistics: SwiftElementStatistics { core.counters.statistics }

    /// Makes the kind's children and pads in `element` (being initialized), then the implementation,
    /// then lets GStreamer call in.
    init(element: UnsafeMutablePointer<GstElement>, type: ElementTypeBox) {
        kind = type.description.kind
        properties = ElementProperties(specs: type.description.properties)
        core = ElementCore(element: element, properties: properties)
        body = type.description.bodyType.init(core: core, description: type.description)
        core.implementation = type.makeDelegate(self)
        body.installCallbacks()
    }

    /// The element's name, such as "gray0"; empty once the element is gone.
    ///
    /// The corresponding C function is `gst_object_get_name`.
    public var name: String { core.name }

    /// Pushes a buffer downstream with `caps`, keeping the segment of `input` (a filter's input
    /// sample) so timestamps keep their meaning after seeks. A filter pushes through its source pad,
    /// on the calling thread, and waits as long as downstream does; a source through its appsrc,
    /// waiting while the appsrc's small queue is full. Either way a slow downstream slows the caller.
    /// `segmentOffset` moves that segment later, for timestamps moved by as much (see
    /// `Sample.init(buffer:caps:segmentFrom:offset:)`). Once the element is gone, returns `.flushing`
    /// (the data is dropped, as in a stopped pipeline).
    ///
    /// The corresponding C functions are `gst_pad_push` (filters) and `gst_app_src_push_buffer`.
    ///
    /// - Parameters:
    ///   - buffer: The data, with its timestamps (nanoseconds); the element takes its own reference.
    ///   - caps: The buffer's caps; sent downstream only when they change.
    ///   - input: The input sample whose segment the output keeps, or nil for a source's own segment.
    ///   - segmentOffset: Nanoseconds to move `input`'s segment later.
    /// - Returns: Downstream's answer: ``FlowResult/ok``, ``FlowResult/flushing`` while stopping or seeking,
    ///   ``FlowResult/endOfStream`` when downstream wants no more, or an error.
    public func push(
        _ buffer: Buffer, caps: Caps, segmentFrom input: Sample? = nil, segmentOffset: ClockTime = 0
    ) -> FlowResult {
        body.push(buffer, caps: caps, segmentFrom: input, segmentOffset: segmentOffset)
    }

    /// Ends the stream downstream once the queued buffers are out.
    ///
    /// The corresponding C function is `gst_app_src_end_of_stream`.
    ///
    /// - Returns: ``FlowResult/ok`` when the end of stream was queued or sent, else why not (such as
    ///   ``FlowResult/flushing`` while stopping).
    @discardableResult
    public func endOfStream() -> FlowResult {
        body.endOfStream()
    }

    /// What downstream of the source pad accepts, within `filter`, in downstream's order of preference.
    ///
    /// The corresponding C function is `gst_pad_peer_query_caps`.
    ///
    /// - Parameter filter: The caps the element could produce.
    /// - Returns: The part of `filter` downstream accepts (empty when none); `filter` itself when the element
    ///   has no source pad.
    public func downstreamCaps(filter: Caps) -> Caps {
        guard let srcPad = body.srcPad else { return filter }
        return Caps(taking: gst_pad_peer_query_caps(srcPad, filter.pointer))
    }

    /// A writable buffer for one frame of layout `info`, from a GstVideoBufferPool the element owns
    /// (buffers carry a GstVideoMeta with the pool's strides).
    /// The pool is made on first use and again when `info` changes. It has no maximum: frames held
    /// downstream never make this wait.
    ///
    /// The corresponding C function is `gst_buffer_pool_acquire_buffer`.
    ///
    /// - Parameter info: The frame's format, size and layout.
    /// - Returns: A writable buffer of `info.size` bytes, its contents undefined.
    /// - Throws: ``GStreamerError`` (core) when the pool cannot be set up for `info`, or is shutting down
    ///   (the element is stopping).
    public func makeVideoBuffer(_ info: VideoInfo) throws(GStreamerError) -> Buffer {
        try core.pool.buffer(size: info.size, video: info) { name }
    }

    /// A writable buffer of `size` bytes from a buffer pool the element owns: buffers come back to the
    /// pool once downstream is done with them, which costs less than allocating each one (an audio
    /// source's 10 ms buffers). Its timestamps, flags and metadata are unset, as a new buffer's.
    ///
    /// The corresponding C function is `gst_buffer_pool_acquire_buffer`.
    ///
    /// - Parameter size: The buffer's size in bytes; a new pool is made when it changes.
    /// - Returns: A buffer nobody else holds, so writable.
    /// - Throws: `GStreamerError` when no pool can be set up for that size, or the pool is shutting down.
    public func makeBuffer(size: Int) throws(GStreamerError) -> Buffer {
        guard size > 0 else { return try Buffer(size: size) }
        return try core.pool.buffer(size: size, video: nil) { name }
    }

    /// Restricts what the sink pad accepts (the appsink's caps) to `caps`, within the pad template.
    ///
    /// The corresponding C function is `gst_app_sink_set_caps` (sinks).
    ///
    /// - Parameter caps: What the sink pad may accept from now on; upstream renegotiates to fit.
    public func restrictSinkCaps(_ caps: Caps) {
        body.restrictSinkCaps(caps)
    }

    /// A property was set (`id` counts from 1, in the order of the type's specs).
    func propertyChanged(id: Int) {
        body.propertyChanged(properties.specs[id - 1])
    }

    /// Posts an error message from this element on the bus (the pipeline then stops with it).
    ///
    /// The corresponding C function is `gst_element_message_full` with `GST_MESSAGE_ERROR`
    /// (`GST_ELEMENT_ERROR`).
    ///
    /// - Parameters:
    ///   - text: The message for the user.
    ///   - debug: Details for developers, or nil.
    public func postError(_ text: String, debug: String? = nil) {
        core.postError(text, debug: debug)
    }

    /// Says on the bus that the element's `latency` changed: the pipeline (GstBin, in GStreamer 1.22)
    /// then asks its sinks again and tells them the new latency.
    ///
    /// The corresponding C function is `gst_message_new_latency`.
    public func postLatencyChanged() {
        _ = core.whileAlive {
            let object = UnsafeMutableRawPointer(core.element).assumingMemoryBound(to: GstObject.self)
            return gst_element_post_message(core.element, gst_message_new_latency(object))
        }
    }

    /// Posts a warning message from this element on the bus.
    ///
    /// The corresponding C function is `gst_element_message_full` with `GST_MESSAGE_WARNING`.
    ///
    /// - Parameters:
    ///   - text: The message for the user.
    ///   - debug: Details for developers, or nil.
    public func postWarning(_ text: String, debug: String? = nil) {
        _ = core.whileAlive { CGStreamerShim_element_post_warning(core.element, text, debug) }
    }
}
