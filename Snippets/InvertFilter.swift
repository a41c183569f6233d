// A filter of your own: a negative image, with a property.

// snippet.filter
import MediaIO
import Synchronization

final class Invert: VideoFilter {
    static let properties = [
        PropertySpec("strength", blurb: "How far toward the negative (0-255)", .int(range: 0...255, default: 255))
    ]
    private let properties: ElementProperties
    private let consumer = Mutex<(any VideoFrameConsumer)?>(nil)

    init(properties: ElementProperties) { self.properties = properties }

    var pixelFormat: VideoPixelFormat { .gray8 }

    func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        self.consumer.withLock { $0 = consumer }
        return true
    }
    // snippet.end

    // snippet.render
    func render(_ frame: VideoFrame) throws {
        guard let consumer = consumer.withLock({ $0 }) else { return }
        let strength = properties.int("strength")
        let output = try consumer.makeFrame(format: frame.format, timestamp: frame.timestamp, duration: frame.duration)
        try frame.withPlanes { input in
            try output.withMutablePlanes { output in
                let (source, target) = (input[0], output[0])
                for row in 0..<source.rows {
                    let (from, to) = (source.row(row), target.row(row))
                    for column in from.indices {
                        let value = Int(from[column])
                        to[column] = UInt8(value + (255 - 2 * value) * strength / 255)
                    }
                }
            }
        }
        consumer.consume(output)
    }
}
// snippet.end

// snippet.register
try MediaIOElements.registerFilter(
    name: "invert", longName: "Invert", description: "A negative image",
    sinkFormats: [.gray8], srcFormats: [.gray8], properties: Invert.properties
) { Invert(properties: $0) }

let pipeline = try Pipeline(
    launch: "videotestsrc num-buffers=5 pattern=white ! invert strength=255 ! appsink name=out sync=false")
let frames = try pipeline.frames(fromAppSink: "out")
try pipeline.play()
for try await frame in frames {
    let first = try frame.withPlanes { $0[0].bytes[0] }
    print(frame.timestamp, "first pixel:", first)  // white (235 in GRAY8) comes out as 20
}
pipeline.stop()
// snippet.end
