/// What gstpipe reads of a publisher's SDP offer (WHIP) before webrtcbin sees it: that it is a
/// session description that sends something, with ICE credentials and a DTLS fingerprint, and
/// which media it sends. An offer that cannot work is refused with a reason (WHIP's 400) rather
/// than given to webrtcbin, whose refusals say little.
package struct PublisherOffer: Sendable {
    /// Why an offer was refused, in a sentence.
    package struct Refusal: Error, Sendable {
        package let reason: String
    }

    /// The offer as it came.
    package let sdp: String
    /// The media the offer sends, in its order: "video", "audio".
    package let sent: [String]

    /// The longest offer taken: a browser's with audio and video is 5 to 10 KB.
    package static let maximumLength = 64 * 1024

    /// Reads `text` as a publisher's offer; throws a refusal saying what is wrong.
    package init(_ text: String) throws(Refusal) {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.first == "v=0" else {
            throw Refusal(reason: "the offer is not a session description (SDP begins with v=0)")
        }
        // The session's lines, then a list of lines for each media section (m=).
        let sessionEnd = lines.firstIndex { $0.hasPrefix("m=") } ?? lines.endIndex
        let session = lines[..<sessionEnd]
        var media: [ArraySlice<String>] = []
        var start = sessionEnd
        while start < lines.endIndex {
            let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("m=") } ?? lines.endIndex
            media.append(lines[start..<end])
            start = end
        }
        let sending = media.filter { section in
            let receivesOnly = section.contains("a=recvonly") || section.contains("a=inactive")
            let rejected =
                section[section.startIndex].split(separator: " ").dropFirst().first == "0"
                && !section.contains("a=bundle-only")
            return !receivesOnly && !rejected
        }
        let kinds = sending.compactMap { section -> String? in
            let kind = section[section.startIndex].dropFirst(2).split(separator: " ").first.map(String.init)
            return kind == "video" || kind == "audio" ? kind : nil
        }
        guard !kinds.isEmpty else {
            throw Refusal(
                reason: "the offer sends neither video nor audio (an m=video or m=audio section that is sendonly): "
                    + "add the camera's tracks, pc.addTransceiver(track, {direction: 'sendonly'})")
        }
        func has(_ name: String) -> Bool {
            session.contains { $0.hasPrefix("a=\(name):") }
                || sending.allSatisfy { section in section.contains { $0.hasPrefix("a=\(name):") } }
        }
        guard has("ice-ufrag"), has("ice-pwd") else {
            throw Refusal(reason: "the offer has no ICE credentials (a=ice-ufrag and a=ice-pwd)")
        }
        guard has("fingerprint") else {
            throw Refusal(reason: "the offer has no DTLS fingerprint (a=fingerprint): WebRTC media is encrypted")
        }
        sdp = text
        sent = kinds
    }

    /// True when the offer sends `kind` ("video" or "audio").
    package func sends(_ kind: String) -> Bool { sent.contains(kind) }
}
