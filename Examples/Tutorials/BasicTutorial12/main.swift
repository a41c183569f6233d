// Basic tutorial 12, streaming: a player that waits for its buffer to fill. A buffering element
// (queue2 with use-buffering) reports how full it is on the bus; below 100% the player pauses, at
// 100% it plays. There is no network here: the clip is read from disk throttled to 80% of its own
// bitrate, as a slow connection would deliver it, so the buffer runs dry during playback too.
//
//     swift run BasicTutorial12 [FILE]
//
// Checks: buffering messages came; the pipeline played only once the buffer was full, paused each
// time it ran low and played again at 100%; it rebuffered at least once; the clip played to its end.
import Foundation
import GStreamer
import TutorialSupport

/// What the player did, in order.
enum Step: Equatable {
    case paused(Int)
    case played
}

await Tutorial.run { input in
    // Blocks of 4 KiB, each held back long enough that the clip arrives at 80% of its bitrate.
    let attributes = try FileManager.default.attributesOfItem(atPath: input.path)
    let size = try Tutorial.require(attributes[.size] as? Int, "cannot read the size of \(input.path)")
    let blockSize = 4096
    let blocks = max(1, size / blockSize)
    let microsecondsPerBlock = Int(Double(input.duration) / 1000 / 0.8 / Double(blocks))
    // The buffer holds about half a second of the clip.
    let bufferBytes = max(blockSize * 2, size / Int(max(1, input.duration / 500_000_000)))
    print("\(size) bytes in \(blocks) blocks, one every \(microsecondsPerBlock) µs; a buffer of \(bufferBytes) bytes")

    let pipeline = try Pipeline(
        launch:
            "filesrc location=\"\(input.path)\" blocksize=\(blockSize) ! identity sleep-time=\(microsecondsPerBlock) "
            + "! queue2 name=buffer use-buffering=true max-size-bytes=\(bufferBytes) max-size-buffers=0 max-size-time=0 "
            + "! decodebin name=decoder decoder. ! videoconvert ! fakesink sync=true "
            + "decoder. ! audioconvert ! fakesink sync=true")

    let messages = pipeline.messages
    // A live source would not preroll and must not be paused for buffering.
    let isLive = try pipeline.setState(.playing) == .noPreroll
    defer { pipeline.stop() }
    var steps: [Step] = []
    var buffering = 0
    // What the player last asked for: PLAYING, at the start.
    var playing = true
    let start = ContinuousClock.now
    messages: for await message in messages {
        switch message {
        case .error(let error): throw error
        case .endOfStream:
            print("\nEnd of stream")
            break messages
        case .buffering(_, let percent, _) where !isLive:
            buffering += 1
            print("Buffering (\(percent)%)")
            // Wait until the buffer is full before playing on, and stop playing when it runs low.
            if percent < 100 {
                if playing { steps.append(.paused(percent)) }
                playing = false
                try pipeline.setState(.paused)
            } else {
                if !playing { steps.append(.played) }
                playing = true
                try pipeline.setState(.playing)
            }
        case .clockLost:
            // The clock went away (a device was unplugged, say): select a new one.
            try pipeline.setState(.paused)
            try pipeline.setState(.playing)
        default: continue
        }
    }
    let elapsed = Tutorial.elapsed(since: start)

    let rebuffers = steps.dropFirst().filter { if case .paused = $0 { true } else { false } }.count
    print(
        "\(buffering) buffering messages; played after \(steps.filter { $0 == .played }.count) fills, rebuffered \(rebuffers) times; \(Tutorial.seconds(elapsed)) for a \(Tutorial.seconds(input.duration)) clip"
    )
    try Tutorial.check(!isLive, "a file should not play as live")
    try Tutorial.check(buffering > 0, "no buffering message came")
    try Tutorial.check(
        steps.first.map { if case .paused = $0 { true } else { false } } == true,
        "the player did not wait for the buffer first: \(steps)")
    try Tutorial.check(steps.last == .played, "the player did not play on at the end: \(steps)")
    try Tutorial.check(rebuffers >= 1, "the buffer never ran low during playback (steps: \(steps))")
    try Tutorial.check(
        elapsed >= input.duration,
        "the clip played in \(Tutorial.seconds(elapsed)), faster than its \(Tutorial.seconds(input.duration))")
}
