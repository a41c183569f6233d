import Foundation
import GstPipeSupport

/// The one place that knows what a secret is, and hides it: everything gstpipe prints (errors, notes,
/// warnings, GStreamer's messages and debug details relayed, the progress line, `--graph` pictures)
/// passes through `redact` on its way out (`Console`), so that no password or token shows, whatever
/// code said it.
///
/// Two kinds of secret are hidden:
/// - secrets in the forms that carry them, wherever they stand: a URI's password
///   (`rtsp://alice:***@host`, `turn://alice:***@host`), the value of a `token=`, `password=` or
///   `passphrase=` option (`?token=***`, `#token=***`, and properties such as rtspsrc's
///   `user-pw="***"` in a pipeline graph), and a bearer token (`Bearer ***`);
/// - secrets registered at start-up (`registerStartup`): each one found in those forms in the
///   command line or a description file, and the values of the environment's `GSTPIPE_*_PASSWORD`,
///   `GSTPIPE_*_TOKEN`, `GSTPIPE_*_PASSPHRASE` and `GSTPIPE_*_KEY` (an RTMP stream key), which are then
///   hidden on their own too, as when an element's error quotes a password without its URI. Code that
///   reads a secret from elsewhere (a users file, an RTMP address's path) registers it with `register`.
package enum Secrets {
    /// What a secret is written as.
    package static let mask = "***"

    /// Registered secrets shorter than this are not hidden on their own (they would hide ordinary
    /// words: a password "ab" would blank every "ab"); in a URI or an option they still are.
    package static let shortestHiddenAlone = 3

    private static let registered = Locked<Set<String>>([])

    /// Hides `secret` wherever it shows from now on, as written and percent-decoded.
    package static func register(_ secret: String) {
        let forms = [secret, secret.removingPercentEncoding].compactMap { $0 }
            .filter { $0.count >= shortestHiddenAlone && $0 != mask }
        guard !forms.isEmpty else { return }
        registered.withLock { $0.formUnion(forms) }
    }

    /// Forgets every registered secret: for the fuzz targets, which register one or more with each of
    /// millions of inputs (redacting with them all would slow each input down, and memory would grow).
    package static func forgetAll() {
        registered.withLock { $0.removeAll() }
    }

    /// Registers the secrets in the command line's `arguments` and in `environment`'s
    /// `GSTPIPE_*_PASSWORD`, `GSTPIPE_*_TOKEN` and `GSTPIPE_*_PASSPHRASE`, before anything is printed.
    package static func registerStartup(arguments: [String], environment: [String: String]) {
        arguments.flatMap(found(in:)).forEach(register)
        for (name, value) in environment where isSecretVariable(name) { register(value) }
    }

    /// True for an environment variable of gstpipe's that holds a secret (`GSTPIPE_RTSP_PASSWORD`,
    /// `GSTPIPE_WHIP_TOKEN`, `GSTPIPE_RTMP_KEY`).
    package static func isSecretVariable(_ name: String) -> Bool {
        name.hasPrefix("GSTPIPE_")
            && ["_PASSWORD", "_TOKEN", "_PASSPHRASE", "_SECRET", "_KEY"].contains { name.hasSuffix($0) }
    }

    /// The secrets `text` holds in the forms `redact` knows: URI passwords, option values, bearer tokens;
    /// and the stream key that ends an RTMP address's path (`rtmp://HOST/APP/KEY`), which no form marks.
    package static func found(in text: String) -> [String] {
        var secrets: [String] = []
        for word in text.split(whereSeparator: { $0.isWhitespace || $0 == "\"" || $0 == "'" })
        where word.lowercased().hasPrefix("rtmp://") || word.lowercased().hasPrefix("rtmps://") {
            if let key = StreamAddress.secretPathEnd(of: String(word)) { secrets.append(key) }
        }
        let forms = Forms(in: text)
        if forms.userInfo {
            for match in text.matches(of: userInfo) where !match.2.isEmpty { secrets.append(String(match.2)) }
        }
        if forms.option {
            var rest = text
            for option in options {
                for match in rest.matches(of: option) { secrets.append(String(match.2)) }
                rest = rest.replacing(option) { "\($0.1)\(mask)" }
            }
        }
        if forms.bearer {
            for match in text.matches(of: bearer) { secrets.append(String(match.2)) }
        }
        return secrets
    }

    /// `text` with every secret written `***`: each registered secret first (the longest first, so
    /// that a secret holding another is hidden whole) wherever it stands as a word of its own, then the
    /// forms. Registered secrets go first because a form guesses where a value ends (at a space, a `;`
    /// or a quote): masked first, `passphrase=ab cd` showed ` cd` of a secret registered whole.
    package static func redact(_ text: String) -> String {
        var text = text
        let secrets = registered.withLock { $0 }.sorted { $0.count > $1.count }
        for secret in secrets where text.unicodeScalars.firstRange(of: secret.unicodeScalars) != nil {
            text = masking(secret, in: text)
        }
        let forms = Forms(in: text)
        if forms.userInfo { text = text.replacing(userInfo) { "\($0.1)\(mask)" } }
        if forms.option { for option in options { text = text.replacing(option) { "\($0.1)\(mask)" } } }
        if forms.bearer { text = text.replacing(bearer) { "\($0.1)\(mask)" } }
        guard forms.basic else { return text }
        return text.replacing(basic) { isBasicCredentials($0.2) ? "\($0.1)\(mask)" : String($0.0) }
    }

    /// `text` with each `secret` that is not part of a longer word written `***`. A short token ("tok")
    /// is also a piece of ordinary words ("token"): blanking it there printed `?***en=***`, hiding
    /// nothing (the secret is not in the word) and mangling the message. A letter or digit joins the
    /// secret to a word only where the secret's own edge is one: `pw9!` stands alone in `pw9!x`, not
    /// in `apw9!`.
    ///
    /// Only a short secret (under 8 characters) is left inside longer words: a longer one is hidden
    /// wherever it stands, since it may sit inside percent escapes (`%3Dsecret`), base64 or other
    /// text run together, and no ordinary word holds it by chance.
    ///
    /// The search is by Unicode scalars: a secret is found whatever follows it, even a combining mark that
    /// joins its last character with the next (as Characters, `pw\u{301}` holds no `pw`). Foundation's
    /// `range(of:)` is not used: on Linux it stops at a NUL and returned indices past the text's end for a
    /// secret holding one (a crash found by Fuzz/FuzzDescription, from a description file's bytes).
    private static func masking(_ secret: String, in text: String) -> String {
        func isWordCharacter(_ scalar: Unicode.Scalar?) -> Bool {
            guard let scalar else { return false }
            return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
        let isShort = secret.count < 8
        let joinsBefore = isShort && isWordCharacter(secret.unicodeScalars.first)
        let joinsAfter = isShort && isWordCharacter(secret.unicodeScalars.last)
        let scalars = text.unicodeScalars
        var shown = String.UnicodeScalarView()
        var rest = scalars.startIndex
        var searchFrom = scalars.startIndex
        while let found = scalars[searchFrom...].firstRange(of: secret.unicodeScalars) {
            let before = found.lowerBound > scalars.startIndex ? scalars[scalars.index(before: found.lowerBound)] : nil
            let after = found.upperBound < scalars.endIndex ? scalars[found.upperBound] : nil
            if (joinsBefore && isWordCharacter(before)) || (joinsAfter && isWordCharacter(after)) {
                searchFrom = scalars.index(after: found.lowerBound)
                continue
            }
            shown.append(contentsOf: scalars[rest..<found.lowerBound])
            shown.append(contentsOf: mask.unicodeScalars)
            rest = found.upperBound
            searchFrom = found.upperBound
        }
        shown.append(contentsOf: scalars[rest...])
        return String(shown)
    }

    // The patterns are built on each use: a Regex held in a static would have to be Sendable.

    /// Which forms `text` may hold, from the words each pattern cannot match without: building and
    /// running the patterns cost more than anything else in a plain run's start-up (every argument
    /// and every line printed goes through them), and most text holds none of those words.
    private struct Forms {
        var userInfo = true
        var option = true
        var bearer = true
        var basic = true

        // Looked for as UTF-8 bytes: a pattern matching a word means its bytes are in the text, whatever
        // follows them (a combining mark makes another Character, and Foundation's search stops at a NUL).
        init(in text: String) {
            func holds(_ word: String, in text: String) -> Bool { ByteSearch.contains(word, in: text) }
            userInfo = holds("://", in: text)
            bearer = holds("Bearer", in: text)
            option = holds("=", in: text)
            // The case-insensitive words are looked for in ASCII text alone: Unicode case folding
            // matches more than lowercasing finds (`ſ` for `s`, the Kelvin sign for `k`).
            guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return }
            let lowered = text.lowercased()
            if option {
                option = ["token=", "password=", "passwd=", "passphrase=", "user-pw=", "proxy-pw="].contains {
                    holds($0, in: lowered)
                }
            }
            basic = holds("basic", in: lowered)
        }
    }

    /// `scheme://user:PASSWORD@`: the password ends at the last `@` before the host (a password may
    /// hold an `@` the user did not encode), and never crosses a space, a path, a query or a quote. A
    /// structure's text escapes the `@` (`alice:PASS\@host`).
    /// A password holding a `/`, `?` or `#` the user did not encode (`alice:pa/ss@host`) makes a URI
    /// that cannot be read, whose error quotes it: it is hidden too, up to the token's last `@`, unless
    /// digits stand before its first `?` or `#`. Digits before a `/` do not save it: `alice:123/x@host`
    /// is a password to its user and a port and a path to a URI parser, and showing a password costs
    /// more than hiding a path's piece (`host:8554/a@b` shows as `host:***@b`). A slash just before
    /// the `@` ends no password (`host:8080/@user`).
    /// The placeholders of help text (`USER:PASS@`) stay.
    private static var userInfo: Regex<(Substring, Substring, Substring)> {
        // (Not an IPv6 literal's colons: `rtsp://[::1]:8554/live?x=a@b` has no user.)
        let user = #"(?i)([a-z][a-z0-9+.\-]*://(?!\[)[^\s/?#@:"'\\]*:)(?!(?-i:PASS|PASSWORD|SECRET)@)"#
        let password = #"([^\s/?#"'\\]*|(?!\d*[?#])[^\s"'\\]*[^\s"'\\/])(?=\\?@)"#
        return try! Regex(user + password, as: (Substring, Substring, Substring).self)
    }

    /// `token=VALUE` (in a query, a fragment, a launch description or a graph's `user-pw=\"VALUE\"`).
    /// Quoted, the value runs to its closing quote, whatever it holds (`;`, `,`, spaces, quotes escaped
    /// in it, GLib's octal escapes of non-ASCII bytes: a graph writes `user-pw=\"a;b\\\"c\\303\\251\"`).
    /// Unquoted, it runs to the next option, quote or space, `;` and `,` included (a password may hold
    /// them, and hiding a separator costs less than showing the rest); a colon, comma or semicolon that
    /// ends it is the sentence's (`?token=***: ...`). GStreamer's `NULL` (no value) and the placeholders
    /// of help text (`token=TOKEN`) stay. One pattern per quoting, tried in this order.
    private static var options: [Regex<(Substring, Substring, Substring)>] {
        let name = #"(?i)((?:token|password|passwd|passphrase|user-pw|proxy-pw)="#
        let notPlaceholder = #"(?!(?-i:NULL|TOKEN|SECRET|PASS(?:WORD|PHRASE)?)\b)(?!\*\*\*)"#
        // A graph's label: the value is GLib-escaped (`\\"` a quote, `\\\\` a backslash, `\\303` a byte),
        // then Graphviz-escaped again (each `\\` doubled, each `"` escaped), between `\"` and `\"`.
        let graph = #"\\")"# + notPlaceholder + #"((?:\\{4}|\\{3}"|\\{2}[^\\"]|[^\\"])++)(?=\\")"#
        let doubleQuoted = #"")"# + notPlaceholder + #"((?:\\.|[^"\\])++)(?=")"#
        let singleQuoted = #"')"# + notPlaceholder + #"([^']++)(?=')"#
        let bare = #")"# + notPlaceholder + #"((?:\\[^\s"]|[^\s&#"'\\])*(?:\\[^\s"]|[^\s&#"'\\,;:]))"#
        return [graph, doubleQuoted, singleQuoted, bare].map {
            try! Regex(name + $0, as: (Substring, Substring, Substring).self)
        }
    }

    /// `Basic CREDENTIALS` (RFC 7617): base64 of `user:password`, which gst-rtsp-server's message dump
    /// (`GST_DEBUG=rtspclient:6`) prints as it came. Only base64 that decodes to text with a colon is
    /// hidden, so that "Basic authentication" stays. The scheme in any case (RFC 7617: `basic` is
    /// accepted too), the credentials in any encoding (a password need not be UTF-8).
    private static var basic: Regex<(Substring, Substring, Substring)> {
        #/((?i:Basic)\s+)([A-Za-z0-9+\/]+=*)/#
    }

    private static func isBasicCredentials(_ text: Substring) -> Bool {
        guard text.count % 4 == 0, let data = Data(base64Encoded: String(text)) else { return false }
        return data.contains(UInt8(ascii: ":"))
    }

    /// `Bearer TOKEN` (RFC 6750's characters), not the words "Bearer token" nor a challenge's
    /// `Bearer realm=`. The mask's `*` counts as a token character: a registered secret that is one
    /// piece of a token (`abc` of `abc.DEF`) is masked first, and the token must then be hidden whole,
    /// not left showing `***.DEF`.
    private static var bearer: Regex<(Substring, Substring, Substring)> {
        #/((?-i:Bearer)\s+)(?!(?i:token\b|realm=|error=|scope=))([A-Za-z0-9\-._~+\/*]+=*)/#
    }
}

extension CommandFailure {
    /// The same failure with its secrets written `***`, for a failure whose words are read before
    /// they are printed (tests, and callers that keep them).
    package var redacted: CommandFailure {
        switch self {
        case .usage(let message): .usage(Secrets.redact(message))
        case .runtime(let message): .runtime(Secrets.redact(message))
        }
    }
}
