import CGStreamer
import GstPipeSupport

/// Transcodes a media file or URI to a file in one call: `uridecodebin ! encodebin ! filesink`, with
/// each decoded stream linked to the ``EncodeBin`` pad its caps ask for.
///
///     try await Transcoder.encode(from: "input.mkv", to: "output.webm", profile: EncodingProfile(
///         string: "video/webm:video/x-vp8:audio/x-vorbis"))
public enum Transcoder {
    /// Decodes `source`, encodes its streams as `profile` says and writes the result to `path`, awaiting
    /// the end of stream. The task suspends while GStreamer works (the wait is the pipeline's bus
    /// messages), and the pipeline is brought down without holding a thread of Swift's cooperative pool.
    /// Streams of a kind the profile has no stream for (audio, for a video-only profile) are dropped.
    ///
    /// The corresponding C elements are `uridecodebin`, `encodebin` and `filesink`.
    ///
    /// - Parameters:
    ///   - source: A URI (`file:///...`, `https://...`) or a file path.
    ///   - path: The file to write.
    ///   - profile: What to produce.
    /// - Throws: ``GStreamerError``: the first error an element posts, naming the element, and, when an
    ///   encoder or muxer is missing, the caps it should take and GStreamer's missing-plugin description
    ///   with its installer detail; a runtime error when the task is cancelled before the end.
    public static func encode(
        from source: String, to path: String, profile: EncodingProfile
    ) async throws(GStreamerError) {
        let pipeline = try Pipeline(name: "transcoder")
        let decoder = try Element(factory: "uridecodebin", name: "decoder")
        try decoder.set("uri", try uri(of: source))
        let encoder = try EncodeBin(profile: profile, name: "encoder")
        let sink = try Element(factory: "filesink", name: "sink")
        try sink.set("location", path)
        try pipeline.add(decoder, encoder, sink)
        try encoder.link(to: sink)

        // Encodebin posts the missing encoder as a message of its own, before the error it leads to.
        let missing = MissingPlugins()
        pipeline.setSyncHandler { posted in
            if case .missingPlugin(_, let plugin) = posted.message { missing.list.withLock { $0.append(plugin) } }
            return .pass
        }
        let connection = decoder.onPadAdded { pad in
            link(pad, of: decoder, to: encoder, in: pipeline, profile: profile)
        }
        defer { connection.disconnect() }

        let messages = pipeline.messages
        var failure: GStreamerError?
        do throws(GStreamerError) {
            try await pipeline.playWithoutBlocking()
            failure = await firstError(in: messages)
        } catch {
            failure = error
        }
        await pipeline.stopWithoutBlocking()
        guard var failure else { return }
        for plugin in missing.list.withLock({ $0 }) {
            failure.message += "; missing: \(plugin.description)"
            if let detail = plugin.installerDetail { failure.message += " (installer detail \(detail))" }
        }
        throw failure
    }

    /// Nil at end of stream; else the first error, or one saying the wait ended early.
    private static func firstError(in messages: MessageStream) async -> GStreamerError? {
        for await message in messages {
            if case .endOfStream = message { return nil }
            if case .error(let error) = message { return error }
        }
        return GStreamerError(
            kind: .runtime,
            message: Task.isCancelled ? "the transcoding was cancelled before the end" : "the bus messages ended early",
            source: "transcoder")
    }

    /// Links a decoded stream to encodebin, or drops it into a fakesink when the profile has no stream
    /// of its kind. Runs on the decoder's streaming thread.
    private static func link(
        _ pad: Pad, of decoder: Element, to encoder: EncodeBin, in pipeline: Pipeline,
        profile: EncodingProfile
    ) {
        let caps = pad.currentCaps ?? pad.queryCaps()
        let media = caps.mediaType ?? ""
        let wanted =
            profile.streams(of: .video).isEmpty == false && media.hasPrefix("video/")
            || profile.streams(of: .audio).isEmpty == false && media.hasPrefix("audio/")
        do throws(GStreamerError) {
            guard wanted else {
                let discard = try Element(factory: "fakesink")
                try discard.set("sync", false)
                try pipeline.add(discard)
                try discard.syncStateWithParent()
                try pad.link(to: discard.pad(named: "sink")!)
                return
            }
            try pad.link(to: try encoder.requestPad(for: caps))
        } catch {
            decoder.postError("cannot encode the \(media) stream \(pad.name): \(error.message)", debug: "\(caps)")
        }
    }

    /// `source` as a URI: itself when it has a scheme, else the URI of the file path.
    private static func uri(of source: String) throws(GStreamerError) -> String {
        if gst_uri_is_valid(source) != 0 { return source }
        var error: UnsafeMutablePointer<GError>?
        guard let uri = String(takingGString: gst_filename_to_uri(source, &error)) else {
            throw GStreamerError(taking: error, kind: .invalidArgument, source: source)
        }
        return uri
    }

    /// The missing-plugin messages of one run, gathered on the threads that post them.
    private final class MissingPlugins: Sendable {
        let list = Locked<[MissingPlugin]>([])
    }
}
