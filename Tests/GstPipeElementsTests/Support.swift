import GstPipeElements
import MediaIO

/// One frame's planes, each packed (pixel bytes only, no row padding), with the frame's layout.
struct CapturedFrame {
    var format: VideoFrameFormat
    var timestamp: ClockTime
    var planes: [[UInt8]]
    var bytesPerRow: [Int]
}

/// Runs `description` (which must end in `appsink name=out`) to end of stream and captures every frame.
func captureFrames(_ description: String) async throws -> [CapturedFrame] {
    try GstPipeElements.register()
    let pipeline = try Pipeline(launch: description)
    let frames = try pipeline.frames(fromAppSink: "out", capacity: 8)
    try pipeline.play()
    var captured: [CapturedFrame] = []
    for try await frame in frames {
        let planes = try frame.withPlanes { planes in
            planes.map { plane in
                (0..<plane.rows).flatMap { row in
                    Array(plane.bytes[row * plane.bytesPerRow..<row * plane.bytesPerRow + plane.pixelBytesPerRow])
                }
            }
        }
        captured.append(
            CapturedFrame(
                format: frame.format, timestamp: frame.timestamp, planes: planes, bytesPerRow: frame.format.bytesPerRow)
        )
    }
    pipeline.stop()
    return captured
}
