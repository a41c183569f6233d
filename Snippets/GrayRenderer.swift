// The classic custom renderer, grayscale from the Y plane, as a MediaIO video sink.

// snippet.sink
import MediaIO
import Synchronization

final class GrayRenderer: VideoSink {
    // The renderer takes I420; the element converts whatever comes in.
    var pixelFormat: VideoPixelFormat { .i420 }
    private let latest = Mutex<(width: Int, height: Int, rgb: [UInt8])?>(nil)
    // snippet.end

    // snippet.render
    func render(_ frame: VideoFrame) throws {
        let (width, height) = (frame.format.width, frame.format.height)
        let rgb = try frame.withPlanes { planes in
            let luma = planes[0]
            var rgb = [UInt8](repeating: 0, count: width * height * 3)
            // Rows may be padded: row(_:) gives each row's pixels, padding left out.
            for row in 0..<height {
                for (column, y) in luma.row(row).enumerated() {
                    let index = (row * width + column) * 3
                    (rgb[index], rgb[index + 1], rgb[index + 2]) = (y, y, y)
                }
            }
            return rgb
        }
        latest.withLock { $0 = (width, height, rgb) }
    }
    // snippet.end

    var lastImage: (width: Int, height: Int, rgb: [UInt8])? { latest.withLock { $0 } }
}

// snippet.register
try MediaIOElements.registerSink(
    name: "grayrenderer", longName: "Gray renderer", description: "RGB gray images from the luma",
    formats: [.i420]
) { _ in GrayRenderer() }

let pipeline = try Pipeline(launch: "videotestsrc num-buffers=10 ! grayrenderer name=renderer sync=false")
try await pipeline.run()
let renderer = pipeline.mediaIOElement(named: "renderer", as: GrayRenderer.self)
if let image = renderer?.lastImage {
    print("last image: \(image.width)x\(image.height), first pixel \(image.rgb[0])")
}
// snippet.end
