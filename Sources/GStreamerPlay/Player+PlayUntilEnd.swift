import CGStreamer
import GStreamer

extension Player {
    /// Plays from where the player is to the end of the media and returns there, like a pipeline's
    /// `run()`: the task suspends on the player's events, no thread waits.
    ///
    /// It ends only on what its own run reports: an end of stream, error or stop that GstPlay reported
    /// for calls made before it (a `pause()` and `stop()` just before, or an earlier run's end) is not
    /// taken for this run's.
    ///
    /// - Throws: `GStreamerError` (runtime) naming the URI with GstPlay's message when playback fails
    ///   (a missing file, which it names, or a format no decoder takes); ``Interrupted`` when the player
    ///   is stopped or closed before the end, or was closed already (then it does not start);
    ///   `CancellationError` when the task is cancelled (playback is stopped). Messages write the URI's
    ///   password and tokens as `***`.
    public func playUntilEnd() async throws {
        // Listening before `play()`, so that no event of this run can be missed.
        let items = hub.subscribeRun(capacity: 4096)
        let secrets = URISecrets(uri: uri)
        // A closed player's sequences have ended: playing it would start playback nobody listens to.
        guard !isClosed else { throw Interrupted(reason: .closed, uri: secrets.redactedURI) }
        // The run's events are those after its mark, which GstPlay's thread passes after it has done
        // the calls made before this one (the mark needs GstPlay's context, known from the player's
        // first URI_LOADED, which GstPlay posts just after the player is made).
        var mark = hub.mark()
        if mark == nil {
            for await item in items {
                if case .event(.uriLoaded) = item {
                    mark = hub.mark()
                    break
                }
            }
            // The wait ended without URI_LOADED: the player was closed, or the task cancelled.
            guard !isClosed else { throw Interrupted(reason: .closed, uri: secrets.redactedURI) }
            try Task.checkCancellation()
        }
        play()
        var isOurs = false
        // Without a mark (GstPlay posted URI_LOADED from a thread without its context), a stopped
        // state reported before this run left it (a stop() just before the call) is not the end.
        var hasStarted = false
        for await item in items {
            let event: Event
            switch item {
            case .mark(let number):
                if number == mark { isOurs = true }
                continue
            case .event(let next):
                event = next
            }
            guard isOurs || mark == nil else { continue }
            switch event {
            case .endOfStream:
                return
            case .error(var error):
                error.message = secrets.redact("could not play \(uri): \(error.message)" + (missingFileNote ?? ""))
                error.debug = error.debug.map(secrets.redact)
                throw error
            case .stateChanged(.stopped):
                if hasStarted || mark != nil { throw Interrupted(reason: .stopped, uri: secrets.redactedURI) }
            case .stateChanged:
                hasStarted = true
            default:
                continue
            }
        }
        if Task.isCancelled {
            stop()
            throw CancellationError()
        }
        throw Interrupted(reason: .closed, uri: secrets.redactedURI)
    }

    /// " (no such file: PATH)" when the URI is a file's that does not exist. GstPlay 1.22 reports a
    /// source that fails to start as "Failed to play" alone: the file source's own message is
    /// flushed with the pipeline's bus, so the user would not learn what to fix.
    private var missingFileNote: String? {
        guard let path = gst_uri_get_location(uri) else { return nil }
        defer { g_free(path) }
        guard uri.hasPrefix("file:"), g_file_test(path, G_FILE_TEST_EXISTS) == 0 else { return nil }
        return " (no such file: \(String(cString: path)))"
    }
}
