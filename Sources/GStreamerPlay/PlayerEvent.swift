import CGStreamer
import CGStreamerPlay
import GStreamer

extension Player {
    /// Where the player is: GstPlay's own states, simpler than an element's.
    ///
    /// The corresponding C type is `GstPlayState`.
    public enum State: String, Sendable, Equatable {
        /// Stopped: nothing plays, the position is back at the start (also the state after an error).
        case stopped
        /// Waiting for data (a network source filling its buffer) before it can go on.
        case buffering
        /// Paused at the current position.
        case paused
        /// Playing.
        case playing

        init(_ state: GstPlayState) {
            switch state {
            case GST_PLAY_STATE_BUFFERING: self = .buffering
            case GST_PLAY_STATE_PAUSED: self = .paused
            case GST_PLAY_STATE_PLAYING: self = .playing
            default: self = .stopped
            }
        }
    }

    /// What the player reports as it plays, in the order GstPlay posts it (``Player/events``).
    ///
    /// The corresponding C type is `GstPlayMessage`, read with the `gst_play_message_parse_*` functions.
    public enum Event: Sendable {
        /// The source for the URI is set up; the URI is the one being played.
        case uriLoaded(String)
        /// The player moved to another state.
        case stateChanged(State)
        /// Where playback is, sent every position-update interval while playing (and once at the end).
        case positionUpdated(ClockTime)
        /// The length of the media became known or changed; nil when it is unknown (a live stream).
        case durationChanged(ClockTime?)
        /// Playback reached the end of the media.
        case endOfStream
        /// Playback failed and stopped: the error carries the GError's message, domain and code, and
        /// GstPlay's details in `debug`.
        case error(GStreamerError)
        /// Something went wrong without stopping playback (the GError's message).
        case warning(GStreamerError)
        /// How full the buffer is, 0–100, while ``State/buffering``.
        case buffering(percent: Int)
        /// What the media holds (streams, tags, duration) is known or changed.
        case mediaInfoUpdated(MediaInfo)
        /// The video's size, as the video sink receives it (0 by 0 when there is no video).
        case videoDimensionsChanged(width: Int, height: Int)
        /// The volume changed (linear, 1 is full volume).
        case volumeChanged(Double)
        /// Muting was turned on or off.
        case muteChanged(Bool)
        /// A seek finished; the position it reached.
        case seekDone(ClockTime?)

        /// Reads one of GstPlay's messages; nil for a message that is not GstPlay's.
        init?(_ message: UnsafeMutablePointer<GstMessage>) {
            guard gst_play_is_play_message(message) != 0 else { return nil }
            var type = GST_PLAY_MESSAGE_URI_LOADED
            gst_play_message_parse_type(message, &type)
            switch type {
            case GST_PLAY_MESSAGE_URI_LOADED:
                // The URI sits in the message's structure; GstPlay has no parse function for it.
                let uri = gst_message_get_structure(message).flatMap { gst_structure_get_string($0, "uri") }
                self = .uriLoaded(uri.map { String(cString: $0) } ?? "")
            case GST_PLAY_MESSAGE_POSITION_UPDATED:
                var position = GstClockTime.max
                gst_play_message_parse_position_updated(message, &position)
                self = .positionUpdated(position == GstClockTime.max ? 0 : ClockTime(position))
            case GST_PLAY_MESSAGE_DURATION_CHANGED:
                var duration = GstClockTime.max
                gst_play_message_parse_duration_updated(message, &duration)
                self = .durationChanged(duration == GstClockTime.max ? nil : ClockTime(duration))
            case GST_PLAY_MESSAGE_STATE_CHANGED:
                var state = GST_PLAY_STATE_STOPPED
                gst_play_message_parse_state_changed(message, &state)
                self = .stateChanged(State(state))
            case GST_PLAY_MESSAGE_BUFFERING:
                var percent: guint = 0
                gst_play_message_parse_buffering_percent(message, &percent)
                self = .buffering(percent: Int(percent))
            case GST_PLAY_MESSAGE_END_OF_STREAM:
                self = .endOfStream
            case GST_PLAY_MESSAGE_ERROR:
                var error: UnsafeMutablePointer<GError>?
                var details: UnsafeMutablePointer<GstStructure>?
                gst_play_message_parse_error(message, &error, &details)
                self = .error(Self.error(taking: error, details: details))
            case GST_PLAY_MESSAGE_WARNING:
                var error: UnsafeMutablePointer<GError>?
                var details: UnsafeMutablePointer<GstStructure>?
                gst_play_message_parse_warning(message, &error, &details)
                self = .warning(Self.error(taking: error, details: details))
            case GST_PLAY_MESSAGE_VIDEO_DIMENSIONS_CHANGED:
                var width: guint = 0
                var height: guint = 0
                gst_play_message_parse_video_dimensions_changed(message, &width, &height)
                self = .videoDimensionsChanged(width: Int(width), height: Int(height))
            case GST_PLAY_MESSAGE_MEDIA_INFO_UPDATED:
                var info: OpaquePointer?
                gst_play_message_parse_media_info_updated(message, &info)
                guard let info else { return nil }
                defer { g_object_unref(UnsafeMutableRawPointer(info)) }
                self = .mediaInfoUpdated(MediaInfo(info))
            case GST_PLAY_MESSAGE_VOLUME_CHANGED:
                var volume: gdouble = 0
                gst_play_message_parse_volume_changed(message, &volume)
                self = .volumeChanged(volume)
            case GST_PLAY_MESSAGE_MUTE_CHANGED:
                var muted: gboolean = 0
                gst_play_message_parse_muted_changed(message, &muted)
                self = .muteChanged(muted != 0)
            case GST_PLAY_MESSAGE_SEEK_DONE:
                // GstPlay 1.22 has no parse function for it; the position sits in the same field as a
                // position update's.
                var position = GstClockTime.max
                gst_play_message_parse_position_updated(message, &position)
                self = .seekDone(position == GstClockTime.max ? nil : ClockTime(position))
            default:
                return nil
            }
        }

        /// A Swift error from GstPlay's GError (freed here) and its details structure (freed here).
        private static func error(
            taking error: UnsafeMutablePointer<GError>?, details: UnsafeMutablePointer<GstStructure>?
        ) -> GStreamerError {
            defer {
                if let error { g_error_free(error) }
                if let details { gst_structure_free(details) }
            }
            let debug = details.flatMap { gst_structure_to_string($0) }.map { text in
                defer { g_free(text) }
                return String(cString: text)
            }
            guard let error else { return GStreamerError(kind: .runtime, message: "unknown error", debug: debug) }
            return GStreamerError(
                kind: .runtime, message: error.pointee.message.map { String(cString: $0) } ?? "unknown error",
                debug: debug, domain: g_quark_to_string(error.pointee.domain).map { String(cString: $0) },
                code: Int(error.pointee.code))
        }
    }
}
