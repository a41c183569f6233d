/// The kind of a sink (`VideoSinkKind`, `AudioSinkKind`), whose input a filter's kind reuses: how its
/// sink pad is limited to what the object takes, how a sample becomes what the object renders, and
/// how that reaches it.
protocol SinkKind: MediaIOKind {
    /// What the object renders: a `VideoFrame`, an `AudioFrame`.
    associatedtype Frame

    /// Limits the element's sink pad to what `object` takes, read at initialization.
    ///
    /// - Throws: `GStreamerError` when the caps the object asks for do not parse.
    func accept(_ object: Object, on element: SwiftElement?) throws

    /// The sample as the object sees it.
    ///
    /// - Throws: ``MediaIOError`` for a sample without buffer or caps, or caps MediaIO does not read.
    func frame(from sample: Sample) throws -> Frame

    /// Hands `frame` to the object's render callback.
    ///
    /// - Throws: What the callback throws.
    func deliver(_ frame: Frame, to object: Object, element: SwiftElement?) throws
}

extension SinkKind {
    func render(_ sample: Sample, on object: Object, element: SwiftElement?) throws -> FlowResult {
        try deliver(frame(from: sample), to: object, element: element)
        return .ok
    }
}

/// The kind of a source (`VideoSourceKind`, `AudioSourceKind`), whose output a filter's kind reuses.
protocol SourceKind: MediaIOKind {
    /// What the filter in front renders: its output belongs to the sample that frame came from.
    associatedtype Frame

    /// Runs `body` (a filter's render of `frame`) while the consumer knows `sample`, whose segment (and
    /// caps, for video) its output takes.
    ///
    /// - Returns: How the last push during `body` went.
    /// - Throws: What `body` throws.
    func rendering(_ sample: Sample, of frame: Frame, _ body: () throws -> Void) throws -> FlowResult
}

/// The kind of a filter: a sink's input in front of a source's output, for one object that is both
/// (`VideoFilter = VideoSink & VideoSource`). It initializes as a source (only the source's
/// `shouldInitialize(consumer:)` is called) behind the sink's caps, renders each sample as a sink does
/// while its consumer knows the sample, and ends its stream as a sink.
protocol FilterKind: MediaIOKind
where Input.Object == Object, Output.Object == Object, Output.Frame == Input.Frame {
    associatedtype Input: SinkKind
    associatedtype Output: SourceKind
    /// The sink's half: the sink pad's formats, each sample read and delivered.
    var input: Input { get }
    /// The source's half: the consumer the filter hands its output to.
    var output: Output { get }
    init(input: Input, output: Output)
}

extension FilterKind {
    init(element: SwiftElement) {
        self.init(input: Input(element: element), output: Output(element: element))
    }

    func initialize(_ filter: Object, element: SwiftElement?) throws {
        try input.accept(filter, on: element)
        try output.initialize(filter, element: element)
    }

    func render(_ sample: Sample, on filter: Object, element: SwiftElement?) throws -> FlowResult {
        let frame = try input.frame(from: sample)
        return try output.rendering(sample, of: frame) { try input.deliver(frame, to: filter, element: element) }
    }

    func endOfStream(_ filter: Object) { input.endOfStream(filter) }
}
