import Foundation

/// A stream output's entry in the table (`StreamOutput.scheme`): how a description's last token names
/// it, and what that token must hold. `StreamAddress.parse` reads a token by it, so that every scheme
/// refuses a bad address with the same words.
package struct OutputScheme: Sendable {
    /// How a token names the output.
    package enum Naming: Sendable {
        /// `scheme://HOST:PORT/PATH?name=value&...`, by any of these schemes (lowercased, without `://`).
        case uri([String])
        /// A file name with this extension (lowercased, without the dot): the output is written as
        /// files, so it is checked and reported as a file is (its folder exists, it is not the input).
        case fileExtension(String)
    }

    /// Refuses what is wrong in a URI's query options, with a usage error that names it; the token,
    /// as written, is for the message.
    package typealias OptionCheck =
        @Sendable (_ options: [(name: String, value: String)], _ token: String) throws(CommandFailure) -> Void

    /// What the query (`?latency=200`) of a URI may hold.
    package enum QueryOptions: Sendable {
        /// Any `name=value`, for the output to pass on (udpsink's properties: GStreamer refuses a
        /// name it does not have).
        case passedOn
        /// None: the reason says why, after the token (`rtsp:// outputs take no options (...)`).
        case refused(String)
        /// Checked by the function, which throws a usage error naming what is wrong (SRT's: a name
        /// GStreamer would ignore, a passphrase libsrt refuses).
        case checked(OptionCheck)
    }

    package let naming: Naming
    /// How `gstpipe --help` writes it, with what it does in brackets: `udp://HOST:PORT (MPEG-TS)`.
    package let help: String
    /// An address written right, for the messages that refuse one: `rtsp://0.0.0.0:8554/live`.
    package var example = ""
    /// True for an output that others connect to (RTSP): it listens, so port 0 asks the system for a
    /// free port, and it says where it serves once it listens (`StreamOutput.start`).
    package var isServer = false
    /// The port of an address that gives none (RTSP's 8554, as ffmpeg's and VLC's); nil: one is needed.
    package var defaultPort: Int? = nil
    /// False when an address may leave the host out (an SRT listener, `srt://:9000`).
    package var needsHost = true
    /// True when an address must name a path (an RTSP mount, `/live`); false: it may not have one.
    package var needsPath = false
    /// What the query may hold.
    package var options: QueryOptions = .passedOn
    /// True when an address may carry a user and password (`rtsp://alice:secret@HOST/PATH`).
    package var takesCredentials = false
    /// True when the last piece of a path of two pieces or more is a secret (an RTMP stream key,
    /// `rtmp://HOST/APP/KEY`): it is registered (`Secrets`) before any message quotes the address.
    package var pathEndsInSecret = false
    /// What a missing path is called in the message that asks for one ("path", "application and stream key").
    package var pathName = "path"

    /// An entry named by `naming`, shown in `--help` as `help`; the rest as the properties say.
    package init(
        naming: Naming, help: String, example: String = "", isServer: Bool = false, defaultPort: Int? = nil,
        needsHost: Bool = true, needsPath: Bool = false, options: QueryOptions = .passedOn,
        takesCredentials: Bool = false, pathEndsInSecret: Bool = false, pathName: String = "path"
    ) {
        (self.naming, self.help, self.example, self.isServer) = (naming, help, example, isServer)
        (self.defaultPort, self.needsHost, self.needsPath) = (defaultPort, needsHost, needsPath)
        (self.options, self.takesCredentials) = (options, takesCredentials)
        (self.pathEndsInSecret, self.pathName) = (pathEndsInSecret, pathName)
    }

    /// The output is written as files, named like one (HLS).
    package var isFile: Bool {
        if case .fileExtension = naming { return true }
        return false
    }

    /// True when `token` names this scheme (what `StreamAddress.parse` then reads).
    package func names(_ token: String) -> Bool {
        switch naming {
        case .uri(let schemes):
            guard TokenReader.isURI(token), let scheme = token.split(separator: ":").first?.lowercased() else {
                return false
            }
            return schemes.contains(scheme)
        case .fileExtension(let fileExtension):
            // Most tokens are element names: Foundation's URL (which parses, and asks the file system whether
            // the path is a folder) only for a token that holds the extension at all.
            return !TokenReader.isURI(token) && ByteSearch.contains(".\(fileExtension)", in: token.lowercased())
                && URL(fileURLWithPath: token).pathExtension.lowercased() == fileExtension
        }
    }
}

/// Where a stream output goes, as its token wrote it: host, port, path and query options for a URI;
/// the path alone for a playlist (`DIR/NAME.m3u8`).
package struct StreamAddress: Sendable {
    /// The token as written, its secrets (password, token) masked: for messages.
    package let uri: String

    /// The address to bind (a server), or to send to; empty for an SRT listener, or for a playlist.
    package let host: String
    package let port: Int
    /// The RTSP mount path (`/gray`), or the playlist's path.
    package let path: String
    /// The query's options, in order (`latency=200`).
    package let options: [(name: String, value: String)]
    /// The user and password written before the host, taken out of `uri`.
    package var credentials: URICredentials? = nil
    /// The token as written, secrets and all (nil: as `uri`): never printed, for a client that sends
    /// them on (`whip+http://…?token=`).
    package var writtenToken: String? = nil
    /// `writtenToken`, or `uri`.
    package var written: String { writtenToken ?? uri }

    /// The value of the last option called `name`, if any.
    package func option(_ name: String) -> String? { options.last { $0.name == name }?.value }

    /// Reads `token`, which `scheme` names, and refuses what it cannot use as written (exit 2), in
    /// the order a user fixes an address: its form, port, host, path, then its options.
    package static func parse(_ token: String, as scheme: OutputScheme) throws(CommandFailure) -> StreamAddress {
        guard case .uri = scheme.naming else {
            return StreamAddress(uri: token, host: "", port: 0, path: token, options: [])
        }
        let name = token.split(separator: ":").first.map { $0.lowercased() } ?? ""
        let example = scheme.example
        if URICredentials.isCarried(by: token) && !scheme.takesCredentials {
            // Split only to register the password, so that the message hides it whatever it holds.
            _ = try? URICredentials.split(token, environment: [:])
            throw .usage(
                "\(Secrets.redact(token)): a \(name):// address takes no user or password: write it as \(example)")
        }
        let (bare, credentials) = try URICredentials.split(token)
        if scheme.pathEndsInSecret, let secret = secretPathEnd(of: bare) { Secrets.register(secret) }
        // Redacted once the password is registered: the forms alone stop at a quote or a backslash, and
        // showed `rtsp://alice:'s3cret@host` whole (found by Fuzz/FuzzDescription).
        let shown = Secrets.redact(token)
        let pattern = #"^[A-Za-z][A-Za-z0-9+.-]*://(\[[^\]]*\]|[^/:?]*)(:([0-9]*))?(/[^?]*)?(\?(.*))?$"#
        guard let match = bare.firstMatch(of: try! Regex(pattern)) else {
            throw .usage("cannot read \(shown) as a \(name):// address: write it as \(example)")
        }
        let host = match.output[1].substring.map(String.init) ?? ""
        // Digits too many for an Int are a port out of range, not a missing one.
        let digits = match.output[3].substring.flatMap { $0.isEmpty ? nil : $0 }
        let port = digits.map { Int($0) ?? Int.max } ?? scheme.defaultPort ?? -1
        let path = match.output[4].substring.map(String.init) ?? ""
        let query = match.output[6].substring.map(String.init) ?? ""
        guard port >= 0 else {
            throw .usage("\(shown) has no port: add one, such as \(example)")
        }
        guard (scheme.isServer ? 0 : 1)...65535 ~= port else {
            throw .usage("\(shown): the port must be between 1 and 65535")
        }
        if host.isEmpty && scheme.needsHost {
            throw .usage("\(shown) has no host: write it as \(example)")
        }
        if scheme.needsPath && (path.isEmpty || path == "/") {
            throw .usage("\(shown) has no \(scheme.pathName): name the stream, such as \(example)")
        }
        if !scheme.needsPath && !path.isEmpty && path != "/" {
            throw .usage("\(shown): a \(name):// address takes no path: write it as \(example)")
        }
        var options: [(String, String)] = []
        for item in query.split(separator: "&") where !item.isEmpty {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                throw .usage("\(shown): the option \(item) has no value: write it as name=value, such as latency=200")
            }
            if case .refused(let reason) = scheme.options { throw .usage("\(shown): \(reason)") }
            options.append((parts[0], parts[1]))
            // Hidden wherever it shows from now on, whatever its form (`token=ab;cd` is one value here).
            if ["token", "password", "passphrase"].contains(parts[0].lowercased()) { Secrets.register(parts[1]) }
        }
        if case .checked(let check) = scheme.options { try check(options, shown) }
        return StreamAddress(
            uri: shown, host: host, port: port, path: path, options: options, credentials: credentials,
            writtenToken: token)
    }

    /// The last piece of `uri`'s path when the path has two pieces or more (`KEY` of
    /// `rtmp://HOST/APP/KEY?bitrate=3000`), percent-decoded as well when it is encoded; nil otherwise.
    package static func secretPathEnd(of uri: String) -> String? {
        guard let authority = uri.range(of: "://") else { return nil }
        let rest = uri[authority.upperBound...]
        let path = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let pieces = path.split(separator: "/", omittingEmptySubsequences: true).dropFirst()
        guard pieces.count >= 2, let last = pieces.last else { return nil }
        return String(last)
    }
}
