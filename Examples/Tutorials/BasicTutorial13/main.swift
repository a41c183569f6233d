// Basic tutorial 13, playback speed: a player changes its rate with seeks (faster, then backwards)
// and, paused, steps frame by frame with step events. The tutorial's keys become a script.
//
//     swift run BasicTutorial13 [FILE]
//
// Checks: at rate 2 the position moves about twice as fast as the wall clock; at rate -1 backwards
// about as fast; each step event is answered by a step-done of one buffer, moving the paused position.
import GStreamer
import TutorialSupport

/// Seeks `pipeline` to play at `rate` from where it is: forwards up to the end, backwards down to the
/// start (the tutorial's send_seek_event), through the video sink; returns once the seek is done.
func setRate(_ rate: Double, of pipeline: Pipeline, videoSink: Element) async throws {
    let position = try Tutorial.require(pipeline.position, "no position to change the rate from")
    let seek: Event =
        try rate > 0
        ? .seek(rate: rate, flags: [.flush, .accurate], start: position)
        : .seek(rate: rate, flags: [.flush, .accurate], start: 0, stop: position)
    // A flushing seek ends with async-done, once the sinks have data from the new position.
    _ = try await next(
        in: pipeline, after: { try Tutorial.check(videoSink.send(seek), "the seek to rate \(rate) was refused") }
    ) {
        if case .asyncDone = $0 { true } else { false }
    }
    print("Current rate: \(rate)")
}

/// How fast the position moves against the wall clock over about `interval`: 2 at rate 2, -1 backwards.
func speed(of pipeline: Pipeline, during interval: Duration) async throws -> Double {
    let before = try Tutorial.require(pipeline.position, "no position")
    let start = ContinuousClock.now
    try await Task.sleep(for: interval)
    let after = try Tutorial.require(pipeline.position, "no position")
    // Measured, not assumed: on a busy machine a sleep can last longer than asked.
    let elapsed = Tutorial.elapsed(since: start)
    print("Position \(Tutorial.seconds(before)) -> \(Tutorial.seconds(after)) in \(Tutorial.seconds(elapsed))")
    return (Double(after) - Double(before)) / Double(elapsed)
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
    let message = try await next(
        in: pipeline,
        after: {
            try Tutorial.check(videoSink.send(try .step(1, .buffers, rate: 1)), "the step event was refused")
        }
    ) { stepDone($0, from: videoSink) != nil }
    return stepDone(message, from: videoSink)?.amount ?? 0
}

/// The step `message` reports when it is a step-done in buffers from `sink`; a sink may also
/// report steps in time.
func stepDone(_ message: Message, from sink: Element) -> Step? {
    guard case .stepDone(sink.name, let step, _, _) = message, step.format == "buffers" else { return nil }
    return step
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
    let fast = try await speed(of: playbin, during: .milliseconds(500))
    // 'D': backwards at normal speed.
    try await setRate(-1, of: playbin, videoSink: videoSink)
    let backwards = try await speed(of: playbin, during: .milliseconds(500))

    // 'P' then 'N': paused, step one frame (33 ms at 30 fps) at a time, forwards again.
    try await setRate(1, of: playbin, videoSink: videoSink)
    try playbin.setState(.paused, timeout: 5_000_000_000)
    // Where the video sink stands after each step (the pipeline's position is the furthest of its
    // sinks'): the first step lands on a frame, each next one a frame (33 ms) further.
    var steps: [(amount: UInt64, position: ClockTime)] = []
    for _ in 0..<4 {
        let amount = try await step(playbin, videoSink: videoSink)
        let position = try Tutorial.require(videoSink.position, "no video position after the step")
        print("Stepped \(amount) frame: at \(Tutorial.seconds(position))")
        steps.append((amount, position))
    }
    let moves = zip(steps.dropFirst(), steps).map { Int64($0.position) - Int64($1.position) }

    print(String(format: "At rate 2 the position moved %.2fx the wall clock; at rate -1, %.2fx", fast, backwards))
    try Tutorial.check(fast > 1.5 && fast < 2.5, "at rate 2 the position moved \(fast)x the wall clock")
    try Tutorial.check(
        backwards < -0.5 && backwards > -1.5, "at rate -1 the position moved \(backwards)x the wall clock")
    try Tutorial.check(steps.allSatisfy { $0.amount == 1 }, "a step-done reported \(steps.map(\.amount)) buffers")
    try Tutorial.check(
        moves.allSatisfy { $0.distance(to: 33_333_333).magnitude < 5_000_000 },
        "steps moved the position by \(moves) ns, not a frame")
}
