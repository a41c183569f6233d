extension Player {
    /// What ``Player/playUntilEnd()`` throws when playback ended before the end of the media with no
    /// error of GStreamer's: someone stopped or closed the player.
    public struct Interrupted: Error, Sendable, Equatable, CustomStringConvertible {
        /// Why playback did not reach the end.
        public enum Reason: String, Sendable, Equatable {
            /// ``Player/stop()`` was called while it played (GstPlay reports only the stopped state).
            case stopped
            /// ``Player/close()`` was called, before or while it played.
            case closed
        }

        /// Why playback did not reach the end.
        public let reason: Reason
        /// The URI that was playing, its password and tokens written `***`.
        public let uri: String

        /// "the player of URI was stopped before the end" (or "closed").
        public var description: String { "the player of \(uri) was \(reason.rawValue) before the end" }
    }
}
