import GstPipeParsing

/// The Opus elements of what is sent: the caps its encoder is fed, and each viewer's payloader.
extension WebRTCMedia {
    /// The caps the Opus appsink takes: 48 kHz, the rate Opus is carried at over RTP (RFC 7587), so
    /// that the encoder resamples any other rate once for every viewer (through the audioresample
    /// before it) rather than leaving the browser to.
    package static let opusCaps = "audio/x-opus,rate=48000"

    /// A viewer's payloader and the caps after it, as launch text, sending with the payload type
    /// its browser gave Opus, from `ssrc`.
    package static func opusPayloader(payloadType: Int, ssrc: UInt32) -> String {
        "rtpopuspay pt=\(payloadType) mtu=1200 ssrc=\(ssrc) ! application/x-rtp,media=audio,clock-rate=48000,"
            + "encoding-name=\(opusEncodingName),payload=\(payloadType),ssrc=(uint)\(ssrc)"
    }
}
