import Foundation
// CustomFilter: write your own element with the MediaIO protocols, register it, and use it in a
// launch description like any GStreamer element. The filter here inverts luma (a negative image);
// the program runs 30 frames through it and prints the mean luma of the input and of the output.
//
//   swift run CustomFilter
import GstPipeElements
import MediaIO
import Synchronization

/// A filter is a VideoSink (frames in) and a VideoSource (frames out through its consumer).
final class Invert: VideoFilter {
    private let consumer = Mutex<(any VideoFrameConsumer)?>(nil)

    var pixelFormat: VideoPixelFormat { .i420 }
    var acceptedPixelFormats: [VideoPixelFormat] { [.i420, .gray8] }

    func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        self.consumer.withLock { $0 = consumer }
        return true
    }

    func render(_ frame: VideoFrame) throws {
        guard let consumer = consumer.withLock({ $0 }) else { return }
        // Read the input, write into a pooled output frame: no copy beyond the work itself.
        let output = try consumer.makeFrame(format: frame.format, timestamp: frame.timestamp, duration: frame.duration)
        try frame.withPlanes { input in
            try output.withMutablePlanes { output in
                for (plane, (source, target)) in zip(input, output).enumerated() {
                    let invert = plane == 0  // luma; chroma stays as it is
                    for row in 0..<source.rows {
                        let (from, to) = (source.row(row), target.row(row))
                        for column in from.indices { to[column] = invert ? 255 - from[column] : from[column] }
                    }
                }
            }
        }
        consumer.consume(output)
    }
}

func meanLuma(_ frame: VideoFrame) throws -> Double {
    try frame.withPlanes { planes in
        let luma = planes[0]
        var sum = 0
        for row in 0..<luma.rows {
            for value in luma.row(row) { sum &+= Int(value) }
        }
        return Double(sum) / Double(luma.rows * luma.pixelBytesPerRow)
    }
}

func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

try GstPipeElements.register()
try MediaIOElements.registerFilter(
    name: "invert", longName: "Invert luma", description: "A negative image (example)",
    sinkFormats: [.i420, .gray8], srcFormats: [.i420, .gray8]
) { _ in Invert() }

let pipeline = try Pipeline(
    launch: "videotestsrc num-buffers=30 pattern=smpte ! video/x-raw,format=I420,width=320,height=240 ! tee name=t "
        + "t. ! queue ! appsink name=original sync=false "
        + "t. ! queue ! invert ! appsink name=inverted sync=false")
let original = try pipeline.frames(fromAppSink: "original")
let inverted = try pipeline.frames(fromAppSink: "inverted")
try pipeline.play()
async let before = original.reduce(into: [Double]()) { $0.append(try meanLuma($1)) }
async let after = inverted.reduce(into: [Double]()) { $0.append(try meanLuma($1)) }
let (input, output) = try await (before, after)
pipeline.stop()

print("frames: \(input.count) in, \(output.count) out")
if let first = input.first, let firstOut = output.first {
    print("mean luma of the first frame: \(rounded(first)) in, \(rounded(firstOut)) out")
    print("in + out = \(rounded(first + firstOut)) (255 for an exact negative)")
}
// CI runs this example: fail loudly when the filter did not do its job.
guard input.count == 30, output.count == 30, zip(input, output).allSatisfy({ abs($0 + $1 - 255) < 0.01 }) else {
    print("FAILED: the inverted frames do not mirror the input")
    exit(1)
}
