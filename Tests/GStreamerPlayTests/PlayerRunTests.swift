import Foundation
import GStreamer
import Testing

@testable import GStreamerPlay

@Suite("Player: each playUntilEnd ends on its own run's events, and a released player's GstPlay goes", .bounded)
struct PlayerRunTests {
    @Test("pause(), stop() and playUntilEnd() in quick succession, 20 times: each run plays to the real end")
    func stopThenPlayUntilEnd() async throws {
        // 0.3 s, with no audio: 20 runs stay short on a loaded machine.
        let (path, directory) = try await PlayerTests.clip(
            "short.mp4",
            "videotestsrc num-buffers=9 ! video/x-raw,width=64,height=48,framerate=30/1 ! x264enc "
                + "speed-preset=ultrafast key-int-max=3 ! mp4mux ! filesink location=%s")
        defer { try? FileManager.default.removeItem(at: directory) }
        let player = try PlayerTests.player(path)
        for run in 1...20 {
            let stream = player.events
            // The pause reports buffering and the stop stopped, on GstPlay's thread after these calls
            // return: before runs were told apart, this run took them for its start and its stop.
            player.pause()
            player.stop()
            let started = ContinuousClock.now
            do {
                try await player.playUntilEnd()
            } catch {
                Issue.record("run \(run): \(error)")
                return
            }
            let elapsed = ContinuousClock.now - started
            // This run's last position and duration before its end of stream (the events are kept in
            // the stream's buffer, so reading them now takes no time).
            let events = try await PlayerTests.events(of: stream) { if case .endOfStream = $0 { true } else { false } }
            let positions = events.compactMap { if case .positionUpdated(let at) = $0 { at } else { nil } }
            let durations = events.compactMap { if case .durationChanged(let length?) = $0 { length } else { nil } }
            let duration = try #require(durations.last, "run \(run): no duration")
            let last = try #require(positions.last, "run \(run): no position")
            #expect(duration > 250_000_000 && duration < 350_000_000, "run \(run): duration \(duration)")
            #expect(last + 2 * PlayerTests.frame >= duration, "run \(run): ended at \(last) of \(duration)")
            // Played in real time by sinks that sync, not ended at once.
            #expect(elapsed >= .milliseconds(250), "run \(run) took \(elapsed)")
        }
    }

    @Test("A released player's GstPlay is finalized: the messages it posted (each holds a reference on it) are freed")
    func releaseFinalizesGstPlay() async throws {
        var player: Player? = try Player(uri: "file:///nowhere/clip.mp4", videoSink: Element(factory: "fakesink"))
        let stream = try #require(player?.events)
        // Messages from the calling thread (volume, mute) and from GstPlay's (URI_LOADED, a failed run).
        player?.volume = 0.5
        player?.isMuted = true
        player?.play()
        _ = try await PlayerTests.events(of: stream) { if case .error = $0 { true } else { false } }
        // The bus the hub handles holds the hub until GstPlay's dispose releases the bus.
        weak let hub = player?.hub
        #expect(hub != nil)
        player = nil
        // The release joins GstPlay's thread on a thread of its own: give it time on a loaded machine.
        let deadline = ContinuousClock.now + .seconds(20)
        while hub != nil && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(hub == nil, "GstPlay was not finalized within 20 s of the player's release")
    }
}
