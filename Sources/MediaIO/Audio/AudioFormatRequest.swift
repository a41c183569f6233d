/// What a MediaIO audio element asks for: sample formats in order of preference, and the rate,
/// channel count and layout it wants (nil: whatever the other side has). A sink gets exactly this
/// from any input (the element converts); a source's request is met by what downstream accepts.
public struct AudioFormatRequest: Sendable, Hashable {
    /// Acceptable sample formats, preferred first.
    public var formats: [AudioSampleFormat]
    public var rate: Int?
    public var channels: Int?
    /// Nil: either (interleaved preferred).
    public var layout: AudioLayout?
    /// Sources: the rate and channel count to choose when downstream leaves them open (`rate` and
    /// `channels` require theirs).
    public var preferredRate: Int?
    public var preferredChannels: Int?
    /// Sources: the samples (per channel) in each buffer sent downstream, such as 480 for 10 ms at
    /// 48 kHz; pushes of any size are cut to it. Nil: each push is one buffer.
    public var samplesPerBuffer: Int?

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
    public init(_ info: AudioInfo, samplesPerBuffer: Int? = nil) {
        self.init(
            formats: [info.format], rate: info.rate, channels: info.channels, layout: info.layout,
            samplesPerBuffer: samplesPerBuffer)
    }

    /// The samples (per channel) of `milliseconds` at `rate`: 480 for 10 ms at 48 kHz, 441 at 44.1 kHz.
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
