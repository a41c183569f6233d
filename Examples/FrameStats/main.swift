// FrameStats: `for try await frame in ...` over the frames of any file GStreamer can decode, as an
// AsyncSequence; prints the frame count and the mean luma of each second of video.
//
//   swift run FrameStats [input.mp4]
import Foundation
import MediaIO

let input = CommandLine.arguments.dropFirst().first
let source = input.map { "filesrc location=\"\($0)\" ! decodebin" } ?? "videotestsrc num-buffers=75 pattern=ball"
let pipeline = try Pipeline(
    launch: "\(source) ! videoconvert ! video/x-raw,format=I420 ! appsink name=frames sync=false")
let frames = try pipeline.frames(fromAppSink: "frames")
try pipeline.play()

var count = 0
var perSecond: [Int: (sum: Double, frames: Int)] = [:]
for try await frame in frames {
    count += 1
    let mean = try frame.withPlanes { planes -> Double in
        let luma = planes[0]
        // &+=: a plane's sum cannot overflow Int (2^55 bytes of 255 would), so the addition needs no
        // overflow check, and the loop runs several bytes a cycle instead of one.
        var sum = 0
        for y in 0..<luma.rows {
            for value in luma.row(y) { sum &+= Int(value) }
        }
        return Double(sum) / Double(luma.rows * luma.pixelBytesPerRow)
    }
    let second = Int(frame.timestamp / 1_000_000_000)
    perSecond[second, default: (0, 0)].sum += mean
    perSecond[second, default: (0, 0)].frames += 1
}
pipeline.stop()

print("\(count) frames from \(input ?? "videotestsrc (75 frames at 30/1)")")
for second in perSecond.keys.sorted() {
    let (sum, frames) = perSecond[second]!
    print(String(format: "second %3d: %3d frames, mean luma %6.2f", second, frames, sum / Double(frames)))
}
if input == nil && count != 75 { exit(1) }
if count == 0 {
    print("no video frames were decoded")
    exit(1)
}
