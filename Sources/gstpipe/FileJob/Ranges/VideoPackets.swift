import Foundation
import GstPipeSupport
import MediaIO
import Synchronization

/// Reads the packets of a file's first video stream without decoding them (demuxer and parser), from an
/// accurate seek where one is given: what VideoEnd and FramesAroundStart learn the video's timestamps
/// from, in milliseconds for a few seconds of a file.
enum VideoPackets {
    /// How many packets pass (held back) before the seek goes.
    static let seekAfterPackets = 10

    /// How long one read may take before it gives up (a demuxer that never ends its stream): parsing
    /// reads a file of hours in seconds, so only a stuck read gets this far.
    static let timeLimit: TimeInterval = 120

    /// Calls `packet` with each packet's stream time and duration, from the key frame before `start`
    /// (its packets come before the start) to `stop` or the file's end; false when `path` has no video
    /// or cannot be parsed, or when the demuxer refuses the seek (a format it cannot seek in) or the read
    /// outlasts `timeLimit`: the caller then does without what it would have learned.
    static func read(
        _ path: String, from start: ClockTime?, to stop: ClockTime? = nil,
        packet: @escaping @Sendable (_ time: ClockTime, _ duration: ClockTime?) -> Void
    ) async -> Bool {
        let segment = Locked<(start: ClockTime, time: ClockTime)?>(nil)
        let linked = Locked(false)
        do {
            let pipeline = try Pipeline(name: "gstpipe-video-packets")
            let source = try ElementSpec("filesrc", [("location", .string(path))]).make(in: pipeline)
            let parser = try ElementSpec("parsebin").make(in: pipeline)
            let sink = try ElementSpec("fakesink", [("sync", .text("false"))]).make(in: pipeline)
            try source.link(to: parser)
            // An error ends the run (and this read returns false): without it a refused seek would leave
            // the pipeline waiting for a segment that never comes.
            // After the run the source is gone (or its pipeline stopped, whose bus drops the message).
            DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit) { [weak source] in
                source?.postError("reading the video's packets took over \(Int(timeLimit)) s")
            }
            guard let input = sink.pad(named: "sink") else { return false }
            if let start {
                // Added first: what comes before the seek is dropped before the probe below sees it. The
                // seek waits for a few packets, as a run's waits for its first decoded frame: Matroska's
                // demuxer moves the zero of its stream time to an earlier block of another stream (Vorbis
                // before H.264) as it meets it, and the times read here must be those of the run.
                RangeCut.apply(
                    TimeRange(start: start, end: stop), video: input, audio: [], isVideo: false,
                    afterBuffers: seekAfterPackets
                ) { [weak source] text in source?.postError(text) }
            }
            input.addProbe([.buffer, .eventDownstream]) { info in
                if let new = info.event?.segment {
                    segment.withLock { $0 = (new.start, new.time) }
                } else if let buffer = info.buffer, let pts = buffer.pts, let current = segment.withLock({ $0 }) {
                    // The packets from the key frame on come before the segment's start: their stream
                    // time is below its time (and not below zero for a frame of the file).
                    if pts >= current.start {
                        packet(pts - current.start + current.time, buffer.duration)
                    } else if current.start - pts <= current.time {
                        packet(current.time - (current.start - pts), buffer.duration)
                    }
                }
                return .ok
            }
            parser.onPadAdded { pad in
                // Motion JPEG leaves parsebin as image/jpeg.
                let type = (pad.currentCaps ?? pad.queryCaps()).mediaType ?? ""
                guard type.hasPrefix("video/") || type == "image/jpeg",
                    linked.withLock({ done in
                        defer { done = true }
                        return !done
                    })
                else { return }
                try? pad.link(to: input)
            }
            try await pipeline.run()
        } catch {
            return false
        }
        return linked.withLock { $0 }
    }
}
