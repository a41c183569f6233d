import CGStreamer

/// The secrets a URI carries — the password of its user info and the values of its `token=`,
/// `password=`-like query and fragment parameters — and the means to hide them as `***` in what the
/// player says. The library cannot use the CLI's redaction (it must not depend on the CLI), and a
/// player's URI is the one place its messages get a secret from, so this knows only URIs.
struct URISecrets: Sendable {
    /// What a secret is written as.
    static let mask = "***"

    /// Parameter names (lowercased) whose value is a secret when the name contains one of them.
    private static let secretNames = ["token", "password", "passwd", "passphrase", "secret", "signature"]

    /// Parameter names (lowercased) whose value is a secret when the name is exactly one of them.
    private static let secretExactNames = ["pw", "key", "sig", "auth"]

    /// Secrets shorter than this are hidden only where they stand in the URI: alone, a password "ab"
    /// would blank every "ab" of a message.
    private static let shortestHiddenAlone = 4

    /// The URI with its secrets written `***`, such as `rtsp://alice:***@host/x?token=***`.
    let redactedURI: String

    private let uri: String
    private let secrets: [String]

    /// The secrets of `uri`.
    init(uri: String) {
        self.uri = uri
        var redacted = ""
        var secrets: [String] = []
        var rest = Substring(uri)
        // The authority's user info: "scheme://user:password@host", the password up to the last "@".
        if let schemeEnd = rest.firstRange(of: "://") {
            redacted += rest[..<schemeEnd.upperBound]
            rest = rest[schemeEnd.upperBound...]
            let authority = rest.prefix { !"/?#".contains($0) }
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                let password = authority[authority.index(after: colon)..<at]
                redacted += authority[...colon]
                if !password.isEmpty { secrets.append(String(password)) }
                redacted += password.isEmpty ? "" : Self.mask
                rest = rest[at...]
            }
        }
        // The query and the fragment: "name=value" pieces between "?", "#", "&" and ";".
        var piece = ""
        for character in rest + "&" {
            guard "?#&;".contains(character) else {
                piece.append(character)
                continue
            }
            if let equals = piece.firstIndex(of: "="), Self.isSecret(piece[..<equals]),
                piece.index(after: equals) < piece.endIndex
            {
                secrets.append(String(piece[piece.index(after: equals)...]))
                piece = piece[...equals] + Self.mask
            }
            redacted += piece
            redacted.append(character)
            piece = ""
        }
        self.redactedURI = String(redacted.dropLast())
        self.secrets = secrets
    }

    /// `text` with the URI written as ``redactedURI`` and each secret of some length hidden wherever
    /// it stands, as written and percent-decoded (GStreamer's messages quote a file URI's location
    /// decoded, query included).
    func redact(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        var text = text.replacing(uri, with: redactedURI)
        let forms = secrets.flatMap { [$0, Self.unescaped($0)] }.filter { $0.count >= Self.shortestHiddenAlone }
        for secret in Set(forms).sorted(by: { $0.count > $1.count }) {
            text = text.replacing(secret, with: Self.mask)
        }
        return text
    }

    private static func isSecret(_ name: Substring) -> Bool {
        let name = name.lowercased()
        return secretExactNames.contains(name) || secretNames.contains { name.contains($0) }
    }

    /// `text` percent-decoded, or as it is when it does not decode.
    private static func unescaped(_ text: String) -> String {
        guard let decoded = g_uri_unescape_string(text, nil) else { return text }
        defer { g_free(decoded) }
        return String(cString: decoded)
    }
}
