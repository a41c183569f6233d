import CGStreamer
import CGStreamerRTSPShim
import Foundation
import GstPipeParsing

/// Who an `rtsp://` or `rtsps://` output lets in, from its URI and the command line: its users (the
/// URI's `USER:PASS@`, `--rtsp-users FILE`), asked for by Digest unless `?auth=basic`; TLS for
/// `rtsps://` (`--tls-cert`, `--tls-key`); at most `?max-clients=N` viewers at once. gst-rtsp-server
/// (GstRTSPAuth) checks all of it; nothing here touches the cryptography.
struct RTSPAccess: Sendable {
    var users: [RTSPUser] = []
    var usesBasic = false
    /// The PEM files of an `rtsps://` output.
    var tls: (certificate: String, key: String)?
    var maxClients: Int?

    /// Anyone, over plain TCP, as many as come.
    init() {}

    /// The query options an `rtsp://` output takes; anything else is refused, naming it.
    static func checkOptions(_ options: [(name: String, value: String)], _ token: String) throws(FileJob.Failure) {
        for (name, value) in options {
            switch name {
            case "auth" where ["basic", "digest"].contains(value.lowercased()):
                continue
            case "auth":
                throw .usage("\(token): auth takes basic or digest, not \(value)")
            case "max-clients" where 1...10_000 ~= (Int(value) ?? 0):
                continue
            case "max-clients":
                throw .usage("\(token): max-clients takes a number of clients, 1 to 10000, not \(value)")
            default:
                throw .usage(
                    "\(token): an rtsp:// output takes auth=basic|digest and max-clients=N, not \(name) (the server "
                        + "serves every client the same stream)")
            }
        }
    }

    /// What `address` and `settings` ask of the output (the users file read and checked here).
    /// `GSTPIPE_RTSP_PASSWORD` in `environment` with no user to take it (here or in an input) is refused:
    /// whoever set it meant the stream to need a password, and it would be served to anyone.
    init(
        _ address: StreamAddress, settings: StreamSettings,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        environmentPasswordTaken: Bool = URICredentials.environmentPasswordTaken.load(ordering: .relaxed)
    ) throws(FileJob.Failure) {
        if let credentials = address.credentials {
            users.append(RTSPUser(name: credentials.user, secret: .password(credentials.password)))
        }
        if let file = settings.rtspUsers {
            let listed = try RTSPUser.read(file: file)
            if let user = users.first, listed.contains(where: { $0.name == user.name }) {
                throw .usage("the user \(user.name) is both in \(address.uri) and in \(file): keep one of them")
            }
            users += listed
        }
        let variable = URICredentials.passwordVariable
        // (Unless an input, `rtsp://admin@camera/…`, took it: relaying a camera that needs it.)
        if users.isEmpty, environment[variable]?.isEmpty == false, !environmentPasswordTaken {
            throw .usage(
                "\(variable) is set, but \(address.uri) names no user to ask it of, so anyone could watch: write "
                    + "the user (\(address.uri.prefix { $0 != ":" })://USER@HOST:PORT/PATH), or unset \(variable)")
        }
        usesBasic = address.option("auth")?.lowercased() == "basic"
        if usesBasic, let hashed = users.first(where: { if case .digestHash = $0.secret { true } else { false } }) {
            throw .usage(
                "the user \(hashed.name) has a digest hash, which Basic authentication cannot check: give the "
                    + "password, or leave out auth=basic")
        }
        maxClients = address.option("max-clients").flatMap { Int($0) }
        if address.uri.lowercased().hasPrefix("rtsps:") {
            guard let certificate = settings.tlsCertificate, let key = settings.tlsKey else {
                throw .usage(
                    "\(address.uri) serves over TLS: give its certificate and key with --tls-cert FILE "
                        + "--tls-key FILE (PEM)")
            }
            tls = (try Self.readable(certificate, "--tls-cert"), try Self.readable(key, "--tls-key"))
        }
    }

    /// Said as the server starts when Basic is asked for without TLS: the password then crosses the
    /// network in clear (base64), for anyone on the way to read.
    var warning: String? {
        guard usesBasic && tls == nil && !users.isEmpty else { return nil }
        return "WARNING: auth=basic over rtsp:// sends each viewer's password in clear (base64): serve it as "
            + "rtsps:// (--tls-cert, --tls-key), or leave out auth=basic for Digest"
    }

    private static func readable(_ path: String, _ option: String) throws(FileJob.Failure) -> String {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .runtime("\(path) (\(option)) does not exist: check the path")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .runtime("cannot read \(path) (\(option)): check its permissions")
        }
        return path
    }

    /// Tells the server (not yet listening) all of it. Throws when gst-rtsp-server or GLib refuses a
    /// hash, a certificate or a key, with their reason.
    func apply(to server: OpaquePointer) throws(FileJob.Failure) {
        if usesBasic { CGStreamerRTSPShim_access_use_basic(server) }
        for user in users {
            switch user.secret {
            case .password(let password):
                CGStreamerRTSPShim_access_add_user(server, user.name, password)
            case .digestHash(let hash):
                var error: UnsafeMutablePointer<CChar>?
                if CGStreamerRTSPShim_access_add_user_hash(server, user.name, hash, &error) == 0 {
                    throw .runtime("cannot let \(user.name) in: \(Self.take(error))")
                }
            }
        }
        if let tls {
            var error: UnsafeMutablePointer<CChar>?
            if CGStreamerRTSPShim_access_use_tls(server, tls.certificate, tls.key, &error) == 0 {
                throw .runtime("cannot serve over TLS with \(tls.certificate) and \(tls.key): \(Self.take(error))")
            }
        }
        if let maxClients { CGStreamerRTSPShim_access_limit_clients(server, Int32(maxClients)) }
    }

    /// The C error's text, freed.
    static func take(_ error: UnsafeMutablePointer<CChar>?) -> String {
        defer { g_free(error) }
        return error.map { String(cString: $0) } ?? "no reason given"
    }
}
