import CGStreamer

/// The shape of raw audio: sample format, rate, channels with their positions, and layout.
/// Built from caps (GstAudioInfo) and turned back into caps.
public struct AudioInfo: Sendable, Hashable, CustomStringConvertible {
    /// How each sample is stored.
    public var format: AudioSampleFormat
    /// Samples per second per channel, such as 48000.
    public var rate: Int
    /// The number of channels, such as 2 for stereo.
    public var channels: Int
    /// Whether the channels are interleaved or in planes of their own.
    public var layout: AudioLayout
    /// One position per channel.
    public var positions: [AudioChannelPosition]

    /// Audio of this shape; positions default to GStreamer's usual ones for the channel count.
    ///
    /// - Parameters:
    ///   - format: How each sample is stored.
    ///   - rate: Samples per second per channel, such as 48000.
    ///   - channels: The channel count.
    ///   - layout: Interleaved (the default) or non-interleaved.
    ///   - positions: One position per channel, or nil for GStreamer's usual ones.
    public init(
        format: AudioSampleFormat, rate: Int, channels: Int, layout: AudioLayout = .interleaved,
        positions: [AudioChannelPosition]? = nil
    ) {
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
    /// - Parameter samples: Samples per channel.
    /// - Returns: The duration in nanoseconds.
    public func duration(ofSamples samples: Int) -> ClockTime {
        ClockTime(gst_util_uint64_scale_int(guint64(samples), 1_000_000_000, gint(rate)))
    }

    /// The sample count (per channel) at `time` nanoseconds from the start, rounded down.
    ///
    /// - Parameter time: A time in nanoseconds.
    /// - Returns: Samples per channel.
    public func samples(in time: ClockTime) -> Int {
        Int(gst_util_uint64_scale_int(guint64(time), gint(rate), 1_000_000_000))
    }

    /// "S16LE 48000 Hz 2 channels (interleaved)".
    public var description: String {
        "\(format.gstreamerName) \(rate) Hz \(channels) channel\(channels == 1 ? "" : "s") (\(layout.rawValue))"
    }
}
