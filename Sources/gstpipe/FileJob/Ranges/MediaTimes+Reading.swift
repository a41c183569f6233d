import Foundation
import GstPipeSupport
import MediaIO
import Synchronization

extension MediaTimes {
    /// How long reading an input's streams may take before it gives up (a demuxer that never states them).
    static let readingLimit: TimeInterval = 30

    /// Reads `input`'s length, its first video stream's stated frame rate and whether it has video;
    /// with `warmingUpDecoder`, for a run that decodes the video, starts loading its decoder's plugin
    /// as soon as the video's caps are known (`DecoderWarmUp`).
    ///
    /// A file is read only as far as its demuxer and parsers need to state their streams (parsebin
    /// prerolled into fakesinks, nothing decoded). GStreamer's Discoverer reads the same caps and length,
    /// but also plugs decoders and reads tags, and loads the decoders' plugins before anything else can
    /// go on: with the decoder's plugin loaded on another thread meanwhile instead, a one-frame cut near
    /// the end of a 3-minute MP4 took 0.435 s instead of 0.469 s in one series, 0.416 s against 0.421 s
    /// in another (medians of 15, debug build, loaded machine): most of the time is the process's start
    /// and the libav plugin's load, which any decoding run pays. Other URIs go to the Discoverer.
    static func read(
        _ input: FileJob.Input, warmingUpDecoder: Bool = false
    ) async throws(FileJob.Failure) -> MediaTimes {
        do {
            if let path = URL(string: input.uri).flatMap({ $0.isFileURL ? $0.path : nil }) {
                return try await parse(path, warmingUpDecoder: warmingUpDecoder)
            }
            let info = try await Discoverer(timeout: .seconds(Int64(readingLimit))).discover(uri: input.uri)
            let rate = info.videoStreams.first?.video?.framerate
            return MediaTimes(duration: info.duration, frameRate: valid(rate), hasVideo: !info.videoStreams.isEmpty)
        } catch {
            throw .runtime("cannot read \(input.name): \(error.message)")
        }
    }

    /// A rate that says where frames are; nil for 0/1 (variable) or none.
    private static func valid(_ rate: Fraction?) -> Fraction? {
        rate.flatMap { $0.numerator > 0 && $0.denominator > 0 ? $0 : nil }
    }

    /// filesrc ! parsebin, each stream into a fakesink, to PAUSED: once prerolled, every stream's caps
    /// are known (a parser states the frame rate the Discoverer reports) and so is the length.
    private static func parse(_ path: String, warmingUpDecoder: Bool) async throws(GStreamerError) -> MediaTimes {
        let pipeline = try Pipeline(name: "gstpipe-media-times")
        let source = try ElementSpec("filesrc", [("location", .string(path))]).make(in: pipeline)
        let parser = try ElementSpec("parsebin").make(in: pipeline)
        try source.link(to: parser)
        let streams = Locked<[Caps]>([])
        // Every stream gets a sink, or the demuxer would stop at the first one left unlinked; and a queue,
        // as a sink holds the thread that brings it its first buffer until PLAYING, and a demuxer feeds
        // every stream from one thread.
        parser.onPadAdded { [weak pipeline] pad in
            guard let pipeline else { return }
            let caps = pad.currentCaps ?? pad.queryCaps()
            let first = streams.withLock { streams in
                defer { streams.append(caps) }
                return !streams.contains(where: isVideo)
            }
            if warmingUpDecoder, first, isVideo(caps) { DecoderWarmUp.start(for: caps) }
            guard let queue = try? ElementSpec("queue").make(in: pipeline),
                let sink = try? ElementSpec("fakesink", [("sync", .text("false"))]).make(in: pipeline),
                (try? queue.link(to: sink)) != nil, let input = queue.pad(named: "sink")
            else { return }
            try? sink.syncStateWithParent()
            try? queue.syncStateWithParent()
            try? pad.link(to: input)
        }
        // After the run the source is gone (or its pipeline stopped, whose bus drops the message).
        DispatchQueue.global().asyncAfter(deadline: .now() + readingLimit) { [weak source] in
            source?.postError("its streams were not read within \(Int(readingLimit)) s")
        }
        let messages = pipeline.messages
        defer { pipeline.stop() }
        try pipeline.pause()
        // parsebin holds the pipeline's change to PAUSED until it has exposed its streams, and each
        // sink until its stream's first buffer (or gap): done once the pipeline's change is.
        waiting: for await message in messages {
            switch message {
            case .asyncDone: break waiting
            case .error(let error): throw error
            default: continue
            }
        }
        let caps = streams.withLock { $0 }
        let video = caps.first(where: isVideo)
        let rate = video?.fraction("framerate").map { Fraction($0.numerator, $0.denominator) }
        var times = MediaTimes(duration: pipeline.duration, frameRate: valid(rate), hasVideo: video != nil)
        let matroska = ["mkv", "mka", "mk3d", "webm"].contains(URL(fileURLWithPath: path).pathExtension.lowercased())
        if matroska, let preSkip = caps.lazy.compactMap(opusPreSkip).first {
            // ffmpeg's Matroska demuxer moves Opus packets back by CodecDelay (the pre-skip, written in
            // nanoseconds) in the track's milliseconds, rounded to the nearest: 312 samples, 6.5 ms, are 7.
            times.startOffset = (preSkip * 1_000_000_000 / 48_000 + 500_000) / 1_000_000 * 1_000_000
        }
        return times
    }

    /// The pre-skip of an Opus stream, in 48 kHz samples, from its OpusHead header (bytes 10 and 11,
    /// little-endian) as its caps carry it: `streamheader=(buffer)< 4f707573486561640101380180bb... >`.
    private static func opusPreSkip(_ caps: Caps) -> ClockTime? {
        guard caps.mediaType == "audio/x-opus" else { return nil }
        let text = caps.description
        guard let field = text.range(of: "streamheader=(buffer)< 4f70757348656164") else { return nil }
        let hex = text[field.upperBound...].prefix(8)
        guard hex.count == 8, let low = UInt64(hex.dropFirst(4).prefix(2), radix: 16),
            let high = UInt64(hex.dropFirst(6), radix: 16)
        else { return nil }
        return high << 8 | low
    }

    /// Video, or pictures: Motion JPEG leaves parsebin as image/jpeg, and the Discoverer counts pictures
    /// as video too.
    private static func isVideo(_ caps: Caps) -> Bool {
        let type = caps.mediaType ?? ""
        return type.hasPrefix("video/") || type.hasPrefix("image/")
    }
}
