import CGStreamer
import Foundation
import GstPipeParsing
import GstPipeSupport
import MediaIO
import Synchronization

/// The sound: the first connection's audio format kept through every return, silence while away.
extension ReconnectingInput {
    /// Adds the audio pad when the first connection has audio (and an output carries it), then says
    /// no-more-pads: once, from the first connection (nil: at start, no output carrying audio) whose
    /// source has exposed its streams. Until then nothing is pushed.
    func decideStreams(hasAudio: Bool, of connection: Int?) {
        let first = feed.withLock { feed -> Bool in
            guard !feed.streamsDecided, !feed.closed, connection.map({ $0 == feed.connection }) ?? true else {
                return false
            }
            feed.streamsDecided = true
            feed.carriesAudio = hasAudio && audioSource != nil
            return true
        }
        guard first else { return }
        if hasAudio, let output = audioFilter?.pad(named: "src") {
            if (try? bin.addGhostPad(named: "src_audio", target: output)) == nil {
                feed.withLock { $0.carriesAudio = false }
            }
        }
        bin.withUnsafePointer { gst_element_no_more_pads($0) }
    }

    /// An audio buffer from `connection`, on its streaming thread: put where the run of samples has got
    /// to (`AudioFeed`). The first ever fixes the format; silence fills a hole in a connection's audio.
    /// The audio starts with the video's first frame (audio before it is dropped, silence from it to the
    /// first audio), so that a recording's tracks start and end together.
    func takeAudio(_ sample: Sample, of connection: Int) {
        guard let audioSource, let buffer = sample.buffer, let caps = sample.caps,
            let now = audioSource.currentRunningTime
        else { return }
        let own = Self.runningTime(of: buffer, in: sample)
        feed.withLock { feed in
            guard !feed.closed, feed.connection == connection, feed.streamsDecided, feed.carriesAudio else { return }
            if feed.audio == nil {
                guard let start = feed.firstPTS, let own, var audio = AudioFeed(caps: caps, start: start) else {
                    return
                }
                audio.offset = Int64(now + Self.timingSlack) - Int64(own)
                audioSource.caps = caps
                feed.audio = audio
            }
            guard var audio = feed.audio, audio.caps == caps else { return }
            defer { feed.audio = audio }
            let count = buffer.size / audio.info.bytesPerFrame
            guard count > 0 else { return }
            let next = audio.next
            if let own, let offset = audio.offset {
                let late = Int64(own) + offset - Int64(next)
                if late > AudioFeed.tolerance && late <= 1_000_000_000 {
                    // A hole in the connection's audio: silence keeps the rest in step with the video.
                    audio.pushSilence(until: ClockTime(Int64(next) + late), into: audioSource)
                } else if abs(late) > AudioFeed.tolerance {
                    audio.offset = Int64(next) - Int64(own)
                }
            } else if let own {
                audio.offset = Int64(next) - Int64(own)
            }
            _ = audioSource.push(audio.stamp(buffer, samples: count))
        }
    }

    /// On `fill`'s thread: when the audio has not got as far as the video's lead (`timingSlack`) less
    /// `AudioFeed.stallAfter`, silence up to that lead. Returns how long until it may be needed again.
    func fillAudio(_ feed: inout Feed) -> ClockTime {
        guard let audioSource, var audio = feed.audio, !feed.closed, let now = audioSource.currentRunningTime else {
            return 50_000_000
        }
        let ahead = now + Self.timingSlack
        let next = audio.next
        guard next + AudioFeed.stallAfter <= ahead else { return next + AudioFeed.stallAfter - ahead }
        audio.pushSilence(until: ahead, into: audioSource)
        feed.audio = audio
        return 0
    }

    /// Says once, when an output would have carried it, that the input's audio is left out: the bin has
    /// no audio pad, since the first connection had none.
    func noteAudioLeftOut() {
        guard carriesAudio, !feed.withLock({ $0.carriesAudio }),
            link.withLock({ link in
                defer { link.saidAudio = true }
                return !link.saidAudio
            })
        else { return }
        note("the audio of \(input.name) is left out: it had none when the run started")
    }
}
