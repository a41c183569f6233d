/// What a MediaIO audio element asks for: sample formats in order of preference, and the rate,
/// channel count and layout it wants (nil: whatever the other side has). A sink gets exactly this
/// from any input (the element converts); a source's request is met by what downstream accepts.
public struct AudioFormatRequest: Sendable, Hashable {
    /// Acceptable sample formats, preferred first.
    public var formats: [AudioSampleFormat]
    /// The sample rate in Hz (samples per channel per second) required; nil takes the other side's.
    public var rate: Int?
    /// The channel count required; nil takes the other side's.
    public var channels: Int?
    /// Nil: either (interleaved preferred).
    public var layout: AudioLayout?
    /// Sources: the rate and channel count to choose when downstream leaves them open (`rate` and
    /// `channels` require theirs).
    public var preferredRate: Int?
    /// Sources: the channel count to choose when downstream leaves it open.
    public var preferredChannels: Int?
    /// Sources: the samples (per channel) in each buffer sent downstream, such as 480 for 10 ms at
    /// 48 kHz; pushes of any size are cut to it. Nil: each push is one buffer.
    public var samplesPerBuffer: Int?

    /// A request for any of `formats`, fixing the rate, channel count and layout where they are given.
    ///
    /// - Parameters:
    ///   - formats: Acceptable sample formats, preferred first; by default every format MediaIO reads.
    ///   - rate: The sample rate in Hz to require, or nil for any.
    ///   - channels: The channel count to require, or nil for any.
    ///   - layout: Interleaved (the default) or non-interleaved, or nil for either.
    ///   - samplesPerBuffer: Sources: samples per channel in each buffer sent downstream, or nil for one buffer
    ///     per push.
    public init(
        formats: [AudioSampleFormat] = AudioSampleFormat.allCases, rate: Int? = nil, channels: Int? = nil,
        layout: AudioLayout? = .interleaved, samplesPerBuffer: Int? = nil
    ) {
        self.formats = formats
        self.rate = rate
        self.channels = channels
        self.layout = layout
        self.samplesPerBuffer = samplesPerBuffer
    }

    /// Exactly `info`, in buffers of `samplesPerBuffer` (10 ms when nil is not asked for: pass it).
    ///
    /// - Parameters:
    ///   - info: The exact format, rate, channel count and layout to ask for.
    ///   - samplesPerBuffer: Sources: samples per channel in each buffer sent downstream, or nil for one buffer
    ///     per push.
    public init(_ info: AudioInfo, samplesPerBuffer: Int? = nil) {
        self.init(
            formats: [info.format], rate: info.rate, channels: info.channels, layout: info.layout,
            samplesPerBuffer: samplesPerBuffer)
    }

    /// The samples (per channel) of `milliseconds` at `rate`: 480 for 10 ms at 48 kHz, 441 at 44.1 kHz.
    ///
    /// - Parameters:
    ///   - milliseconds: A duration in milliseconds.
    ///   - rate: The sample rate in Hz.
    /// - Returns: Samples per channel, rounded down.
    public static func samples(milliseconds: Int, rate: Int) -> Int { rate * milliseconds / 1000 }

    /// These wishes as raw-audio caps.
    public var capsString: String {
        var fields = ["audio/x-raw"]
        let names = formats.map(\.gstreamerName)
        fields.append(names.count == 1 ? "format=\(names[0])" : "format={ \(names.joined(separator: ", ")) }")
        fields.append("layout=" + (layout?.rawValue ?? "{ interleaved, non-interleaved }"))
        fields.append("rate=" + (rate.map { "\($0)" } ?? "[ 1, 2147483647 ]"))
        fields.append("channels=" + (channels.map { "\($0)" } ?? "[ 1, 2147483647 ]"))
        return fields.joined(separator: ", ")
    }

    /// Raw-audio caps for every format and layout MediaIO handles: pad templates.
    public static var anyCaps: String {
        [AudioLayout.interleaved, .nonInterleaved].map {
            AudioFormatRequest(layout: $0).capsString
        }.joined(separator: "; ")
    }
}
