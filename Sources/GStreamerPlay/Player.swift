import CGStreamer
import CGStreamerPlay
import GStreamer

/// A media player for a URI or a file: play, pause, stop, seek, rate and volume, with what happens as
/// an `AsyncSequence` of ``Event``s and what the media holds as ``MediaInfo``. GStreamer's `playbin`
/// does the work on GstPlay's own thread; every control call returns at once.
///
/// ```swift
/// let player = try Player(path: "clip.mp4", videoSink: Element(factory: "fakesink"))
/// try await player.playUntilEnd()
/// ```
///
/// Without sinks, playbin picks the system's (autovideosink, autoaudiosink), which need a display and
/// a sound device; give `fakesink`s to play without them.
///
/// The corresponding C type is `GstPlay` (libgstplay-1.0, gst-plugins-bad).
public final class Player: Sendable {
    // GstPlay's calls are thread-safe: each takes its lock or hands the work to GstPlay's thread.
    private nonisolated(unsafe) let handle: OpaquePointer
    private nonisolated(unsafe) let bus: UnsafeMutablePointer<GstBus>
    /// Internal, not private: the tests watch it go with the GstPlay whose bus holds it.
    let hub = PlayerEventHub()

    /// The URI played, such as `file:///home/me/clip.mp4` or `https://example.com/clip.webm`.
    public let uri: String

    /// A player for `uri`, stopped; call ``play()`` or ``playUntilEnd()``.
    ///
    /// The corresponding C functions are `gst_play_new` and `gst_play_set_uri`; the sinks are set on
    /// `gst_play_get_pipeline`'s playbin.
    ///
    /// - Parameters:
    ///   - uri: What to play: any URI GStreamer has a source for (`file://`, `http://`, `rtsp://`, ...).
    ///   - videoSink: Where video goes (such as a `fakesink`, or an appsink); nil for playbin's choice.
    ///   - audioSink: Where audio goes; nil for playbin's choice.
    ///   - positionUpdateInterval: How often ``Event/positionUpdated(_:)`` comes while playing.
    ///   - accurateSeeks: Whether ``seek(to:)`` lands on the exact position (decoding from the keyframe
    ///     before it) rather than on the nearest keyframe, which is faster.
    /// - Throws: `GStreamerError` (invalid argument) when `uri` is no URI (give a path to
    ///   ``init(path:videoSink:audioSink:positionUpdateInterval:accurateSeeks:)``), or GStreamer cannot
    ///   be initialized.
    public init(
        uri: String, videoSink: Element? = nil, audioSink: Element? = nil,
        positionUpdateInterval: Duration = .milliseconds(100), accurateSeeks: Bool = false
    ) throws(GStreamerError) {
        try GStreamer.initialize()
        guard gst_uri_is_valid(uri) != 0 else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "\"\(URISecrets(uri: uri).redactedURI)\" is not a URI: give one such as "
                    + "file:///path/clip.mp4, or a file's path")
        }
        // A player without a video renderer: playbin's video-sink property decides where video goes.
        guard let play = gst_play_new(nil) else {
            throw GStreamerError(kind: .core, message: "GstPlay could not be created")
        }
        self.handle = play
        self.uri = uri
        bus = gst_play_get_message_bus(play)
        hub.attach(to: bus)
        let milliseconds =
            positionUpdateInterval.components.seconds * 1000
            + positionUpdateInterval.components.attoseconds / 1_000_000_000_000_000
        if let config = gst_play_get_config(play) {
            gst_play_config_set_position_update_interval(config, guint(clamping: max(1, milliseconds)))
            gst_play_config_set_seek_accurate(config, accurateSeeks ? 1 : 0)
            gst_play_set_config(play, config)
        }
        setSink("video-sink", videoSink)
        setSink("audio-sink", audioSink)
        gst_play_set_uri(play, uri)
    }

    /// A player for the file at `path`.
    ///
    /// The corresponding C function is `gst_filename_to_uri`.
    ///
    /// - Parameters:
    ///   - path: The file's path, absolute or relative to the current directory.
    ///   - videoSink: Where video goes (such as a `fakesink`); nil for playbin's choice.
    ///   - audioSink: Where audio goes; nil for playbin's choice.
    ///   - positionUpdateInterval: How often ``Event/positionUpdated(_:)`` comes while playing.
    ///   - accurateSeeks: Whether ``seek(to:)`` lands on the exact position rather than a keyframe.
    /// - Throws: `GStreamerError` (invalid argument) when the path cannot be made a URI.
    public convenience init(
        path: String, videoSink: Element? = nil, audioSink: Element? = nil,
        positionUpdateInterval: Duration = .milliseconds(100), accurateSeeks: Bool = false
    ) throws(GStreamerError) {
        try GStreamer.initialize()
        var error: UnsafeMutablePointer<GError>?
        guard let uri = gst_filename_to_uri(path, &error) else {
            let reason = error?.pointee.message.map { String(cString: $0) } ?? "unknown error"
            if let error { g_error_free(error) }
            throw GStreamerError(kind: .invalidArgument, message: "cannot make a URI of \"\(path)\": \(reason)")
        }
        defer { g_free(uri) }
        try self.init(
            uri: String(cString: uri), videoSink: videoSink, audioSink: audioSink,
            positionUpdateInterval: positionUpdateInterval, accurateSeeks: accurateSeeks)
    }

    deinit {
        hub.finish()
        // Each of GstPlay's messages holds a reference on GstPlay: should a message on GstPlay's own
        // thread drop the last one, GstPlay's dispose would free that thread's loop and context under
        // it (it joins the thread only from another). So the bus drops later messages as they are
        // posted, the stop ends the position ticks and playbin's messages, and the release thread
        // waits for GstPlay's thread to have stopped before it drops the last reference.
        gst_bus_set_flushing(bus, 1)
        gst_play_stop(handle)
        gst_object_unref(UnsafeMutableRawPointer(bus))
        // Releasing GstPlay joins its thread, which first brings playbin to NULL: a wait, done on a
        // thread of its own so that neither the releasing thread nor a task of Swift's pool waits.
        let release = Unmanaged.passRetained(Release(play: handle, hub: hub)).toOpaque()
        let thread = g_thread_new(
            "gstpipe-player-release",
            { data in
                let release = Unmanaged<Release>.fromOpaque(data!).takeRetainedValue()
                release.hub.waitForGstPlayThread()
                gst_object_unref(UnsafeMutableRawPointer(release.play))
                return nil
            }, release)
        g_thread_unref(thread)
    }

    /// What the release thread needs.
    private final class Release: @unchecked Sendable {
        let play: OpaquePointer
        let hub: PlayerEventHub

        init(play: OpaquePointer, hub: PlayerEventHub) {
            self.play = play
            self.hub = hub
        }
    }

    // MARK: Events

    /// The player's events from now on, as GstPlay posts them; each access is a new sequence, so
    /// several readers each get every event. A sequence starts with the URI loaded last
    /// (``Event/uriLoaded(_:)``), which GstPlay posts as soon as the player is made, before anyone
    /// could listen. The sequence ends when the player is closed or released. A reader that falls
    /// more than 4096 events behind loses the oldest.
    public var events: AsyncStream<Event> { hub.subscribe(capacity: 4096) }

    /// The state last reported by an event (``State/stopped`` before any).
    public var state: State { hub.lastState }

    /// Whether ``close()`` was called: every ``events`` sequence has ended, and ``playUntilEnd()`` throws at once.
    public var isClosed: Bool { hub.isFinished }

    // MARK: Controls

    /// Starts or resumes playback. Returns at once; ``Event/stateChanged(_:)`` follows.
    ///
    /// The corresponding C function is `gst_play_play`.
    public func play() { gst_play_play(handle) }

    /// Pauses at the current position. Returns at once; ``Event/stateChanged(_:)`` follows.
    ///
    /// The corresponding C function is `gst_play_pause`.
    public func pause() { gst_play_pause(handle) }

    /// Stops playback and releases the media; ``play()`` starts again from the beginning.
    ///
    /// The corresponding C function is `gst_play_stop`.
    public func stop() { gst_play_stop(handle) }

    /// Seeks to `position`. Returns at once; ``Event/seekDone(_:)`` follows.
    ///
    /// The corresponding C function is `gst_play_seek`.
    ///
    /// - Parameter position: Where to go, in nanoseconds from the start.
    public func seek(to position: ClockTime) {
        // GstPlay reads -1 as "no position" and would ignore the seek.
        gst_play_seek(handle, GstClockTime(min(position, ClockTime(Int64.max))))
    }

    /// Stops playback and ends every ``events`` sequence. Returns at once; the player's resources go
    /// when it is released.
    public func close() {
        gst_play_stop(handle)
        hub.finish()
    }

    /// The playback rate: 1 is normal speed, 2 twice as fast, negative plays backwards (when the media
    /// can); 0 is ignored.
    ///
    /// The corresponding C functions are `gst_play_get_rate` and `gst_play_set_rate`.
    public var rate: Double {
        get { gst_play_get_rate(handle) }
        set { if newValue != 0 && newValue.isFinite { gst_play_set_rate(handle, newValue) } }
    }

    /// The audio volume, linear: 0 is silence, 1 full volume (playbin's `volume`, up to 10).
    ///
    /// The corresponding C functions are `gst_play_get_volume` and `gst_play_set_volume`.
    public var volume: Double {
        get { gst_play_get_volume(handle) }
        set { gst_play_set_volume(handle, newValue.isFinite ? min(max(newValue, 0), 10) : 1) }
    }

    /// Whether the audio is muted.
    ///
    /// The corresponding C functions are `gst_play_get_mute` and `gst_play_set_mute`.
    public var isMuted: Bool {
        get { gst_play_get_mute(handle) != 0 }
        set { gst_play_set_mute(handle, newValue ? 1 : 0) }
    }

    // MARK: Where playback is

    /// The current position, in nanoseconds (0 before playback starts); nil when GStreamer cannot tell.
    ///
    /// The corresponding C function is `gst_play_get_position`.
    public var position: ClockTime? {
        let position = gst_play_get_position(handle)
        return position == GstClockTime.max ? nil : ClockTime(position)
    }

    /// The media's length, in nanoseconds; nil when unknown (live, or not yet known).
    ///
    /// The corresponding C function is `gst_play_get_duration`.
    public var duration: ClockTime? {
        let duration = gst_play_get_duration(handle)
        return duration == GstClockTime.max ? nil : ClockTime(duration)
    }

    /// What the media holds, once the player has loaded it (after the first
    /// ``Event/mediaInfoUpdated(_:)``); nil before.
    ///
    /// The corresponding C function is `gst_play_get_media_info`.
    public var mediaInfo: MediaInfo? {
        guard let info = gst_play_get_media_info(handle) else { return hub.lastMediaInfo }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        return MediaInfo(info)
    }

    // MARK: Helpers

    /// Sets one of playbin's sink properties to `sink`, when there is one.
    private func setSink(_ property: String, _ sink: Element?) {
        guard let sink, let playbin = gst_play_get_pipeline(handle) else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(playbin)) }
        Value(sink).withUnsafeGValue { value in
            let object = UnsafeMutableRawPointer(playbin).assumingMemoryBound(to: GObject.self)
            g_object_set_property(object, property, value)
        }
    }
}
