// Basic tutorial 4, time management: while playbin plays, the position and duration are asked every
// 100 ms; once playing, a seeking query says whether and where the clip can be sought, and one second
// in, the player jumps ahead by a seek.
//
//     swift run BasicTutorial4 [FILE]
//
// Checks: the duration query matches the clip's, seeking is enabled over the whole clip, positions
// after the seek are past its target, and the run ends sooner than the clip's length.
import GStreamer
import Synchronization
import TutorialSupport

/// What the bus reader and the clock share.
final class Shared: Sendable {
    let progress = Mutex(Progress())
}

/// Where the player is.
struct Progress {
    var playing = false
    var finished = false
    var seekable: (start: ClockTime?, end: ClockTime?)?
    var duration: ClockTime?
    var seekedAt: ClockTime?
    var positionsAfterSeek: [ClockTime] = []
}

await Tutorial.run(seconds: 4) { input in
    let playbin = try Pipeline(launch: "playbin uri=\(input.uri)")
    try playbin.set("video-sink", element: try Tutorial.clockedSink())
    try playbin.set("audio-sink", element: try Tutorial.clockedSink())
    // Jump to a second before the end, one second in.
    let target = input.duration - min(input.duration, 1_000_000_000)
    let shared = Shared()

    let messages = playbin.messages
    let start = ContinuousClock.now
    try playbin.play()
    defer { playbin.stop() }
    try await withThrowingTaskGroup(of: Void.self) { group in
        // The bus: errors, end of stream, and the state changes that enable seeking.
        group.addTask {
            defer { shared.progress.withLock { $0.finished = true } }
            for await message in messages {
                switch message {
                case .error(let error): throw error
                case .endOfStream:
                    print("\nEnd-Of-Stream reached.")
                    return
                case .durationChanged:
                    // The duration may have changed: ask again on the next tick.
                    shared.progress.withLock { $0.duration = nil }
                case .stateChanged(let source, let old, let new, _) where source == playbin.name:
                    print("Pipeline state changed from \(old) to \(new)")
                    let playing = new == .playing
                    shared.progress.withLock { $0.playing = playing }
                    if playing {
                        let query = Query.seeking()
                        if playbin.query(query), let seeking = query.seeking, seeking.seekable {
                            print(
                                "Seeking is ENABLED from \(Tutorial.seconds(seeking.start)) to \(Tutorial.seconds(seeking.end))"
                            )
                            shared.progress.withLock { $0.seekable = (seeking.start, seeking.end) }
                        } else {
                            print("Seeking is DISABLED for this stream.")
                        }
                    }
                default: continue
                }
            }
        }
        // The clock: every 100 ms, where the player is; the seek once a second has played.
        group.addTask {
            while !shared.progress.withLock({ $0.finished }) {
                try await Task.sleep(for: .milliseconds(100))
                guard shared.progress.withLock({ $0.playing }), let position = playbin.position else { continue }
                let duration = shared.progress.withLock { $0.duration } ?? playbin.duration
                print("Position \(Tutorial.seconds(position)) / \(Tutorial.seconds(duration))")
                let seek: Bool = shared.progress.withLock { state in
                    state.duration = duration
                    if state.seekedAt != nil { state.positionsAfterSeek.append(position) }
                    return state.seekable != nil && state.seekedAt == nil && position > 1_000_000_000
                }
                if seek {
                    print("\nReached 1 s, performing seek to \(Tutorial.seconds(target))...")
                    try Tutorial.check(
                        try playbin.seek(rate: 1, flags: [.flush, .keyUnit], start: target), "the seek was refused")
                    shared.progress.withLock { $0.seekedAt = position }
                }
            }
        }
        try await group.waitForAll()
    }
    let elapsed = Tutorial.elapsed(since: start)

    let result = shared.progress.withLock { $0 }
    print("Played for \(Tutorial.seconds(elapsed)) of a \(Tutorial.seconds(input.duration)) clip")
    let duration = try Tutorial.require(result.duration, "the duration query never answered")
    try Tutorial.check(
        duration.distance(to: input.duration).magnitude < 50_000_000,
        "the duration query said \(Tutorial.seconds(duration)), the clip is \(Tutorial.seconds(input.duration))")
    let seekable = try Tutorial.require(result.seekable, "seeking was not enabled")
    try Tutorial.check(
        seekable.start == 0 && (seekable.end ?? 0) + 50_000_000 >= input.duration,
        "seeking covers \(Tutorial.seconds(seekable.start)) to \(Tutorial.seconds(seekable.end)), not the whole clip")
    try Tutorial.check(result.seekedAt != nil, "the seek never happened")
    let landed = try Tutorial.require(result.positionsAfterSeek.first, "no position was read after the seek")
    try Tutorial.check(
        landed + 100_000_000 >= target,
        "after the seek the position was \(Tutorial.seconds(landed)), not past \(Tutorial.seconds(target))")
    try Tutorial.check(
        elapsed + 1_000_000_000 < input.duration, "the run took \(Tutorial.seconds(elapsed)): the seek skipped nothing")
}
