/// A WHIP or WHEP `PATCH` body (`application/trickle-ice-sdpfrag`, RFC 8840 and RFC 9725 section 4.3):
/// the peer's ICE credentials, and per media section (by `a=mid`) the candidates it gathered since
/// its offer. Credentials other than the session's ask for an ICE restart; the same ones bring more
/// candidates (trickle). Read before webrtcbin sees any of it, refused with a reason (`400`).
package struct TrickleFragment: Sendable, Equatable {
    /// Why a fragment was refused, in a sentence.
    package struct Refusal: Error, Sendable {
        package let reason: String
    }

    /// The candidates of one media section.
    package struct Section: Sendable, Equatable {
        /// The section's `a=mid`, nil when the fragment names none.
        package var mid: String?
        /// `candidate:…` lines, without `a=`.
        package var candidates: [String]
        /// True when the peer has no more (`a=end-of-candidates`).
        package var ended: Bool

        /// A section from its parts.
        package init(mid: String?, candidates: [String], ended: Bool) {
            (self.mid, self.candidates, self.ended) = (mid, candidates, ended)
        }
    }

    package let ufrag: String
    package let password: String
    package let sections: [Section]

    /// The longest fragment taken: a browser's few candidates are well under 2 KB.
    package static let maximumLength = 16 * 1024

    /// The fragment from its parts, as a server writes its own after a restart.
    package init(ufrag: String, password: String, sections: [Section]) {
        (self.ufrag, self.password, self.sections) = (ufrag, password, sections)
    }

    /// Reads `text`; throws a refusal saying what is wrong.
    package init(_ text: String) throws(Refusal) {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        var ufrag: String?
        var password: String?
        var sections: [Section] = []
        for line in lines {
            if line.hasPrefix("a=ice-ufrag:") {
                ufrag = String(line.dropFirst("a=ice-ufrag:".count))
            } else if line.hasPrefix("a=ice-pwd:") {
                password = String(line.dropFirst("a=ice-pwd:".count))
            } else if line.hasPrefix("m=") {
                sections.append(Section(mid: nil, candidates: [], ended: false))
            } else if line.hasPrefix("a=mid:") {
                if sections.isEmpty { sections.append(Section(mid: nil, candidates: [], ended: false)) }
                sections[sections.count - 1].mid = String(line.dropFirst("a=mid:".count))
            } else if line.hasPrefix("a=candidate:") {
                guard line.split(separator: " ").count >= 8 else {
                    throw Refusal(
                        reason: "\(line.prefix(80)) is not an ICE candidate (RFC 8839: eight fields at least)")
                }
                if sections.isEmpty { sections.append(Section(mid: nil, candidates: [], ended: false)) }
                sections[sections.count - 1].candidates.append(String(line.dropFirst(2)))
            } else if line == "a=end-of-candidates" {
                if sections.isEmpty { sections.append(Section(mid: nil, candidates: [], ended: false)) }
                sections[sections.count - 1].ended = true
            } else if !line.hasPrefix("a=") {
                throw Refusal(
                    reason: "\(line.prefix(80)) is not a line of an SDP fragment (a=ice-ufrag, a=ice-pwd, m=, "
                        + "a=mid, a=candidate, a=end-of-candidates)")
            }
        }
        guard let ufrag, let password, !ufrag.isEmpty, !password.isEmpty else {
            throw Refusal(reason: "the fragment has no ICE credentials (a=ice-ufrag and a=ice-pwd, RFC 9725 4.3.1)")
        }
        (self.ufrag, self.password, self.sections) = (ufrag, password, sections)
    }

    /// The fragment as text, lines ending in CRLF: what a server answers to an ICE restart.
    package var text: String {
        var lines = ["a=ice-ufrag:\(ufrag)", "a=ice-pwd:\(password)"]
        for section in sections {
            lines.append("m=audio 9 RTP/AVP 0")
            if let mid = section.mid { lines.append("a=mid:\(mid)") }
            lines += section.candidates.map { "a=\($0)" }
            if section.ended { lines.append("a=end-of-candidates") }
        }
        return lines.map { $0 + "\r\n" }.joined()
    }
}
