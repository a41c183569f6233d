// PushMode: the application pushes frames it made itself into a running pipeline, with their
// timestamps, and the pipeline encodes them. The source element is only a door: the application
// reaches the very object the launch description made (`pipeline.mediaIOElement`) and pushes.
//
//   swift run PushMode [--frames 60] [--out /tmp/push-mode.mkv]
import Foundation
import MediaIO
import Synchronization

/// A source that does nothing by itself: the application pushes through it while it runs.
final class PushSource: VideoSource {
    private let consumer = Mutex<(any VideoFrameConsumer)?>(nil)

    func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        self.consumer.withLock { $0 = consumer }
        return true
    }
    func shouldDispose() { consumer.withLock { $0 = nil } }

    /// Pushes one frame; blocks while downstream is full. False once the pipeline no longer takes frames.
    func push(_ frame: VideoFrame) -> Bool {
        consumer.withLock { $0 }?.consume(frame) == .ok
    }

    func finish() { consumer.withLock { $0 }?.endOfStream() }
}

let arguments = CommandLine.arguments
func value(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let frames = Int(value("--frames") ?? "") ?? 60
let output = value("--out") ?? "/tmp/push-mode.mkv"

try MediaIOElements.registerSource(name: "pushsource", longName: "Push source", description: "Example", formats: [.rgb])
{
    _ in PushSource()
}
let pipeline = try Pipeline(
    launch: "pushsource name=in ! videoconvert ! x264enc ! matroskamux ! filesink location=\(output)")
let messages = pipeline.messages
try pipeline.play()
guard let source = pipeline.mediaIOElement(named: "in", as: PushSource.self) else {
    fatalError("the pipeline has no push source named in")
}

// A red square sliding over a blue background, 25 frames a second.
let rate = VideoFrameRate(25)
for index in 0..<frames {
    let frame = try VideoFrame(
        format: .rgb, width: 160, height: 120, timestamp: rate.timestamp(ofFrame: index), duration: rate.frameDuration)
    try frame.withMutablePlanes { planes in
        let plane = planes[0]
        for y in 0..<120 {
            let row = plane.row(y)
            for x in 0..<160 {
                let inSquare = (x - index * 2) % 160 >= 0 && (x - index * 2) % 160 < 30 && y >= 45 && y < 75
                (row[x * 3], row[x * 3 + 1], row[x * 3 + 2]) = inSquare ? (230, 20, 20) : (20, 40, 200)
            }
        }
    }
    guard source.push(frame) else { break }
}
source.finish()
for await message in messages {
    if case .endOfStream = message { break }
    if case .error(let error) = message {
        print("error: \(error)")
        exit(1)
    }
}
pipeline.stop()

let check = try Pipeline(
    launch: "filesrc location=\(output) ! matroskademux ! avdec_h264 ! appsink name=out sync=false")
let decoded = try check.frames(fromAppSink: "out")
try check.play()
var timestamps: [ClockTime] = []
for try await frame in decoded { timestamps.append(frame.timestamp) }
check.stop()
print(
    "pushed \(frames) frames; \(output) decodes to \(timestamps.count) frames, last at \(Double(timestamps.last ?? 0) / 1e9) s"
)
if timestamps.count != frames || timestamps.last != rate.timestamp(ofFrame: frames - 1) { exit(1) }
