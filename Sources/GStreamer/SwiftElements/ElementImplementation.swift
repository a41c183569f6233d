/// The Swift half of one element instance made by `ElementType.register`. GStreamer calls these on
/// its own threads: lifecycle calls on the thread changing state, `render` and `needData` on
/// streaming threads. The lifecycle calls come once per transition, in order, never concurrently.
public protocol ElementImplementation: AnyObject, Sendable {
    /// NULL → READY. Throwing fails the state change with the error's description on the bus.
    ///
    /// - Throws: Anything; the state change to READY then fails, with the error's description in an error
    ///   message naming the element.
    func initialize() throws
    /// PAUSED → PLAYING, or the first data, whichever comes first.
    func start()
    /// PLAYING → PAUSED, or PAUSED → READY after a start by data; once per start.
    func stop()
    /// READY → NULL, once per successful initialize.
    func dispose()
    /// A sample from upstream (sinks and filters), on the streaming thread.
    ///
    /// - Parameter sample: The buffer with its caps and segment.
    /// - Returns: ``FlowResult/ok`` to go on; ``FlowResult/flushing`` or ``FlowResult/endOfStream`` (passed
    ///   back from a push) stop upstream quietly; ``FlowResult/error`` stops the pipeline (post an error first).
    func render(_ sample: Sample) -> FlowResult
    /// Upstream ended (sinks and filters), after the last `render`. A filter's end of stream is then
    /// passed downstream by the element.
    func endOfStream()
    /// The element's appsrc wants more data (sources), on its streaming thread.
    func needData()
    /// A filter's caps on one side for `caps` on the other: the caps its sink pad accepts for what
    /// downstream accepts (`towardsSink`), or what its source pad offers for upstream's caps.
    ///
    /// - Parameters:
    ///   - caps: Caps on one side: downstream's when `towardsSink`, else upstream's.
    ///   - towardsSink: True to ask for the sink pad's caps, false for the source pad's.
    /// - Returns: The caps on the other side, within its pad template.
    func transformCaps(_ caps: Caps, towardsSink: Bool) -> Caps
    /// A flush (a seek) went through the element, or it went from PAUSED down to READY (filters): data
    /// held from before is stale. Called while no `render` runs.
    func flushed()
    /// A flush (a seek) started (sinks and filters): data held is stale, and a `render` waiting for
    /// room must return now. Called on the thread that flushes, possibly while `render` runs.
    func flushStarted()
    /// How long the element holds data back before its output (filters), such as an encoder's
    /// lookahead: added to upstream's latency when downstream asks, so live pipelines wait for it.
    /// Asked on any thread, possibly while `render` waits downstream: must not wait for `render`.
    var latency: ClockTime { get }
}

extension ElementImplementation {
    /// The default: does nothing.
    public func start() {}
    /// The default: does nothing.
    public func stop() {}
    /// The default: does nothing.
    public func dispose() {}
    /// The default: drops the sample.
    ///
    /// - Parameter sample: The sample, ignored.
    /// - Returns: ``FlowResult/ok``.
    public func render(_ sample: Sample) -> FlowResult { .ok }
    /// The default: does nothing.
    public func endOfStream() {}
    /// The default: does nothing (a source that pushes from its own thread needs no call).
    public func needData() {}
    /// The default: the same caps on both sides (a filter that keeps the format).
    ///
    /// - Parameters:
    ///   - caps: Caps on one side.
    ///   - towardsSink: Which side is asked for; ignored.
    /// - Returns: `caps`.
    public func transformCaps(_ caps: Caps, towardsSink: Bool) -> Caps { caps }
    /// The default: does nothing.
    public func flushed() {}
    /// The default: does nothing.
    public func flushStarted() {}
    /// The default: 0, the element holds nothing back.
    public var latency: ClockTime { 0 }
}
