import Foundation

/// What gstpipe reads of a viewer's SDP offer before webrtcbin sees it: that it is an offer a
/// viewer can watch with, and which payload type the viewer gave the codec being sent. An offer
/// that cannot work is refused with a reason the viewer's developer can act on (WHEP's 400), rather
/// than passed to webrtcbin, whose refusals say little, or none at all (an offer without a video
/// section gets an answer without video).
struct ViewerOffer: Sendable {
    /// Why an offer was refused, in a sentence.
    struct Refusal: Error, Sendable {
        let reason: String
    }

    /// The offer as it came.
    let sdp: String
    /// The payload type the offer gives the codec in its video section.
    let payloadType: Int

    /// The longest offer taken: a browser's is 3 to 8 KB; anything near this is not one.
    static let maximumLength = 64 * 1024

    /// Reads `text` as an offer to receive `codec`; throws a refusal saying what is wrong.
    init(_ text: String, codec: WebRTCCodec) throws(Refusal) {
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
        guard let video = sections.dropFirst().first(where: { $0[0].hasPrefix("m=video ") }) else {
            throw Refusal(
                reason: "the offer has no video section (m=video): add a video transceiver that receives, "
                    + "pc.addTransceiver('video', {direction: 'recvonly'})")
        }
        if video[0].hasPrefix("m=video 0 ") && !video.contains("a=bundle-only") {
            throw Refusal(reason: "the offer's video section is rejected (port 0)")
        }
        if video.contains("a=sendonly") || video.contains("a=inactive") {
            throw Refusal(reason: "the offer's video does not receive (a=sendonly or a=inactive): make it recvonly")
        }
        func attribute(_ name: String) -> String? {
            (video + session).first { $0.hasPrefix("a=\(name):") }.map { String($0.dropFirst(name.count + 3)) }
        }
        guard attribute("ice-ufrag") != nil, attribute("ice-pwd") != nil else {
            throw Refusal(reason: "the offer has no ICE credentials (a=ice-ufrag and a=ice-pwd)")
        }
        guard attribute("fingerprint") != nil else {
            throw Refusal(reason: "the offer has no DTLS fingerprint (a=fingerprint): WebRTC media is encrypted")
        }
        guard let payloadType = Self.payloadType(of: codec, in: video) else {
            let names = Set(video.compactMap(Self.encodingName)).sorted().joined(separator: ", ")
            let offered = names.isEmpty ? "none" : names
            throw Refusal(
                reason: "the offer's video has no \(Self.wanted(codec)) (it offers \(offered))"
                    + (codec == .h264 ? ": this server sends H.264, which this browser does not take" : ""))
        }
        sdp = text
        self.payloadType = payloadType
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
        let order = video[0].split(separator: " ").dropFirst(3).compactMap { Int($0) }
        let mapped = video.compactMap { line -> Int? in
            guard line.hasPrefix("a=rtpmap:"), let rest = line.split(separator: ":", maxSplits: 1).last,
                let number = rest.split(separator: " ").first.flatMap({ Int($0) }),
                let name = rest.split(separator: " ").dropFirst().first,
                name.uppercased() == "\(codec.encodingName)/90000"
            else { return nil }
            return number
        }
        let candidates = order.filter(mapped.contains)
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
}
