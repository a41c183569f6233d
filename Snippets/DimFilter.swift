// A filter of your own, registered and used by name (the README's tour shows this file as it is).
import MediaIO
import Synchronization

final class Dim: VideoFilter {  // halves every pixel of GRAY8 frames
    var pixelFormat: VideoPixelFormat { .gray8 }
    private let consumer = Mutex<(any VideoFrameConsumer)?>(nil)

    func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        self.consumer.withLock { $0 = consumer }
        return true
    }

    func render(_ frame: VideoFrame) throws {  // on the streaming thread, once a frame
        guard let consumer = consumer.withLock({ $0 }) else { return }
        let output = try consumer.makeFrame(format: frame.format, timestamp: frame.timestamp, duration: frame.duration)
        try frame.withPlanes { input in
            try output.withMutablePlanes { output in
                for row in 0..<input[0].rows {
                    let (from, to) = (input[0].row(row), output[0].row(row))
                    for column in from.indices { to[column] = from[column] / 2 }
                }
            }
        }
        consumer.consume(output)
    }
}

try MediaIOElements.registerFilter(
    name: "dim", longName: "Dim", description: "Half as bright", sinkFormats: [.gray8], srcFormats: [.gray8]
) { _ in Dim() }
let pipeline = try Pipeline(launch: "videotestsrc num-buffers=3 pattern=white ! dim ! appsink name=out sync=false")
let frames = try pipeline.frames(fromAppSink: "out")
try pipeline.play()
for try await frame in frames {
    let first = try frame.withPlanes { planes in planes[0].bytes[0] }
    print(frame.timestamp, first)  // 0 117: white (235 in GRAY8) at half
}
pipeline.stop()
