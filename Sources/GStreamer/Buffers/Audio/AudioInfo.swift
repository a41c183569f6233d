import CGStreamer

/// The shape of raw audio: sample format, rate, channels with their positions, and layout.
/// Built from caps (GstAudioInfo) and turned back into caps.
public struct AudioInfo: Sendable, Hashable, CustomStringConvertible {
    /// How each sample is stored.
    public var format: AudioSampleFormat
    /// Samples per second per channel, such as 48000 (from 1 to 2147483647).
    public private(set) var rate: Int
    /// The number of channels, such as 2 for stereo (from 1 to 64).
    public private(set) var channels: Int
    /// Whether the channels are interleaved or in planes of their own.
    public var layout: AudioLayout
    /// One position per channel.
    public private(set) var positions: [AudioChannelPosition]

    /// Audio of this shape; positions default to GStreamer's usual ones for the channel count.
    ///
    /// - Parameters:
    ///   - format: How each sample is stored.
    ///   - rate: Samples per second per channel, such as 48000.
    ///   - channels: The channel count.
    ///   - layout: Interleaved (the default) or non-interleaved.
    ///   - positions: One position per channel, or nil for GStreamer's usual ones.
    /// - Throws: ``GStreamerError`` (invalid argument) for a rate outside 1...2147483647, a channel count
    ///   outside 1...64 (the positions GStreamer's audio info holds), or positions not one per channel.
    public init(
        format: AudioSampleFormat, rate: Int, channels: Int, layout: AudioLayout = .interleaved,
        positions: [AudioChannelPosition]? = nil
    ) throws(GStreamerError) {
        guard (1...Int(Int32.max)).contains(rate) else {
            throw GStreamerError(
                kind: .invalidArgument, message: "an audio rate of \(rate) Hz is out of range: give 1 to 2147483647")
        }
        guard (1...64).contains(channels) else {
            throw GStreamerError(
                kind: .invalidArgument, message: "\(channels) audio channels is out of range: give 1 to 64")
        }
        if let positions, positions.count != channels {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "\(positions.count) channel positions for \(channels) channels: give one per channel")
        }
        self.format = format
        self.rate = rate
        self.channels = channels
        self.layout = layout
        self.positions = positions ?? AudioChannelPosition.defaults(forChannels: channels)
    }

    /// The shape of fixed raw-audio caps. Throws when the caps are not fixed raw audio, or hold a
    /// sample format MediaIO does not handle (named in the message).
    ///
    /// The corresponding C function is `gst_audio_info_from_caps`.
    ///
    /// - Parameter caps: Fixed `audio/x-raw` caps.
    /// - Throws: ``GStreamerError`` (invalid argument) when the caps are not fixed raw audio, or the sample
    ///   format is not one of ``AudioSampleFormat``'s.
    public init(caps: Caps) throws(GStreamerError) {
        var info = GstAudioInfo()
        guard gst_audio_info_from_caps(&info, caps.pointer) != 0 else {
            throw GStreamerError(kind: .invalidArgument, message: "not fixed raw audio caps: \(caps)")
        }
        let name = String(cString: gst_audio_format_to_string(info.finfo.pointee.format))
        guard let format = AudioSampleFormat(gstreamerName: name) else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "audio samples in \(name) are not handled (S16LE, S32LE, F32LE, F64LE and U8 are): "
                    + "put audioconvert before the element")
        }
        guard info.rate > 0, (1...64).contains(info.channels) else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "raw audio caps with a rate of \(info.rate) Hz and \(info.channels) channels (1 to 64 are "
                    + "handled): \(caps)")
        }
        self.format = format
        rate = Int(info.rate)
        channels = Int(info.channels)
        layout = info.layout == GST_AUDIO_LAYOUT_NON_INTERLEAVED ? .nonInterleaved : .interleaved
        positions = withUnsafeBytes(of: info.position) { bytes in
            Array(bytes.bindMemory(to: GstAudioChannelPosition.self).prefix(Int(info.channels)))
        }.map(AudioChannelPosition.init)
    }

    var gstInfo: GstAudioInfo {
        var info = GstAudioInfo()
        var gstPositions = positions.map(\.gstPosition)
        let positioned = positions.count == channels && !positions.contains(.none)
        gstPositions.withUnsafeMutableBufferPointer { buffer in
            gst_audio_info_set_format(
                &info, format.gstFormat, gint(rate), gint(channels), positioned ? buffer.baseAddress : nil)
        }
        info.layout = layout.gstLayout
        return info
    }

    /// These audio caps: `audio/x-raw, format=S16LE, layout=interleaved, rate=48000, channels=2,
    /// channel-mask=0x3`.
    ///
    /// The corresponding C function is `gst_audio_info_to_caps`.
    public var caps: Caps {
        var info = gstInfo
        return Caps(taking: gst_audio_info_to_caps(&info))
    }

    /// Bytes of one sample instant across all channels (interleaved) or of one sample (a plane's unit).
    public var bytesPerFrame: Int { format.bytesPerSample * channels }

    /// The time `samples` samples (per channel) last, in nanoseconds, rounded down.
    ///
    /// The corresponding C function is `gst_util_uint64_scale_int`.
    ///
    /// - Parameter samples: Samples per channel; a negative count lasts 0.
    /// - Returns: The duration in nanoseconds (`ClockTime.max` when it overflows).
    public func duration(ofSamples samples: Int) -> ClockTime {
        ClockTime(gst_util_uint64_scale_int(guint64(max(samples, 0)), 1_000_000_000, gint(rate)))
    }

    /// The sample count (per channel) at `time` nanoseconds from the start, rounded down.
    ///
    /// - Parameter time: A time in nanoseconds.
    /// - Returns: Samples per channel (`Int.max` when that many do not fit).
    public func samples(in time: ClockTime) -> Int {
        Int(clamping: gst_util_uint64_scale_int(guint64(time), gint(rate), 1_000_000_000))
    }

    /// "S16LE 48000 Hz 2 channels (interleaved)".
    public var description: String {
        "\(format.gstreamerName) \(rate) Hz \(channels) channel\(channels == 1 ? "" : "s") (\(layout.rawValue))"
    }
}
