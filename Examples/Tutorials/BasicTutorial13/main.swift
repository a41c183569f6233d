// Basic tutorial 13, playback speed: a player changes its rate with seeks (faster, then backwards)
import Foundation
// and, paused, steps frame by frame with step events. The tutorial's keys become a script.
//
//     swift run BasicTutorial13 [FILE]
//
// Checks: at rate 2 the position moves about twice as fast as the wall clock; at rate -1 it moves
// backwards; each step event is answered by a step-done of one buffer, moving the paused position.
import GStreamer
import TutorialSupport

/// Seeks `pipeline` to play at `rate` from where it is: forwards up to the end, backwards down to the
/// start (the tutorial's send_seek_event), through the video sink; returns once the seek is done.
func setRate(_ rate: Double, of pipeline: Pipeline, videoSink: Element) async throws {
    let position = try Tutorial.require(pipeline.position, "no position to change the rate from")
    let seek: Event =
        rate > 0
        ? .seek(rate: rate, flags: [.flush, .accurate], start: position)
        : .seek(rate: rate, flags: [.flush, .accurate], start: 0, stop: position)
    // A flushing seek ends with async-done, once the sinks have data from the new position.
    _ = try await next(in: pipeline, after: { try Tutorial.check(videoSink.send(seek), "the seek to rate \(rate) was refused") }) {
        if case .asyncDone = $0 { true } else { false }
    }
    print("Current rate: \(rate)")
}

/// How far the position moves in `interval` of wall-clock time, in nanoseconds (negative: backwards).
func movement(of pipeline: Pipeline, during interval: Duration) async throws -> Int64 {
    let before = try Tutorial.require(pipeline.position, "no position")
    try await Task.sleep(for: interval)
    let after = try Tutorial.require(pipeline.position, "no position")
    print("Position \(Tutorial.seconds(before)) -> \(Tutorial.seconds(after))")
    return Int64(after) - Int64(before)
}

/// The first message that `matches` after `action`; throws an error message met first.
func next(
    in pipeline: Pipeline, after action: () throws -> Void, matching matches: (Message) -> Bool
) async throws -> Message {
    // Subscribed before the action: what it causes cannot come before the reader.
    let messages = pipeline.messages
    try action()
    for await message in messages {
        if case .error(let error) = message { throw error }
        if matches(message) { return message }
    }
    throw Tutorial.Failure(reason: "the bus ended first")
}

/// Steps the paused `pipeline` by one frame through `videoSink`; returns how much the step-done
/// message says it stepped.
func step(_ pipeline: Pipeline, videoSink: Element) async throws -> UInt64 {
    let message = try await next(in: pipeline, after: {
        try Tutorial.check(videoSink.send(.step(1, .buffers, rate: 1)), "the step event was refused")
    }) { $0.typeName == "step-done" }
    guard case .other(_, _, let details?) = message else { return 0 }
    // "GstMessageStepDone, format=(GstFormat)buffers, amount=(guint64)1, ..."
    let amount = details.split(separator: ",").first { $0.contains("amount=") }?.split(separator: ")").last
    return amount.flatMap { UInt64($0.trimmingCharacters(in: .whitespaces)) } ?? 0
}

await Tutorial.run(seconds: 4) { input in
    let playbin = try Pipeline(launch: "playbin uri=\(input.uri)")
    let videoSink = try Tutorial.clockedSink(name: "video_sink")
    try playbin.set("video-sink", element: videoSink)
    try playbin.set("audio-sink", element: try Tutorial.clockedSink())
    try playbin.setState(.playing, timeout: 5_000_000_000)
    defer { playbin.stop() }
    try await Task.sleep(for: .milliseconds(300))

    // 'S': twice as fast. The position should move 1 s in half a second.
    try await setRate(2, of: playbin, videoSink: videoSink)
    let fast = try await movement(of: playbin, during: .milliseconds(500))
    // 'D': backwards at normal speed.
    try await setRate(-1, of: playbin, videoSink: videoSink)
    let backwards = try await movement(of: playbin, during: .milliseconds(500))

    // 'P' then 'N': paused, step one frame (33 ms at 30 fps) at a time, forwards again.
    try await setRate(1, of: playbin, videoSink: videoSink)
    try playbin.setState(.paused, timeout: 5_000_000_000)
    var steps: [(amount: UInt64, moved: Int64)] = []
    for _ in 0..<3 {
        let before = try Tutorial.require(playbin.position, "no position before the step")
        let amount = try await step(playbin, videoSink: videoSink)
        let after = try Tutorial.require(playbin.position, "no position after the step")
        print("Stepping one frame: \(Tutorial.seconds(before)) -> \(Tutorial.seconds(after))")
        steps.append((amount, Int64(after) - Int64(before)))
    }

    print("Rate 2 moved \(Tutorial.seconds(ClockTime(max(0, fast)))) in 0.5 s; rate -1 moved \(Double(backwards) / 1e9) s")
    try Tutorial.check(fast > 750_000_000 && fast < 1_300_000_000, "at rate 2 the position moved \(Double(fast) / 1e9) s in 0.5 s")
    try Tutorial.check(backwards < -250_000_000, "at rate -1 the position moved \(Double(backwards) / 1e9) s in 0.5 s")
    try Tutorial.check(steps.allSatisfy { $0.amount == 1 }, "a step-done reported \(steps.map(\.amount)) buffers")
    try Tutorial.check(steps.allSatisfy { $0.moved > 0 && $0.moved < 100_000_000 }, "steps moved the position by \(steps.map(\.moved)) ns")
}
