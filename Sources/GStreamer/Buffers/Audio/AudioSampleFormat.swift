import CGStreamer

/// How one audio sample is stored. The formats MediaIO code reads and writes, little-endian as on
/// every machine Swift runs on.
///
/// The corresponding C type is `GstAudioFormat`.
public enum AudioSampleFormat: String, CaseIterable, Sendable {
    /// Signed 16-bit integers (`Int16`): the RTC SDKs' format.
    case s16 = "S16LE"
    /// Signed 32-bit integers (`Int32`).
    case s32 = "S32LE"
    /// 32-bit floats (`Float`), full scale ±1.
    case f32 = "F32LE"
    /// 64-bit floats (`Double`), full scale ±1.
    case f64 = "F64LE"
    /// Unsigned 8-bit integers (`UInt8`), silence at 128.
    case u8 = "U8"

    /// GStreamer's name, as in caps: "S16LE".
    public var gstreamerName: String { rawValue }

    /// The format of GStreamer's name, or nil for one MediaIO does not handle (S24, big-endian, ...).
    ///
    /// - Parameter gstreamerName: The name as in caps, such as "F32LE".
    public init?(gstreamerName: String) {
        self.init(rawValue: gstreamerName)
    }

    /// Bytes of one sample of one channel: 1 for U8, 2 for S16LE, 4 for S32LE and F32LE, 8 for F64LE.
    public var bytesPerSample: Int {
        switch self {
        case .u8: 1
        case .s16: 2
        case .s32, .f32: 4
        case .f64: 8
        }
    }

    var gstFormat: GstAudioFormat { gst_audio_format_from_string(rawValue) }
}

/// Where a frame's channels lie: one after another for each sample instant (L R L R ...), or each
/// channel in a plane of its own.
public enum AudioLayout: String, Sendable {
    /// The channels' samples alternate: L R L R … for stereo, in one plane.
    case interleaved
    /// Each channel's samples in a plane of their own, described by the buffer's GstAudioMeta.
    case nonInterleaved = "non-interleaved"

    var gstLayout: GstAudioLayout {
        self == .interleaved ? GST_AUDIO_LAYOUT_INTERLEAVED : GST_AUDIO_LAYOUT_NON_INTERLEAVED
    }
}

/// The loudspeaker a channel is meant for.
///
/// The corresponding C type is `GstAudioChannelPosition`.
public struct AudioChannelPosition: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `GstAudioChannelPosition` value.
    public let rawValue: Int32
    /// The position whose `GstAudioChannelPosition` value is `rawValue`.
    ///
    /// - Parameter rawValue: A `GstAudioChannelPosition` value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    init(_ position: GstAudioChannelPosition) { rawValue = position.rawValue }
    var gstPosition: GstAudioChannelPosition { GstAudioChannelPosition(rawValue: rawValue) }

    /// A channel meant for no loudspeaker in particular (channels beyond what GStreamer names).
    public static let none = AudioChannelPosition(GST_AUDIO_CHANNEL_POSITION_NONE)
    /// The one channel of mono audio.
    public static let mono = AudioChannelPosition(GST_AUDIO_CHANNEL_POSITION_MONO)
    /// Front left (`GST_AUDIO_CHANNEL_POSITION_FRONT_LEFT`): stereo's left.
    public static let frontLeft = AudioChannelPosition(GST_AUDIO_CHANNEL_POSITION_FRONT_LEFT)
    /// Front right (`GST_AUDIO_CHANNEL_POSITION_FRONT_RIGHT`): stereo's right.
    public static let frontRight = AudioChannelPosition(GST_AUDIO_CHANNEL_POSITION_FRONT_RIGHT)
    /// Front center (`GST_AUDIO_CHANNEL_POSITION_FRONT_CENTER`), the center speaker of 5.1.
    public static let frontCenter = AudioChannelPosition(GST_AUDIO_CHANNEL_POSITION_FRONT_CENTER)
    /// Low-frequency effects (`GST_AUDIO_CHANNEL_POSITION_LFE1`), the subwoofer: the ".1" of 5.1.
    public static let lowFrequency = AudioChannelPosition(GST_AUDIO_CHANNEL_POSITION_LFE1)
    /// Rear left (`GST_AUDIO_CHANNEL_POSITION_REAR_LEFT`).
    public static let rearLeft = AudioChannelPosition(GST_AUDIO_CHANNEL_POSITION_REAR_LEFT)
    /// Rear right (`GST_AUDIO_CHANNEL_POSITION_REAR_RIGHT`).
    public static let rearRight = AudioChannelPosition(GST_AUDIO_CHANNEL_POSITION_REAR_RIGHT)
    /// Side left (`GST_AUDIO_CHANNEL_POSITION_SIDE_LEFT`), in 7.1.
    public static let sideLeft = AudioChannelPosition(GST_AUDIO_CHANNEL_POSITION_SIDE_LEFT)
    /// Side right (`GST_AUDIO_CHANNEL_POSITION_SIDE_RIGHT`), in 7.1.
    public static let sideRight = AudioChannelPosition(GST_AUDIO_CHANNEL_POSITION_SIDE_RIGHT)

    /// A name such as "front-left".
    public var description: String {
        switch self {
        case .none: "none"
        case .mono: "mono"
        case .frontLeft: "front-left"
        case .frontRight: "front-right"
        case .frontCenter: "front-center"
        case .lowFrequency: "lfe1"
        case .rearLeft: "rear-left"
        case .rearRight: "rear-right"
        case .sideLeft: "side-left"
        case .sideRight: "side-right"
        default: "position \(rawValue)"
        }
    }

    /// GStreamer's usual positions for `channels` channels: mono; left, right; the 5.1 and 7.1
    /// layouts; none for counts it has no layout for.
    ///
    /// The corresponding C function is `gst_audio_channel_get_fallback_mask`.
    ///
    /// - Parameter channels: The channel count, 1 to 64.
    /// - Returns: One position per channel, in channel order; all ``none`` when GStreamer has no layout for
    ///   the count; none at all for a count outside 1...64 (what an ``AudioInfo`` holds).
    public static func defaults(forChannels channels: Int) -> [AudioChannelPosition] {
        guard (1...64).contains(channels) else { return [] }
        if channels == 1 { return [.mono] }
        let mask = gst_audio_channel_get_fallback_mask(gint(channels))
        guard mask != 0 else { return Array(repeating: .none, count: channels) }
        var positions = [GstAudioChannelPosition](repeating: GST_AUDIO_CHANNEL_POSITION_NONE, count: channels)
        guard gst_audio_channel_positions_from_mask(gint(channels), mask, &positions) != 0 else {
            return Array(repeating: .none, count: channels)
        }
        return positions.map(AudioChannelPosition.init)
    }
}
