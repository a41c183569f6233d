import CGStreamer
import GStreamer

extension Player {
    /// Plays from where the player is to the end of the media and returns there, like a pipeline's
    /// `run()`: the task suspends on the player's events, no thread waits.
    ///
    /// - Throws: `GStreamerError` (runtime) naming the URI with GstPlay's message when playback fails
    ///   (a missing file, which it names, or a format no decoder takes), or when the player is closed before the end;
    ///   `CancellationError` when the task is cancelled (playback is stopped).
    public func playUntilEnd() async throws {
        // Listening before `play()`, so that no event of this run can be missed.
        let events = self.events
        play()
        for await event in events {
            switch event {
            case .endOfStream:
                return
            case .error(var error):
                error.message = "could not play \(uri): \(error.message)" + (missingFileNote ?? "")
                throw error
            default:
                continue
            }
        }
        if Task.isCancelled {
            stop()
            throw CancellationError()
        }
        throw GStreamerError(kind: .runtime, message: "the player of \(uri) was closed before the end")
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
