import CGStreamer

/// How a seek is done.
///
/// The corresponding C type is `GstSeekFlags`.
public struct SeekFlags: OptionSet, Sendable {
    /// The `GstSeekFlags` bits.
    public let rawValue: UInt32
    /// The flags of these `GstSeekFlags` bits.
    ///
    /// - Parameter rawValue: A `GstSeekFlags` combination.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Drop what is queued and start at once from the new position (almost always wanted).
    public static let flush = SeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue)
    /// Land exactly on the position, decoding from the key frame before it.
    public static let accurate = SeekFlags(rawValue: GST_SEEK_FLAG_ACCURATE.rawValue)
    /// Land on the nearest key frame (fast).
    public static let keyUnit = SeekFlags(rawValue: GST_SEEK_FLAG_KEY_UNIT.rawValue)
    /// Post a segment-done message at the stop instead of ending the stream (seamless loops).
    public static let segment = SeekFlags(rawValue: GST_SEEK_FLAG_SEGMENT.rawValue)
    /// Play only some frames (key frames, say), for fast forward.
    public static let trickMode = SeekFlags(rawValue: GST_SEEK_FLAG_TRICKMODE.rawValue)
    /// Skip frames at high rates.
    public static let skip = SeekFlags(rawValue: GST_SEEK_FLAG_SKIP.rawValue)
    /// With `keyUnit`: the key frame before the position.
    public static let snapBefore = SeekFlags(rawValue: GST_SEEK_FLAG_SNAP_BEFORE.rawValue)
    /// With `keyUnit`: the key frame after the position.
    public static let snapAfter = SeekFlags(rawValue: GST_SEEK_FLAG_SNAP_AFTER.rawValue)
    /// Change only the rate, at once, without a flush (start and stop are not given).
    public static let instantRateChange = SeekFlags(rawValue: GST_SEEK_FLAG_INSTANT_RATE_CHANGE.rawValue)
}
