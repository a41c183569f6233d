import Foundation

/// What gstpipe reads of a viewer's SDP offer before webrtcbin sees it: that it is an offer a
/// viewer can watch with, which of the codecs being sent the viewer gets, and which payload types it
/// gave them. An offer that cannot work is refused with a reason the viewer's developer can act on
/// (WHEP's 400, or 406 when it takes none of the codecs sent), rather than passed to webrtcbin, whose
/// refusals say little, or none at all (an offer without a video section gets an answer without video).
///
/// The video's codec is the offer's: the first in its media line's order (the browser's preference,
/// which `RTCRtpTransceiver.setCodecPreferences` sets) among those sent. Safari on older iOS, and a
/// page that prefers hardware decoding, offer H.264 first; Chromium and Firefox offer VP8 first.
///
/// Sound is optional where there is video: an offer that receives no audio (no audio section, or
/// one that does not receive Opus) gets the video alone. A description of sound alone needs an
/// audio section that receives Opus.
package struct ViewerOffer: Sendable {
    /// Why an offer was refused, in a sentence.
    package struct Refusal: Error, Sendable {
        package let reason: String
        /// True when the offer takes none of the codecs sent (HTTP's 406 Not Acceptable), false when
        /// it cannot work for another reason (400).
        package var isUnacceptable = false
    }

    /// The offer as it came.
    package let sdp: String
    /// The video codec the viewer gets: the offer's first among those sent; nil when no video is sent.
    package let videoCodec: WebRTCCodec?
    /// The payload type the offer gives `videoCodec`, nil when no video is sent.
    package let videoPayloadType: Int?
    /// The payload type the offer gives Opus in an audio section that receives, nil when the viewer
    /// gets no sound (none is sent, or the offer takes none).
    package let audioPayloadType: Int?

    /// The longest offer taken: a browser's is 3 to 8 KB; anything near this is not one.
    package static let maximumLength = 64 * 1024

    /// Reads `text` as an offer to receive what `media` says is sent; throws a refusal saying what is
    /// wrong.
    package init(_ text: String, sending media: WebRTCMedia) throws(Refusal) {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.first == "v=0" else {
            throw Refusal(reason: "the offer is not a session description (SDP begins with v=0)")
        }
        // Session-level lines, then one section a media line (m=) begins.
        var sections: [[String]] = [[]]
        for line in lines {
            if line.hasPrefix("m=") { sections.append([]) }
            sections[sections.count - 1].append(line)
        }
        let session = sections[0]
        let video = sections.dropFirst().first { $0[0].hasPrefix("m=video ") }
        let audio = sections.dropFirst().first { $0[0].hasPrefix("m=audio ") }
        var used: [String] = []
        if !media.video.isEmpty {
            guard let video else {
                throw Refusal(
                    reason: "the offer has no video section (m=video): add a video transceiver that receives, "
                        + "pc.addTransceiver('video', {direction: 'recvonly'})")
            }
            try Self.checkReceives(video, "video")
            (videoCodec, videoPayloadType) = try Self.choose(among: media.video, in: video)
            used = video
        } else {
            (videoCodec, videoPayloadType) = (nil, nil)
        }
        if media.audio && media.video.isEmpty {
            // Sound alone: the audio is what the viewer came for.
            guard let audio else {
                throw Refusal(
                    reason: "the offer has no audio section (m=audio): this stream is sound alone, add an audio "
                        + "transceiver that receives, pc.addTransceiver('audio', {direction: 'recvonly'})")
            }
            try Self.checkReceives(audio, "audio")
            guard let payloadType = Self.opusPayloadType(in: audio) else {
                throw Refusal(
                    reason: "the offer's audio has no Opus (it offers \(Self.encodingNames(in: audio)))",
                    isUnacceptable: true)
            }
            audioPayloadType = payloadType
            used = audio
        } else if media.audio, let audio, (try? Self.checkReceives(audio, "audio")) != nil {
            audioPayloadType = Self.opusPayloadType(in: audio)
        } else {
            audioPayloadType = nil
        }
        func attribute(_ name: String) -> String? {
            (used + session).first { $0.hasPrefix("a=\(name):") }.map { String($0.dropFirst(name.count + 3)) }
        }
        guard attribute("ice-ufrag") != nil, attribute("ice-pwd") != nil else {
            throw Refusal(reason: "the offer has no ICE credentials (a=ice-ufrag and a=ice-pwd)")
        }
        guard attribute("fingerprint") != nil else {
            throw Refusal(reason: "the offer has no DTLS fingerprint (a=fingerprint): WebRTC media is encrypted")
        }
        sdp = text
    }

    /// Throws unless `section` (of `kind`, video or audio) receives: not rejected (port 0 outside a
    /// bundle), not sendonly or inactive.
    private static func checkReceives(_ section: [String], _ kind: String) throws(Refusal) {
        if section[0].hasPrefix("m=\(kind) 0 ") && !section.contains("a=bundle-only") {
            throw Refusal(reason: "the offer's \(kind) section is rejected (port 0)")
        }
        if section.contains("a=sendonly") || section.contains("a=inactive") {
            throw Refusal(reason: "the offer's \(kind) does not receive (a=sendonly or a=inactive): make it recvonly")
        }
    }

    /// The codec of `codecs` the video section offers first, and its payload type; throws a refusal
    /// naming what it offers and what is sent when it offers none of them.
    private static func choose(
        among codecs: [WebRTCCodec], in video: [String]
    ) throws(Refusal) -> (WebRTCCodec, Int) {
        let order = video[0].split(separator: " ").dropFirst(3).compactMap { Int($0) }
        let offered = codecs.compactMap { codec in payloadType(of: codec, in: video).map { (codec, $0) } }
        // Where the codec first appears in the offer's order: for H.264, its first payload type that
        // plays the stream sent, whichever of them (constrained baseline first) is then used.
        func rank(_ codec: WebRTCCodec) -> Int {
            let usable = payloadTypes(in: video) { $0 == "\(codec.encodingName)/90000" }.filter { payloadType in
                codec != .h264 || isPlayableH264(payloadType, in: video)
            }
            return usable.compactMap { order.firstIndex(of: $0) }.min() ?? .max
        }
        if let first = offered.min(by: { rank($0.0) < rank($1.0) }) { return first }
        let names = encodingNames(in: video)
        guard codecs.count > 1 else {
            let codec = codecs[0]
            throw Refusal(
                reason: "the offer's video has no \(wanted(codec)) (it offers \(names))"
                    + (codec == .h264 ? ": this server sends H.264, which this browser does not take" : ""),
                isUnacceptable: true)
        }
        throw Refusal(
            reason: "the offer's video has no codec this server sends (it offers \(names); this server sends "
                + codecs.map(wanted).joined(separator: " or ") + ")",
            isUnacceptable: true)
    }

    /// "H264, VP9, rtx": the encodings a section offers, for a refusal; "none" when it has none.
    private static func encodingNames(in section: [String]) -> String {
        let names = Set(section.compactMap(Self.encodingName)).sorted().joined(separator: ", ")
        return names.isEmpty ? "none" : names
    }

    private static func wanted(_ codec: WebRTCCodec) -> String {
        switch codec {
        case .vp8: "VP8"
        case .h264: "constrained-baseline H.264 in packetization mode 1"
        }
    }

    /// "VP8" from `a=rtpmap:96 VP8/90000`.
    private static func encodingName(_ line: String) -> String? {
        guard line.hasPrefix("a=rtpmap:"), let space = line.firstIndex(of: " ") else { return nil }
        return line[line.index(after: space)...].split(separator: "/").first.map(String.init)
    }

    /// The first payload type the video section maps to `codec` at 90 kHz, in the offer's order of
    /// preference. For H.264, one the constrained-baseline stream plays in: packetization mode 1
    /// (the payloader fragments frames), and a baseline profile whose decoders take it (profile_idc
    /// 0x42); constrained baseline itself (the 0x40 constraint flag) before plain baseline.
    private static func payloadType(of codec: WebRTCCodec, in video: [String]) -> Int? {
        let candidates = payloadTypes(in: video) { $0 == "\(codec.encodingName)/90000" }
        guard codec == .h264 else { return candidates.first }
        let playable = candidates.filter { isPlayableH264($0, in: video) }
        let constrained = playable.first { payloadType in
            guard let id = parameters(of: payloadType, in: video)["profile-level-id"], id.count == 6,
                let flags = Int(id.dropFirst(2).prefix(2), radix: 16)
            else { return false }
            return flags & 0x40 != 0
        }
        return constrained ?? playable.first
    }

    /// True when H.264 payload type `payloadType` of the video section plays the constrained-baseline
    /// stream sent: packetization mode 1, and a baseline profile (profile_idc 0x42).
    private static func isPlayableH264(_ payloadType: Int, in video: [String]) -> Bool {
        let fmtp = parameters(of: payloadType, in: video)
        return fmtp["packetization-mode"] == "1" && fmtp["profile-level-id"]?.hasPrefix("42") == true
    }

    /// The `a=fmtp` parameters of `payloadType` in `section`, names and values in lower case.
    private static func parameters(of payloadType: Int, in section: [String]) -> [String: String] {
        let prefix = "a=fmtp:\(payloadType) "
        guard let line = section.first(where: { $0.hasPrefix(prefix) }) else { return [:] }
        var result: [String: String] = [:]
        for item in line.dropFirst(prefix.count).split(separator: ";") {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2 { result[pair[0].lowercased()] = pair[1].lowercased() }
        }
        return result
    }

    /// The first payload type the audio section maps to Opus (`opus/48000/2`, as RFC 7587 writes it
    /// whatever the channels sent), in the offer's order of preference.
    private static func opusPayloadType(in audio: [String]) -> Int? {
        payloadTypes(in: audio) { $0.hasPrefix("\(WebRTCMedia.opusEncodingName)/48000") }.first
    }

    /// The payload types of `section` whose `a=rtpmap` encoding (upper case, "VP8/90000") `matches`,
    /// in the order of its media line (the offer's preference).
    private static func payloadTypes(in section: [String], matching matches: (String) -> Bool) -> [Int] {
        let order = section[0].split(separator: " ").dropFirst(3).compactMap { Int($0) }
        let mapped = section.compactMap { line -> Int? in
            guard line.hasPrefix("a=rtpmap:"), let rest = line.split(separator: ":", maxSplits: 1).last,
                let number = rest.split(separator: " ").first.flatMap({ Int($0) }),
                let name = rest.split(separator: " ").dropFirst().first, matches(name.uppercased())
            else { return nil }
            return number
        }
        return order.filter(mapped.contains)
    }
}
