// Playback tutorial 8 (after basic tutorial 8's generator, played by playbin): playbin plays
// `appsrc://` and the application makes the pictures itself, raw gray frames whose brightness counts
// the frames, pushed as appsrc asks for them. playbin needs no demuxer or decoder for raw video: it
// renders what appsrc's caps say, here into an appsink.
//
//     swift run PlaybackTutorial8
//
// Checks: all frames came out in order, each with the brightness and the timestamp it was made with;
// the pictures are the size appsrc said; the stream ended.
import GStreamer
import Synchronization
import TutorialSupport

let width = 160
let height = 120
let frameCount = 60
let frameDuration: ClockTime = 1_000_000_000 / 30

/// Frame `n`: every pixel at gray level `4 * n`, so a frame tells which one it is.
func frame(_ n: Int) -> [UInt8] { [UInt8](repeating: UInt8(4 * n), count: width * height) }

await Tutorial.run {
    let playbin = try Pipeline(launch: "playbin uri=appsrc://")
    let caps = try Caps("video/x-raw,format=GRAY8,width=\(width),height=\(height),framerate=30/1")
    let sink = try AppSink(name: "pictures")
    sink.caps = caps
    sink.sync = false
    try playbin.set("video-sink", element: sink)

    let made = Mutex(0)
    try playbin.connect("source-setup") { arguments in
        guard let element = arguments.first?.element, let source = try? AppSrc(element) else { return }
        source.caps = caps
        source.format = .time
        source.onNeedData { _ in
            let next = made.withLock { count -> Int? in
                guard count < frameCount else { return nil }
                count += 1
                return count - 1
            }
            if let next {
                _ = try? source.push(bytes: frame(next), pts: ClockTime(next) * frameDuration, duration: frameDuration)
            } else {
                source.endOfStream()
            }
        }
    }

    let pictures = Task {
        var seen: [(level: Int, pts: ClockTime?, size: Int)] = []
        for try await sample in playbin.samples(from: sink) {
            let bytes = sample.buffer?.bytes ?? []
            seen.append((Int(bytes.first ?? 0), sample.buffer?.pts, bytes.count))
            try Tutorial.check(Set(bytes).count == 1, "frame \(seen.count - 1) is not one gray level")
        }
        return seen
    }
    try await playbin.run()
    let seen = try await pictures.value

    print("Made \(made.withLock { $0 }) frames; \(seen.count) came out of playbin")
    try Tutorial.check(seen.count == frameCount, "\(seen.count) of \(frameCount) frames came out")
    for (index, picture) in seen.enumerated() {
        try Tutorial.check(
            picture.size == width * height, "frame \(index) has \(picture.size) bytes, not \(width * height)")
        try Tutorial.check(
            picture.level == 4 * index, "frame \(index) has gray level \(picture.level), not \(4 * index)")
        try Tutorial.check(
            picture.pts == ClockTime(index) * frameDuration,
            "frame \(index) is stamped \(Tutorial.seconds(picture.pts)), not \(Tutorial.seconds(ClockTime(index) * frameDuration))"
        )
    }
}
