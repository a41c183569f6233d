// MediaIOPair: a MediaIO source and a MediaIO sink (bufferType, pixelFormat,
// shouldInitialize/Start/Stop/Dispose) joined through a GStreamer pipeline with a GStreamer element
// between them (videoflip video-direction=horiz). Every lifecycle call is printed as it happens.
//
//   swift run MediaIOPair
import Foundation
import MediaIO
import Synchronization

/// A pull-mode source of GRAY8 ramps: pixel (x, y) of frame n is (x + n) mod 256.
final class RampSource: VideoSource {
    private let state = Mutex<(consumer: (any VideoFrameConsumer)?, index: Int)>((nil, 0))
    var bufferType: VideoBufferType { .pixelBuffer }

    func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        print("source: shouldInitialize (bufferType \(bufferType))")
        state.withLock { $0 = (consumer, 0) }
        return true
    }
    func shouldStart() { print("source: shouldStart") }
    func shouldStop() { print("source: shouldStop") }
    func shouldDispose() { print("source: shouldDispose") }

    func produceFrame() {
        let (consumer, index) = state.withLock { state in
            defer { state.index += 1 }
            return (state.consumer, state.index)
        }
        guard let consumer else { return }
        guard index < 10 else { return consumer.endOfStream() }
        let format = VideoFrameFormat(pixelFormat: .gray8, width: 256, height: 4, frameRate: VideoFrameRate(10))
        guard
            let frame = try? consumer.makeFrame(
                format: format, timestamp: format.frameRate.timestamp(ofFrame: index),
                duration: format.frameRate.frameDuration)
        else { return }
        try? frame.withMutablePlanes { planes in
            for row in 0..<planes[0].rows {
                let pixels = planes[0].row(row)
                for x in 0..<256 { pixels[x] = UInt8((x + index) & 0xFF) }
            }
        }
        consumer.consume(frame)
    }
}

/// A sink that checks each frame is the source's ramp mirrored left to right.
final class MirrorCheckSink: VideoSink {
    let mismatches = Mutex(0)
    let frames = Mutex(0)
    var pixelFormat: VideoPixelFormat { .gray8 }
    var bufferType: VideoBufferType { .rawData }

    func shouldInitialize() -> Bool {
        print("sink: shouldInitialize (pixelFormat \(pixelFormat), bufferType \(bufferType))")
        return true
    }
    func shouldStart() { print("sink: shouldStart") }
    func shouldStop() { print("sink: shouldStop") }
    func shouldDispose() { print("sink: shouldDispose") }

    func renderRawData(
        _ bytes: UnsafeRawBufferPointer, format: VideoFrameFormat, timestamp: ClockTime, rotation: VideoRotation
    ) throws {
        let index = frames.withLock { count -> Int in
            defer { count += 1 }
            return count
        }
        let expected = (0..<256).map { UInt8(((255 - $0) + index) & 0xFF) }
        if Array(bytes.prefix(256)) != expected { mismatches.withLock { $0 += 1 } }
        print(
            "sink: frame \(index) at \(timestamp / 1_000_000) ms, \(format.width)x\(format.height), first pixel \(bytes[0])"
        )
    }
}

try MediaIOElements.registerSource(
    name: "rampsource", longName: "Ramp", description: "Example source", formats: [.gray8]
) {
    _ in RampSource()
}
try MediaIOElements.registerSink(
    name: "mirrorcheck", longName: "Mirror check", description: "Example sink", formats: [.gray8]
) {
    _ in MirrorCheckSink()
}

let pipeline = try Pipeline(launch: "rampsource ! videoflip video-direction=horiz ! mirrorcheck name=sink sync=false")
print("pipeline: PLAYING")
try await pipeline.run()
print("pipeline: NULL")
let sink = pipeline.mediaIOElement(named: "sink", as: MirrorCheckSink.self)
let (count, bad) = (sink?.frames.withLock { $0 } ?? 0, sink?.mismatches.withLock { $0 } ?? -1)
print("\(count) frames, \(bad) not mirrored")
if count != 10 || bad != 0 { exit(1) }
