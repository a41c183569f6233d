import Synchronization

// A video sink has two callbacks, `render(_:)` for frames and `renderRawData` for packed bytes, and
// `bufferType` names the one it wants. Both have do-nothing defaults, so a sink whose `bufferType`
// names the callback it did not write (`.rawData` beside a `render(_:)`, or the default `.pixelBuffer`
// beside a `renderRawData`) compiles, and used to get no frame and no word. That is a new user's
// first sink more often than not.
//
// The element serves such a sink instead of failing it: the frames go to the callback it does
// implement, and a warning on the bus says once what happened and what to change. Failing would be
// the worse answer: what the sink wants is not in doubt (it wrote one callback), and the failure
// could not come at start anyway. Swift cannot tell before a call whether a type implements a
// requirement or inherits its default, so the first frame is where anyone can learn it: failing
// there stops a pipeline that had begun to play (a file half written) for a mismatch of one word.
// A sink that implements neither callback is the one case with nothing to serve (usually a
// signature that does not match, `render(frame:)` or a parameter of another type): it fails on its
// first frame with an error naming the callback to write.
//
// How the element learns which callbacks a sink implements: see DefaultCallbackProbe. Each callback
// is asked about once, on the first frame that needs it (the probe runs the call for real: no frame
// is lost or given twice), and the answer is kept, so later frames cost one atomic load.

/// Which of a video sink's two callbacks gets its frames (see the comment above).
final class VideoSinkCallbacks<Sink: VideoSink>: Sendable {
    typealias Callback = DefaultCallbackProbe.Requirement

    /// What is known so far, a bit each: `render` implemented or left to the default, the same for
    /// `renderRawData`, and whether the warning was posted. Bits are only ever set.
    private let known = Atomic<UInt8>(0)
    private static var warned: UInt8 { 1 << 4 }

    private static func bit(_ callback: Callback, implemented: Bool) -> UInt8 {
        let shift: UInt8 = callback == .render ? 0 : 2
        return (implemented ? 1 : 2) << shift
    }

    /// Hands `frame` to the callback `sink.bufferType` names, or to the other one when the sink implements
    /// only that (posting the warning once on `element`).
    ///
    /// - Throws: What the callback throws, `GStreamerError` when the frame cannot be mapped to pack it,
    ///   or ``MediaIOError`` when the sink implements neither callback.
    func deliver(_ frame: VideoFrame, to sink: Sink, element: SwiftElement?) throws {
        let named: Callback = sink.bufferType == .pixelBuffer ? .render : .renderRawData
        if try call(named, of: sink, with: frame) { return }
        let other: Callback = named == .render ? .renderRawData : .render
        guard try call(other, of: sink, with: frame) else {
            throw MediaIOError(Self.neitherImplemented(named: named))
        }
        if known.bitwiseOr(Self.warned, ordering: .relaxed).oldValue & Self.warned == 0 {
            element?.postWarning(Self.servedByTheOther(named: named, implemented: other))
        }
    }

    /// Calls `callback` with `frame` unless the sink is known to leave it to the default; false when
    /// the default is what ran (or would have: it does nothing).
    private func call(_ callback: Callback, of sink: Sink, with frame: VideoFrame) throws -> Bool {
        let state = known.load(ordering: .relaxed)
        if state & Self.bit(callback, implemented: true) != 0 {
            try invoke(callback, of: sink, with: frame)
            return true
        }
        if state & Self.bit(callback, implemented: false) != 0 { return false }
        let defaulted = try DefaultCallbackProbe.runsDefault(callback, of: sink) {
            try invoke(callback, of: sink, with: frame)
        }
        known.bitwiseOr(Self.bit(callback, implemented: !defaulted), ordering: .relaxed)
        return !defaulted
    }

    /// `render(frame)`, or `renderRawData` with a packed copy.
    private func invoke(_ callback: Callback, of sink: Sink, with frame: VideoFrame) throws {
        switch callback {
        case .render:
            try sink.render(frame)
        case .renderRawData:
            let bytes = try frame.packedBytes()
            var format = frame.format
            format.bytesPerRow = (0..<format.planeCount).map { format.pixelBytesPerRow(inPlane: $0) }
            try bytes.withUnsafeBytes { raw in
                try sink.renderRawData(raw, format: format, timestamp: frame.timestamp, rotation: frame.rotation)
            }
        }
    }

    // MARK: What the user reads

    private static func name(_ callback: Callback) -> String {
        callback == .render ? "render(_:)" : "renderRawData(_:format:timestamp:rotation:)"
    }

    private static func bufferType(naming callback: Callback) -> String {
        callback == .render ? ".pixelBuffer" : ".rawData"
    }

    private static func signature(_ callback: Callback) -> String {
        switch callback {
        case .render:
            "func render(_ frame: VideoFrame) throws"
        case .renderRawData:
            "func renderRawData(_ bytes: UnsafeRawBufferPointer, format: VideoFrameFormat, timestamp: ClockTime, "
                + "rotation: VideoRotation) throws"
        }
    }

    static func servedByTheOther(named: Callback, implemented: Callback) -> String {
        "\(Sink.self) implements \(name(implemented)) but not \(name(named)), the callback its bufferType "
            + "\(bufferType(naming: named)) names: its frames go to \(name(implemented)). Set its bufferType "
            + "to \(bufferType(naming: implemented)) to say so."
    }

    static func neitherImplemented(named: Callback) -> String {
        "\(Sink.self) implements neither render(_:) nor renderRawData(_:format:timestamp:rotation:), so its "
            + "frames have nowhere to go: write `\(signature(named))`, the callback its bufferType "
            + "\(bufferType(naming: named)) names (a method whose labels or parameter types differ is not it)."
    }
}
