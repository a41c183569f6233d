import Foundation

/// What gstpipe reads of a viewer's SDP offer before webrtcbin sees it: that it is an offer a
/// viewer can watch with, and which payload types the viewer gave the codecs being sent. An offer
/// that cannot work is refused with a reason the viewer's developer can act on (WHEP's 400), rather
/// than passed to webrtcbin, whose refusals say little, or none at all (an offer without a video
/// section gets an answer without video).
///
/// Sound is optional where there is video: an offer that receives no audio (no audio section, or
/// one that does not receive Opus) gets the video alone. A description of sound alone needs an
/// audio section that receives Opus.
package struct ViewerOffer: Sendable {
    /// Why an offer was refused, in a sentence.
    package struct Refusal: Error, Sendable {
        package let reason: String
    }

    /// The offer as it came.
    package let sdp: String
    /// The payload type the offer gives the video codec being sent, nil when no video is sent.
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
        if let codec = media.video {
            guard let video else {
                throw Refusal(
                    reason: "the offer has no video section (m=video): add a video transceiver that receives, "
                        + "pc.addTransceiver('video', {direction: 'recvonly'})")
            }
            try Self.checkReceives(video, "video")
            guard let payloadType = Self.payloadType(of: codec, in: video) else {
                let offered = Self.encodingNames(in: video)
                throw Refusal(
                    reason: "the offer's video has no \(Self.wanted(codec)) (it offers \(offered))"
                        + (codec == .h264 ? ": this server sends H.264, which this browser does not take" : ""))
            }
            videoPayloadType = payloadType
            used = video
        } else {
            videoPayloadType = nil
        }
        if media.audio && media.video == nil {
            // Sound alone: the audio is what the viewer came for.
            guard let audio else {
                throw Refusal(
                    reason: "the offer has no audio section (m=audio): this stream is sound alone, add an audio "
                        + "transceiver that receives, pc.addTransceiver('audio', {direction: 'recvonly'})")
            }
            try Self.checkReceives(audio, "audio")
            guard let payloadType = Self.opusPayloadType(in: audio) else {
                throw Refusal(reason: "the offer's audio has no Opus (it offers \(Self.encodingNames(in: audio)))")
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
        func parameters(_ payloadType: Int) -> [String: String] {
            let prefix = "a=fmtp:\(payloadType) "
            guard let line = video.first(where: { $0.hasPrefix(prefix) }) else { return [:] }
            var result: [String: String] = [:]
            for item in line.dropFirst(prefix.count).split(separator: ";") {
                let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2 { result[pair[0].lowercased()] = pair[1].lowercased() }
            }
            return result
        }
        let playable = candidates.filter { payloadType in
            let fmtp = parameters(payloadType)
            return fmtp["packetization-mode"] == "1" && fmtp["profile-level-id"]?.hasPrefix("42") == true
        }
        let constrained = playable.first { payloadType in
            guard let id = parameters(payloadType)["profile-level-id"], id.count == 6,
                let flags = Int(id.dropFirst(2).prefix(2), radix: 16)
            else { return false }
            return flags & 0x40 != 0
        }
        return constrained ?? playable.first
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
