// CustomRenderer: a grayscale renderer in the style of the classic custom-renderer sample. A
// VideoSink takes each frame's Y plane, builds an RGB gray image (R = G = B = Y), keeps the latest,
// and writes it as a PPM snapshot every N frames. Any input GStreamer can decode works.
//
//   swift run CustomRenderer [input.mp4] [--every 30] [--out snapshots/]
import Foundation
import MediaIO
import Synchronization

final class GrayRenderer: VideoSink {
    private let every: Int
    private let directory: URL
    private let state = Mutex<(frames: Int, latest: (width: Int, height: Int, rgb: [UInt8])?, written: [String])>(
        (0, nil, []))

    init(every: Int, directory: URL) {
        self.every = every
        self.directory = directory
    }

    var pixelFormat: VideoPixelFormat { .i420 }
    var written: [String] { state.withLock { $0.written } }

    func render(_ frame: VideoFrame) throws {
        // The Y plane, row by row (rows may be padded: row(_:) leaves the padding out).
        let rgb = try frame.withPlanes { planes -> [UInt8] in
            let luma = planes[0]
            var rgb = [UInt8](repeating: 0, count: frame.format.width * frame.format.height * 3)
            for row in 0..<frame.format.height {
                for (column, y) in luma.row(row).enumerated() {
                    let index = (row * frame.format.width + column) * 3
                    (rgb[index], rgb[index + 1], rgb[index + 2]) = (y, y, y)
                }
            }
            return rgb
        }
        let snapshot: (Int, (width: Int, height: Int, rgb: [UInt8]))? = state.withLock { state in
            state.frames += 1
            state.latest = (frame.format.width, frame.format.height, rgb)
            return state.frames % every == 0 ? (state.frames, state.latest!) : nil
        }
        if let (number, image) = snapshot {
            let url = directory.appendingPathComponent(String(format: "snapshot-%05d.ppm", number))
            var data = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
            data.append(contentsOf: image.rgb)
            try data.write(to: url)
            state.withLock { $0.written.append(url.path) }
            print("snapshot \(url.path) (frame \(number), \(image.width)x\(image.height))")
        }
    }
}

let arguments = CommandLine.arguments
func value(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let every = Int(value("--every") ?? "") ?? 30
let directory = URL(fileURLWithPath: value("--out") ?? "/tmp/custom-renderer", isDirectory: true)
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let input = arguments.dropFirst().first { !$0.hasPrefix("--") && Int($0) == nil && $0 != value("--out") }

try MediaIOElements.registerSink(
    name: "grayrenderer", longName: "Gray renderer", description: "Example renderer",
    formats: [.i420]
) { _ in GrayRenderer(every: every, directory: directory) }

let source = input.map { "filesrc location=\"\($0)\" ! decodebin" } ?? "videotestsrc num-buffers=90 pattern=ball"
let pipeline = try Pipeline(launch: "\(source) ! videoconvert ! grayrenderer name=renderer sync=false")
try await pipeline.run()

let renderer = pipeline.mediaIOElement(named: "renderer", as: GrayRenderer.self)
let written = renderer?.written ?? []
print("\(written.count) snapshots in \(directory.path)")
if input == nil && written.count != 90 / every {
    print("FAILED: expected \(90 / every) snapshots")
    exit(1)
}
