import Foundation
import GstPipeSupport
import MediaIO
import Synchronization

/// Cuts a run to `TimeRange`: the decoded streams are held back (buffers dropped, segments too)
/// until one accurate flushing seek with the range's stop has gone up to the demuxer, then let
/// through from its new segment on. The seek goes as the first decoded buffer arrives, on a thread of
/// its own (a flushing seek waits for the streaming thread to let go): by then the demuxer streams,
/// and nothing has reached an encoder or muxer. Only the frames from the key frame before the start
/// are decoded, not the file from its beginning. After a flushing seek the running time restarts at
/// zero, so the muxers write timestamps from zero; decoders clip what they give to the segment, the
/// audio to the sample.
///
/// On the video, what decoders keep that ffmpeg would not is dropped: the sliver of the frame before
/// the start that a decoder clips to the start (its length cut below half a frame), and a frame whose
/// timestamp, rounded by the container, falls a little before the end. Without a frame rate, the
/// range knows its first frame (FramesAroundStart) and the seek goes just before it: what comes before
/// that frame is the earlier frame clipped.
final class RangeCut: Sendable {
    private struct State {
        var seqnum: UInt32?
        var seekSent = false
        /// The input refused the seek: no segment will come, and an end of stream ends the run.
        var seekRefused = false
        /// Buffers held back before the seek.
        var held = 0
        /// The pads (by their place in `apply`'s arguments) whose segment from the seek has come, with its
        /// start and time: their data passes.
        var passing: [Int: (start: ClockTime, time: ClockTime)] = [:]
    }

    private let range: TimeRange
    private let state = Locked(State())

    private let afterBuffers: Int

    private init(range: TimeRange, afterBuffers: Int) {
        self.range = range
        self.afterBuffers = afterBuffers
    }

    /// Holds back `video` (the decoded video's first converter input; or audio, for an audio
    /// description) and each of `audio` until the seek to `range`, sent up through `video`, has
    /// flushed them. `fail` reports a seek the input refused. The seek goes at the first buffer, or at
    /// the `afterBuffers`th.
    @discardableResult
    static func apply(
        _ range: TimeRange, video: Pad, audio: [Pad], isVideo: Bool, afterBuffers: Int = 1,
        fail: @escaping @Sendable (String) -> Void
    ) -> RangeCut {
        let cut = RangeCut(range: range, afterBuffers: afterBuffers)
        // The seek goes up through the pad the probe hands over: a probe that captured its own pad would keep
        // it, and itself, for the process's life.
        cut.watch(video, key: 0, isVideo: isVideo) { [cut] video in cut.seek(through: video, fail: fail) }
        for (index, pad) in audio.enumerated() { cut.watch(pad, key: index + 1, isVideo: false, firstBuffer: nil) }
        return cut
    }

    private func watch(_ pad: Pad, key: Int, isVideo: Bool, firstBuffer: (@Sendable (Pad) -> Void)?) {
        pad.addProbe(.dataDownstream) { [self] pad, info in
            if let event = info.event {
                // Every event passes: the first segment too (a pad with none refuses the data after
                // it), the flush, and the seek's segment, from which the pad's data passes. But an end
                // of stream that comes while the seek is on its way (a short file the demuxer finished
                // meanwhile) would end the run before the range: the seek's flush starts the stream again.
                switch event.typeName {
                case "segment":
                    state.withLock { state in
                        if let seqnum = state.seqnum, event.seqnum == seqnum, let segment = event.segment {
                            state.passing[key] = (segment.start, segment.time)
                        }
                    }
                case "eos":
                    // A file shorter than `afterBuffers` ends before the seek went: it goes now, on what came.
                    let (early, sendSeek) = state.withLock { state in
                        let send = !state.seekSent && firstBuffer != nil && state.held > 0
                        if send { state.seekSent = true }
                        return (state.seekSent && !state.seekRefused && state.passing[key] == nil, send)
                    }
                    if sendSeek, let firstBuffer { firstBuffer(pad) }
                    if early { return .drop }
                default:
                    break
                }
                return .ok
            }
            let (passing, sendSeek) = state.withLock { state in
                if firstBuffer != nil { state.held += 1 }
                let send = !state.seekSent && firstBuffer != nil && state.held >= afterBuffers
                if send { state.seekSent = true }
                return (state.passing[key], send)
            }
            if sendSeek, let firstBuffer { firstBuffer(pad) }
            guard let passing else { return .drop }
            guard isVideo, let buffer = info.buffer else { return .ok }
            return keeps(buffer, in: passing) ? .ok : .drop
        }
    }

    /// False for a video frame outside [start, end) that a decoder let through (see the type's note).
    /// Compared in stream time: an MP4's edit list shifts the timestamps of video with B-frames.
    private func keeps(_ buffer: Buffer, in segment: (start: ClockTime, time: ClockTime)) -> Bool {
        guard let timestamp = buffer.pts, timestamp >= segment.start else { return true }
        let pts = timestamp - segment.start + segment.time
        if let first = range.firstFrame { return pts >= first }
        guard let frame = range.frameDuration else { return true }
        if let duration = buffer.duration, duration < frame / 2 { return false }
        if pts + frame / 2 < range.start { return false }
        if let end = range.end, pts + frame / 4 >= end { return false }
        return true
    }

    private func seek(through pad: Pad, fail: @escaping @Sendable (String) -> Void) {
        let event: Event
        do {
            event = try Event.seek(flags: [.flush, .accurate], start: range.start, stop: range.end)
        } catch {
            return fail("\(error)")
        }
        state.withLock { $0.seqnum = event.seqnum }
        let start = range.start
        Thread {
            // Upstream from the converter's input: to uridecodebin's pad, and through the decoder to
            // the demuxer, which seeks every stream of the file.
            if !pad.push(event) {
                self.state.withLock { $0.seekRefused = true }
                fail("the input cannot seek to \(TimeRangeRequest.spoken(start, decimals: 3)): it may not be seekable")
            }
        }.start()
    }
}
